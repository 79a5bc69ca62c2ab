// The company's incident and maintenance templates (GET /api/v1/incident-templates, any member);
// a company admin creates, replaces and deletes them. The incident and maintenance forms offer
// them with "Use template" (stores/incident-templates.ts).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type Template = S['IncidentTemplate'];
export type Impact = NonNullable<Template['impact']>;

/** The impacts with their labels, in the language shown when called. */
export const impactChoices = (): ReadonlyArray<readonly [Impact, string]> => [
  ['minor', t('incidentTemplates.impact.minor')],
  ['major', t('incidentTemplates.impact.major')],
  ['critical', t('incidentTemplates.impact.critical')],
];

export const $templates = atom<Load<Template[]>>({ status: 'loading' });
export const $templatesAlert = atom<Alert | null>(null);

export function loadTemplates(tenant: string | null): Promise<void> {
  return loadInto(
    $templates,
    () => api.GET('/api/v1/incident-templates', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('incidentTemplates.loadFailed')),
  );
}

export interface TemplateForm {
  name: string;
  kind: Template['kind'];
  title: string;
  message: string;
  impact: Impact;
  monitorIds: string[];
}

export const emptyTemplate = (): TemplateForm => ({ name: '', kind: 'incident', title: '', message: '', impact: 'major', monitorIds: [] });

export const formOf = (t: Template): TemplateForm => ({
  name: t.name,
  kind: t.kind,
  title: t.title,
  message: t.message,
  impact: t.impact ?? 'major',
  monitorIds: t.monitor_ids,
});

export function validateTemplate(f: TemplateForm): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.name.trim()) e.name = t('incidentTemplates.error.name');
  if (!f.title.trim()) e.title = t('incidentTemplates.error.title');
  return e;
}

export type Outcome = { ok: true } | { ok: false; text: string; fields: Record<string, string> };

/** Creates (no id) or replaces a template, then reloads the list. */
export async function saveTemplate(id: string | null, f: TemplateForm, tenant: string | null): Promise<Outcome> {
  const body: S['IncidentTemplateInput'] = {
    name: f.name.trim(),
    kind: f.kind,
    title: f.title.trim(),
    message: f.message.trim(),
    impact: f.kind === 'incident' ? f.impact : null,
    monitor_ids: f.monitorIds,
  };
  if (!id && tenant) body.company_id = tenant;
  try {
    const r = id
      ? await api.PUT('/api/v1/incident-templates/{id}', { params: { path: { id } }, body })
      : await api.POST('/api/v1/incident-templates', { body });
    if (r.error !== undefined) {
      const fields = (r.error as { errors?: Record<string, string> }).errors ?? {};
      return { ok: false, text: errorText(r.error, t('incidentTemplates.saveFailed')), fields };
    }
  } catch (e) {
    return { ok: false, text: errorText(e, t('incidentTemplates.saveFailed')), fields: {} };
  }
  $templatesAlert.set({ ok: true, text: t(id ? 'incidentTemplates.saved' : 'incidentTemplates.added', { name: body.name }) });
  await loadTemplates(tenant);
  return { ok: true };
}

export async function deleteTemplate(tpl: Template, tenant: string | null): Promise<void> {
  try {
    const r = await api.DELETE('/api/v1/incident-templates/{id}', { params: { path: { id: tpl.id } } });
    if (r.error !== undefined) {
      $templatesAlert.set({ ok: false, text: errorText(r.error, t('incidentTemplates.deleteFailed', { name: tpl.name })) });
      return;
    }
  } catch (e) {
    $templatesAlert.set({ ok: false, text: errorText(e, t('incidentTemplates.deleteFailed', { name: tpl.name })) });
    return;
  }
  $templatesAlert.set({ ok: true, text: t('incidentTemplates.deleted', { name: tpl.name }) });
  await loadTemplates(tenant);
}
