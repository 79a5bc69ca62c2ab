// The company's incident and maintenance templates (GET /api/v1/incident-templates, any member);
// a company admin creates, replaces and deletes them. The incident and maintenance forms offer
// them with "Use template" (stores/incident-templates.ts).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type Template = S['IncidentTemplate'];
export type Impact = NonNullable<Template['impact']>;

export const IMPACT_CHOICES: ReadonlyArray<readonly [Impact, string]> = [
  ['minor', 'Minor: degraded performance'],
  ['major', 'Major: partial outage'],
  ['critical', 'Critical: major outage'],
];

export const $templates = atom<Load<Template[]>>({ status: 'loading' });
export const $templatesAlert = atom<Alert | null>(null);

export function loadTemplates(tenant: string | null): Promise<void> {
  return loadInto(
    $templates,
    () => api.GET('/api/v1/incident-templates', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr('Failed to load the templates.'),
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
  if (!f.name.trim()) e.name = 'Name is required';
  if (!f.title.trim()) e.title = 'Title is required';
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
      return { ok: false, text: errorText(r.error, 'The template could not be saved.'), fields };
    }
  } catch (e) {
    return { ok: false, text: errorText(e, 'The template could not be saved.'), fields: {} };
  }
  $templatesAlert.set({ ok: true, text: id ? `Template "${body.name}" saved.` : `Template "${body.name}" added.` });
  await loadTemplates(tenant);
  return { ok: true };
}

export async function deleteTemplate(t: Template, tenant: string | null): Promise<void> {
  try {
    const r = await api.DELETE('/api/v1/incident-templates/{id}', { params: { path: { id: t.id } } });
    if (r.error !== undefined) {
      $templatesAlert.set({ ok: false, text: errorText(r.error, `Template "${t.name}" could not be deleted.`) });
      return;
    }
  } catch (e) {
    $templatesAlert.set({ ok: false, text: errorText(e, `Template "${t.name}" could not be deleted.`) });
    return;
  }
  $templatesAlert.set({ ok: true, text: `Template "${t.name}" deleted.` });
  await loadTemplates(tenant);
}
