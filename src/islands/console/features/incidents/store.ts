// Incidents (issue 13): the filtered list, one incident with its updates, and the verbs - write a
// manual incident, post an update (resolving is an update), edit it and write its postmortem.
// A super admin works in the tenant chosen in the selector (a new incident needs a company).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { loadInto, refreshInto, serverOr, type Alert, type FailureText } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { t, type ConsoleKey } from '../../i18n.ts';

type S = components['schemas'];
export type Incident = S['Incident'];
export type IncidentDetail = S['IncidentDetail'];
export type IncidentStatus = S['IncidentStatus'];
export type Impact = Incident['severity'];

export const IMPACTS: Impact[] = ['critical', 'high', 'medium', 'low'];
/** A severity as people choose it: with the impact on the status page it stands for (lib/status.ts). */
export const SEVERITY_LABEL: Record<Impact, ConsoleKey> = {
  critical: 'incidents.severity.critical',
  high: 'incidents.severity.high',
  medium: 'incidents.severity.medium',
  low: 'incidents.severity.low',
};
/** What a person writes; 'open' is the engine's word for an automatic incident's first state. */
export const WRITTEN_STATUSES: IncidentStatus[] = ['investigating', 'identified', 'monitoring', 'resolved'];
export const label = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export interface IncidentFilters {
  status: '' | 'open' | 'resolved';
  severity: '' | Impact;
  monitorId: string;
  origin: '' | 'automatic' | 'manual';
}
export const NO_FILTERS: IncidentFilters = { status: '', severity: '', monitorId: '', origin: '' };

export const $incidents = atom<Load<Incident[]>>({ status: 'loading' });
export const $incident = atom<Load<IncidentDetail>>({ status: 'loading' });
export const $incidentAlert = atom<Alert | null>(null);

const failed: FailureText = (error) => errorText(error, t('incidents.store.failedToLoadIncidents'));

function incidentsQuery(f: IncidentFilters, tenant: string | null) {
  return {
    tenant: tenant ?? undefined,
    status: f.status || undefined,
    severity: f.severity || undefined,
    monitor_id: f.monitorId || undefined,
    automatic: f.origin === '' ? undefined : f.origin === 'automatic',
    limit: 200,
  };
}

export function loadIncidents(f: IncidentFilters, tenant: string | null): Promise<void> {
  return loadInto($incidents, () => api.GET('/api/v1/incidents', { params: { query: incidentsQuery(f, tenant) } }), failed);
}

/** A live update: the list again, behind what is shown. */
export function refreshIncidents(f: IncidentFilters, tenant: string | null): Promise<void> {
  return refreshInto($incidents, () => api.GET('/api/v1/incidents', { params: { query: incidentsQuery(f, tenant) } }));
}

/** A live update of the incident page, kept only while it still shows this incident. */
export function refreshIncident(id: string): Promise<void> {
  const same = () => {
    const shown = $incident.get();
    return shown.status === 'ready' && shown.data.id === id;
  };
  return refreshInto($incident, () => api.GET('/api/v1/incidents/{id}', { params: { path: { id } } }), same);
}

export function loadIncident(id: string): Promise<void> {
  return loadInto(
    $incident,
    () => api.GET('/api/v1/incidents/{id}', { params: { path: { id } } }),
    serverOr(t('incidents.store.failedToLoadTheIncident')),
  );
}

export interface IncidentForm {
  title: string;
  severity: Impact;
  monitorIds: string[];
  status: IncidentStatus;
  message: string;
  isPublic: boolean;
}
export const EMPTY_INCIDENT: IncidentForm = {
  title: '',
  severity: 'medium',
  monitorIds: [],
  status: 'investigating',
  message: '',
  isPublic: true,
};

export function validateIncident(f: IncidentForm): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.title.trim()) e.title = t('incidents.store.titleIsRequired');
  if (!f.message.trim()) e.message = t('incidents.incidentPage.messageIsRequired');
  return e;
}

/** The server's per-field messages, else one line for the alert. */
export type Outcome<T> = { ok: true; data: T } | { ok: false; text: string; fields: Record<string, string> };

function outcome<T>(r: { data?: T; error?: unknown }, fallback: string): Outcome<T> {
  if (r.data !== undefined) return { ok: true, data: r.data };
  const fields = (r.error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
  return { ok: false, text: errorText(r.error, fallback), fields };
}

export async function createIncident(f: IncidentForm, tenant: string | null): Promise<Outcome<IncidentDetail>> {
  const body: S['IncidentInput'] = {
    title: f.title.trim(),
    severity: f.severity,
    status: f.status,
    message: f.message.trim(),
    monitor_ids: f.monitorIds,
    is_public: f.isPublic,
  };
  if (tenant) body.company_id = tenant;
  return outcome(await api.POST('/api/v1/incidents', { body }), t('incidents.store.failedToCreateTheIncident'));
}

export async function postUpdate(
  id: string,
  status: IncidentStatus,
  message: string,
  messageTranslations: Record<string, string> = {},
): Promise<Outcome<IncidentDetail>> {
  const body = { status, message: message.trim(), message_translations: messageTranslations };
  const r = await api.POST('/api/v1/incidents/{id}/updates', { params: { path: { id } }, body });
  const o = outcome(r, t('incidents.store.failedToPostTheUpdate'));
  if (o.ok) $incident.set({ status: 'ready', data: o.data });
  return o;
}

export async function editIncident(id: string, body: S['IncidentEdit']): Promise<Outcome<IncidentDetail>> {
  const o = outcome(
    await api.PATCH('/api/v1/incidents/{id}', { params: { path: { id } }, body }),
    t('incidents.store.failedToSaveTheIncident'),
  );
  if (o.ok) $incident.set({ status: 'ready', data: o.data });
  return o;
}

/** Someone is on it: records who and when, stops escalation; a second acknowledgement is refused (409). */
export async function acknowledgeIncident(id: string): Promise<Outcome<IncidentDetail>> {
  const o = outcome(
    await api.POST('/api/v1/incidents/{id}/acknowledge', { params: { path: { id } } }),
    t('incidents.store.failedToAcknowledgeTheIncident'),
  );
  if (o.ok) $incident.set({ status: 'ready', data: o.data });
  return o;
}
