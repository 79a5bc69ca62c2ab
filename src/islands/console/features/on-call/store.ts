// On-call (issue 30): the company's schedules with who is on call now and next, one schedule with
// its resolved shifts and overrides, the signed-in person's own shifts, and the private calendar
// feed addresses. Company admins write; viewers read (the server refuses their writes, and the
// screens offer them no button that would fail).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, refreshInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type Schedule = S['Schedule'];
export type ScheduleInput = S['ScheduleInput'];
export type LayerInput = S['ScheduleLayerInput'];
export type Restriction = S['ScheduleRestriction'];
export type Shift = S['Shift'];
export type Weekday = S['Weekday'];
export type Handoff = S['HandoffKind'];

export const DAY = 86_400_000;

export const $schedules = atom<Load<Schedule[]>>({ status: 'loading' });
export const $schedule = atom<Load<Schedule>>({ status: 'loading' });
export const $shifts = atom<Load<Shift[]>>({ status: 'loading' });
export const $myShifts = atom<Load<Shift[]>>({ status: 'loading' });
export const $onCallAlert = atom<{ ok: boolean; text: string } | null>(null);

export function loadSchedules(): Promise<void> {
  return loadInto($schedules, () => api.GET('/api/v1/schedules'), serverOr(t('onCall.store.loadSchedulesFailed')));
}

export function loadSchedule(id: string): Promise<void> {
  return loadInto(
    $schedule,
    () => api.GET('/api/v1/schedules/{id}', { params: { path: { id } } }),
    serverOr(t('onCall.store.loadScheduleFailed')),
  );
}

/** The resolved shifts of [from, from + days). */
export async function loadShifts(id: string, from: number, days: number): Promise<void> {
  const query = { from: new Date(from).toISOString(), to: new Date(from + days * DAY).toISOString() };
  await loadInto(
    $shifts,
    async () => {
      const r = await api.GET('/api/v1/schedules/{id}/shifts', { params: { path: { id }, query } });
      return { ...r, data: r.data?.shifts };
    },
    serverOr(t('onCall.store.loadShiftsFailed')),
  );
}

export async function loadMyShifts(from: number, days: number): Promise<void> {
  const query = { from: new Date(from).toISOString(), to: new Date(from + days * DAY).toISOString() };
  await loadInto(
    $myShifts,
    async () => {
      const r = await api.GET('/api/v1/account/shifts', { params: { query } });
      return { ...r, data: r.data?.shifts };
    },
    serverOr(t('onCall.store.loadMyShiftsFailed')),
  );
}

/** A refused form: the server's reason and its message per field ('layers.0.user_ids'). */
export type Outcome<T = undefined> = { ok: true; data: T } | { ok: false; text: string; fields: Record<string, string> };

function refused(error: unknown, failed: string): { ok: false; text: string; fields: Record<string, string> } {
  const fields = (error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
  return { ok: false, text: errorText(error, failed), fields };
}

export async function createSchedule(body: ScheduleInput): Promise<Outcome<Schedule>> {
  const r = await api.POST('/api/v1/schedules', { body });
  if (!r.data) return refused(r.error, t('onCall.store.createFailed'));
  $onCallAlert.set({ ok: true, text: `Schedule "${r.data.name}" created.` });
  return { ok: true, data: r.data };
}

export async function saveSchedule(id: string, body: ScheduleInput): Promise<Outcome<Schedule>> {
  const r = await api.PUT('/api/v1/schedules/{id}', { params: { path: { id } }, body });
  if (!r.data) return refused(r.error, t('onCall.store.saveFailed'));
  $schedule.set({ status: 'ready', data: r.data });
  $onCallAlert.set({ ok: true, text: t('onCall.store.saved') });
  return { ok: true, data: r.data };
}

export async function deleteSchedule(id: string): Promise<Outcome> {
  const r = await api.DELETE('/api/v1/schedules/{id}', { params: { path: { id } } });
  if (!r.response.ok) return refused(r.error, t('onCall.store.deleteFailed'));
  $onCallAlert.set({ ok: true, text: t('onCall.store.deleted') });
  return { ok: true, data: undefined };
}

export async function addOverride(id: string, body: S['ScheduleOverrideInput']): Promise<Outcome> {
  const r = await api.POST('/api/v1/schedules/{id}/overrides', { params: { path: { id } }, body });
  if (!r.data) return refused(r.error, t('onCall.store.addOverrideFailed'));
  $schedule.set({ status: 'ready', data: r.data });
  $onCallAlert.set({ ok: true, text: t('onCall.store.overrideAdded') });
  return { ok: true, data: undefined };
}

export async function removeOverride(id: string, overrideId: string): Promise<Outcome> {
  const r = await api.DELETE('/api/v1/schedules/{id}/overrides/{overrideId}', { params: { path: { id, overrideId } } });
  if (!r.response.ok) return refused(r.error, t('onCall.store.removeOverrideFailed'));
  await refreshInto($schedule, () => api.GET('/api/v1/schedules/{id}', { params: { path: { id } } }));
  $onCallAlert.set({ ok: true, text: t('onCall.store.overrideRemoved') });
  return { ok: true, data: undefined };
}

/** A feed address is shown once (the server keeps only a hash): a new one revokes the old. */
export async function issueScheduleFeed(id: string): Promise<Outcome<string>> {
  const r = await api.POST('/api/v1/schedules/{id}/calendar-feed', { params: { path: { id } } });
  return r.data ? { ok: true, data: r.data.url } : refused(r.error, t('onCall.store.feedCreateFailed'));
}

export async function revokeScheduleFeed(id: string): Promise<Outcome> {
  const r = await api.DELETE('/api/v1/schedules/{id}/calendar-feed', { params: { path: { id } } });
  return r.response.ok ? { ok: true, data: undefined } : refused(r.error, t('onCall.store.feedRevokeFailed'));
}

export async function issueMyFeed(): Promise<Outcome<string>> {
  const r = await api.POST('/api/v1/account/calendar-feed');
  return r.data ? { ok: true, data: r.data.url } : refused(r.error, t('onCall.store.feedCreateFailed'));
}

export async function revokeMyFeed(): Promise<Outcome> {
  const r = await api.DELETE('/api/v1/account/calendar-feed');
  return r.response.ok ? { ok: true, data: undefined } : refused(r.error, t('onCall.store.feedRevokeFailed'));
}

export interface Person {
  id: string;
  name: string;
}

/** Whom a new schedule may name: the company's active users (a schedule's answer lists them itself). */
export async function loadPeople(): Promise<Person[]> {
  const r = await api.GET('/api/v1/admin/users');
  return (r.data ?? [])
    .filter((u) => u.is_active && u.company_id)
    .map((u) => ({ id: u.id, name: u.full_name }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
