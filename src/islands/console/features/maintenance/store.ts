// Maintenance windows (issue 13): the list, and the verbs a company admin has - schedule, edit,
// end now, cancel (update rights only: the record stays; only super admins delete it).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { parseUtcInput, utcInputValue } from '../../../../lib/dates.ts';
import { api, errorText } from '../../api.ts';
import { loadInto, refreshInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { t } from '../../i18n.ts';

type S = components['schemas'];
export type Window = S['MaintenanceWindow'];
export type Recurrence = '' | 'weekly' | 'monthly';

export const $windows = atom<Load<Window[]>>({ status: 'loading' });
export const $maintenanceAlert = atom<Alert | null>(null);

export function loadWindows(tenant: string | null): Promise<void> {
  return loadInto(
    $windows,
    () => api.GET('/api/v1/maintenance-windows', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('maintenance.store.loadFailed')),
  );
}

/** A live update: the windows again, behind what is shown. */
export function refreshWindows(tenant: string | null): Promise<void> {
  return refreshInto($windows, () => api.GET('/api/v1/maintenance-windows', { params: { query: { tenant: tenant ?? undefined } } }));
}

export interface WindowForm {
  title: string;
  description: string;
  /** none: every monitor of the company */
  monitorIds: string[];
  /** datetime-local values, in UTC (lib/dates.ts) */
  startsAt: string;
  endsAt: string;
  recurrence: Recurrence;
}

export function emptyWindow(now: number): WindowForm {
  const start = Math.ceil(now / 3600_000) * 3600_000 + 3600_000;
  return {
    title: '',
    description: '',
    monitorIds: [],
    startsAt: utcInputValue(start),
    endsAt: utcInputValue(start + 2 * 3600_000),
    recurrence: '',
  };
}

export function formOf(w: Window): WindowForm {
  return {
    title: w.title,
    description: w.description ?? '',
    monitorIds: w.monitor_ids,
    startsAt: utcInputValue(Date.parse(w.starts_at)),
    endsAt: utcInputValue(Date.parse(w.ends_at)),
    recurrence: w.recurrence ?? '',
  };
}

export function validateWindow(f: WindowForm): Record<string, string> {
  const e: Record<string, string> = {};
  if (!f.title.trim()) e.title = t('maintenance.form.titleRequired');
  const s = parseUtcInput(f.startsAt);
  const end = parseUtcInput(f.endsAt);
  if (Number.isNaN(s)) e.startsAt = t('maintenance.form.startRequired');
  if (Number.isNaN(end)) e.endsAt = t('maintenance.form.endRequired');
  else if (!Number.isNaN(s) && end <= s) e.endsAt = t('maintenance.form.endAfterStart');
  return e;
}

const FIELD_OF: Record<string, keyof WindowForm> = { starts_at: 'startsAt', ends_at: 'endsAt', monitor_ids: 'monitorIds' };

export type Outcome = { ok: true } | { ok: false; text: string; fields: Record<string, string> };

async function run(
  call: () => Promise<{ data?: unknown; error?: unknown }>,
  done: string,
  failed: string,
  tenant: string | null,
): Promise<Outcome> {
  const r = await call();
  if (r.data !== undefined) {
    $maintenanceAlert.set({ ok: true, text: done });
    await loadWindows(tenant);
    return { ok: true };
  }
  const errors = (r.error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
  const fields = Object.fromEntries(Object.entries(errors).map(([k, v]) => [FIELD_OF[k] ?? k, v]));
  return { ok: false, text: errorText(r.error, failed), fields };
}

function payload(f: WindowForm) {
  return {
    title: f.title.trim(),
    description: f.description.trim() || null,
    monitor_ids: f.monitorIds,
    starts_at: new Date(parseUtcInput(f.startsAt)).toISOString(),
    ends_at: new Date(parseUtcInput(f.endsAt)).toISOString(),
    recurrence: f.recurrence || null,
  };
}

export function scheduleWindow(f: WindowForm, tenant: string | null): Promise<Outcome> {
  const body: S['MaintenanceInput'] = { ...payload(f), ...(tenant ? { company_id: tenant } : {}) };
  return run(
    () => api.POST('/api/v1/maintenance-windows', { body }),
    t('maintenance.store.scheduled'),
    t('maintenance.store.scheduleFailed'),
    tenant,
  );
}

export function editWindow(id: string, f: WindowForm, tenant: string | null): Promise<Outcome> {
  return run(
    () => api.PATCH('/api/v1/maintenance-windows/{id}', { params: { path: { id } }, body: payload(f) }),
    t('maintenance.store.updated'),
    t('maintenance.store.updateFailed'),
    tenant,
  );
}

export async function endWindow(id: string, tenant: string | null): Promise<void> {
  const o = await run(
    () => api.POST('/api/v1/maintenance-windows/{id}/end', { params: { path: { id } } }),
    t('maintenance.store.ended'),
    t('maintenance.store.endFailed'),
    tenant,
  );
  if (!o.ok) $maintenanceAlert.set({ ok: false, text: o.text });
}

export async function cancelWindow(id: string, tenant: string | null): Promise<void> {
  const o = await run(
    () => api.POST('/api/v1/maintenance-windows/{id}/cancel', { params: { path: { id } } }),
    t('maintenance.store.cancelled'),
    t('maintenance.store.cancelFailed'),
    tenant,
  );
  if (!o.ok) $maintenanceAlert.set({ ok: false, text: o.text });
}
