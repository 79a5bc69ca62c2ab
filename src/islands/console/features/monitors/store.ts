// The Monitors list (issue 13): one page at a time from the server, which searches, filters, sorts
// and counts; the super admin's list follows the tenant chosen in the selector. Bulk pause,
// resume, archive and restore run the single-monitor calls for the selected rows.
import { atom } from 'nanostores';
import type { components, operations } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { serverOr, loadInto, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { coalesced, type LiveMonitor } from '../../stores/live.ts';

export type MonitorRow = components['schemas']['MonitorListItem'];
export type MonitorStatus = components['schemas']['MonitorStatus'];
export type MonitorType = components['schemas']['MonitorType'];
type ListParams = NonNullable<operations['listMonitors']['parameters']['query']>;
export type SortKey = NonNullable<ListParams['sort']>;

export const PAGE_SIZE = 50;

/** A monitor status as the list and the monitor page word and colour it. */
export const STATUS_TEXT: Record<MonitorStatus, { text: string; tone: string }> = {
  operational: { text: 'Up', tone: 'green' },
  degraded: { text: 'Degraded', tone: 'amber' },
  down: { text: 'Down', tone: 'red' },
  unknown: { text: 'Pending', tone: 'grey' },
  paused: { text: 'Paused', tone: 'grey' },
};

export interface ListQuery {
  q: string;
  status: MonitorStatus | '';
  type: MonitorType | '';
  visibility: 'public' | 'private' | '';
  /** The archived monitors (to restore them) instead of the others */
  archived: boolean;
  sort: SortKey;
  order: 'asc' | 'desc';
  offset: number;
}

export const FIRST_QUERY: ListQuery = {
  q: '',
  status: '',
  type: '',
  visibility: '',
  archived: false,
  sort: 'created_at',
  order: 'desc',
  offset: 0,
};

export interface MonitorPage {
  items: MonitorRow[];
  total: number;
}

export const $listQuery = atom<ListQuery>(FIRST_QUERY);
export const $monitorPage = atom<Load<MonitorPage>>({ status: 'loading' });
export const $selected = atom<ReadonlySet<string>>(new Set());
export const $monitorAlert = atom<Alert | null>(null);

/** The query string of a list query (empty filters left out; the tenant for super admins only). */
export function listParams(q: ListQuery, tenant: string | null): ListParams {
  const p: ListParams = { sort: q.sort, order: q.order, limit: PAGE_SIZE, offset: q.offset };
  if (q.q.trim()) p.q = q.q.trim().slice(0, 200);
  if (q.status) p.status = q.status;
  if (q.type) p.type = q.type;
  if (q.visibility) p.is_public = q.visibility === 'public';
  if (q.archived) p.archived = true;
  if (tenant) p.tenant = tenant;
  return p;
}

/** A change of search, filter or sort starts again at the first page; paging keeps the rest. */
export function withQuery(q: ListQuery, change: Partial<Omit<ListQuery, 'offset'>>): ListQuery {
  return { ...q, ...change, offset: 0 };
}

/** The direction a column's header first sorts in: newest, slowest and last checked first. */
export function firstOrder(sort: SortKey): 'asc' | 'desc' {
  return sort === 'created_at' || sort === 'last_checked_at' || sort === 'last_response_time' ? 'desc' : 'asc';
}

let tenantOfList: string | null = null;
let latest = 0;

/** `quiet` (live updates): a failed answer keeps the rows shown instead of an error. */
export async function loadMonitors(tenant: string | null = tenantOfList, quiet = false): Promise<void> {
  tenantOfList = tenant;
  const call = ++latest;
  const q = $listQuery.get();
  const target = atom<Load<MonitorPage>>({ status: 'loading' });
  if ($monitorPage.get().status !== 'ready') $monitorPage.set({ status: 'loading' });
  await loadInto(
    target,
    async () => {
      const r = await api.GET('/api/v1/monitors', { params: { query: listParams(q, tenant) } });
      const total = Number(r.response?.headers.get('x-total-count') ?? r.data?.length ?? 0);
      return { ...r, data: r.data ? { items: r.data, total } : undefined };
    },
    serverOr('Failed to load monitors. Please try again.'),
  );
  // a slower answer to an older keystroke never replaces a newer one
  if (call !== latest || (quiet && target.get().status === 'error' && $monitorPage.get().status === 'ready')) return;
  $monitorPage.set(target.get());
  const shown = new Set(target.get().status === 'ready' ? (target.get() as { data: MonitorPage }).data.items.map((m) => m.id) : []);
  $selected.set(new Set([...$selected.get()].filter((id) => shown.has(id))));
}

export function setListQuery(q: ListQuery): Promise<void> {
  $listQuery.set(q);
  return loadMonitors();
}

export function toggleSelected(id: string, on: boolean): void {
  const next = new Set($selected.get());
  if (on) next.add(id);
  else next.delete(id);
  $selected.set(next);
}

type MonitorAction =
  | '/api/v1/monitors/{id}/pause'
  | '/api/v1/monitors/{id}/resume'
  | '/api/v1/monitors/{id}/archive'
  | '/api/v1/monitors/{id}/restore';

/** Pauses or resumes every selected monitor; the alert counts what went through. */
export function bulkSetPaused(paused: boolean): Promise<void> {
  return onSelected(paused ? '/api/v1/monitors/{id}/pause' : '/api/v1/monitors/{id}/resume', paused ? 'paused' : 'resumed');
}

/** Archives or restores every selected monitor (a restore is refused when the plan is full). */
export function bulkSetArchived(archived: boolean): Promise<void> {
  return onSelected(archived ? '/api/v1/monitors/{id}/archive' : '/api/v1/monitors/{id}/restore', archived ? 'archived' : 'restored');
}

export async function setArchived(id: string, archived: boolean): Promise<void> {
  $selected.set(new Set([id]));
  await bulkSetArchived(archived);
}

async function onSelected(path: MonitorAction, verb: string): Promise<void> {
  const ids = [...$selected.get()];
  const answers = await Promise.all(ids.map((id) => api.POST(path, { params: { path: { id } } }).catch((e: unknown) => ({ error: e }))));
  const failed = answers.filter((a) => !('data' in a) || a.data === undefined);
  const done = ids.length - failed.length;
  $monitorAlert.set(
    failed.length === 0
      ? { ok: true, text: `${done} monitor${done === 1 ? '' : 's'} ${verb}.` }
      : { ok: false, text: `${done} of ${ids.length} monitors ${verb}. ${errorText(failed[0].error, '')}`.trim() },
  );
  $selected.set(new Set());
  await loadMonitors();
}

export async function setPaused(id: string, paused: boolean): Promise<void> {
  $selected.set(new Set([id]));
  await bulkSetPaused(paused);
}

const reloadSoon = coalesced(() => loadMonitors(tenantOfList, true));

/** A live update: rows on screen take their monitor's new state (pill, last checked, response
 *  time); a change of state, or monitors added or removed, reloads the page (filters, order). */
export function applyLiveMonitors(update: { monitors: LiveMonitor[]; reload: boolean }): void {
  const page = $monitorPage.get();
  if (page.status === 'loading') return;
  // a reload that failed (offline for a moment) is retried by the next event
  if (update.reload || page.status === 'error') {
    reloadSoon();
    return;
  }
  const live = new Map(update.monitors.map((m) => [m.id, m]));
  if (!page.data.items.some((row) => live.has(row.id))) return;
  const items = page.data.items.map((row) => {
    const m = live.get(row.id);
    return m ? { ...row, ...m } : row;
  });
  $monitorPage.set({ status: 'ready', data: { ...page.data, items } });
}

/** After a reconnection: the page again, without a spinner. */
export const reloadMonitorsQuietly = reloadSoon;
