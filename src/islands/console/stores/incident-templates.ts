// A company's incident and maintenance templates, for the "Use template" select of the incident
// and maintenance forms (one list shared by both screens, loaded for the chosen tenant and kind);
// a failure is only logged: the form works without templates.
import { atom } from 'nanostores';
import type { components } from '../../../api/schema.d.ts';
import { api } from '../api.ts';
import { dataOrLog } from './remote.ts';

export type IncidentTemplate = components['schemas']['IncidentTemplate'];
export type TemplateKind = components['schemas']['IncidentTemplateKind'];

export const $incidentTemplates = atom<IncidentTemplate[]>([]);

export async function loadIncidentTemplates(tenant: string | null, kind: TemplateKind): Promise<void> {
  $incidentTemplates.set([]);
  const data = await dataOrLog(
    () => api.GET('/api/v1/incident-templates', { params: { query: { tenant: tenant ?? undefined, kind } } }),
    'Failed to load the incident templates',
  );
  if (data) $incidentTemplates.set(data);
}
