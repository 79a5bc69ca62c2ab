// The Monitors list (issue 13): the server searches, filters, sorts and counts; the browser holds
// only the blocks of rows the user scrolled near (the list renders a window of them), so 10,000
// monitors cost what one screen costs. A new search, filter, sort or tenant aborts the calls of
// the old one. The super admin's list follows the tenant chosen in the selector. Bulk pause,
// resume, archive and restore run the single-monitor calls for the selected rows. Live updates
// patch the rows on screen, or fetch them again when what is listed changed.
import { atom } from 'nanostores';
import type { components, operations } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import type { Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { coalesced, type LiveMonitor } from '../../stores/live.ts';
import { t } from '../../i18n.ts';

export type MonitorRow = components['schemas']['MonitorListItem'];
export type MonitorStatus = components['schemas']['MonitorStatus'];
export type MonitorType = components['schemas']['MonitorType'];
type ListParams = NonNullable<operations['listMonitors']['parameters']['query']>;
export type SortKey = NonNullable<ListParams['sort']>;

/** Rows fetched per call: a screenful and a half on a tall display (the API allows 200). */
export const BLOCK_SIZE = 50;

/** A monitor status as the list and the monitor page word and colour it. */
// `text` is read when drawn, so it is in the language the console shows then.
export const STATUS_TEXT: Record<MonitorStatus, { readonly text: string; tone: string }> = {
  operational: {
    get text() {
      return t('monitors.status.operational');
    },
    tone: 'green',
  },
  degraded: {
    get text() {
      return t('monitors.status.degraded');
    },
    tone: 'amber',
  },
  down: {
    get text() {
      return t('monitors.status.down');
    },
    tone: 'red',
  },
  unknown: {
    get text() {
      return t('monitors.status.unknown');
    },
    tone: 'grey',
  },
  paused: {
    get text() {
      return t('monitors.status.paused');
    },
    tone: 'grey',
  },
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
}

export const FIRST_QUERY: ListQuery = { q: '', status: '', type: '', visibility: '', archived: false, sort: 'created_at', order: 'desc' };

/** Every matching monitor by its position; a row not fetched yet is undefined. */
export interface MonitorList {
  total: number;
  rows: ReadonlyArray<MonitorRow | undefined>;
  /** true while the answer to a newer search, filter or sort is awaited (the old rows stay shown) */
  stale: boolean;
}

export const $listQuery = atom<ListQuery>(FIRST_QUERY);
export const $monitorList = atom<Load<MonitorList>>({ status: 'loading' });
export const $selected = atom<ReadonlySet<string>>(new Set());
export const $monitorAlert = atom<Alert | null>(null);

/** The query string of one block of a list query (empty filters left out; the tenant for super admins only). */
export function listParams(q: ListQuery, tenant: string | null, block = 0): ListParams {
  const p: ListParams = { sort: q.sort, order: q.order, limit: BLOCK_SIZE, offset: block * BLOCK_SIZE };
  if (q.q.trim()) p.q = q.q.trim().slice(0, 200);
  if (q.status) p.status = q.status;
  if (q.type) p.type = q.type;
  if (q.visibility) p.is_public = q.visibility === 'public';
  if (q.archived) p.archived = true;
  if (tenant) p.tenant = tenant;
  return p;
}

export function withQuery(q: ListQuery, change: Partial<ListQuery>): ListQuery {
  return { ...q, ...change };
}

/** The direction a column's header first sorts in: newest, slowest and last checked first. */
export function firstOrder(sort: SortKey): 'asc' | 'desc' {
  return sort === 'created_at' || sort === 'last_checked_at' || sort === 'last_response_time' ? 'desc' : 'asc';
}

/** One query's fetches: aborted together when a newer query starts. */
interface Generation {
  query: ListQuery;
  tenant: string | null;
  abort: AbortController;
  /** blocks asked for (answered or in flight) */
  asked: Set<number>;
  /** the rows the first answer builds on: none for a new query, the shown ones for a reload */
  keepRows: boolean;
}

let tenantOfList: string | null = null;
let current: Generation | null = null;

function start(keepRows: boolean): Generation {
  current?.abort.abort();
  current = { query: $listQuery.get(), tenant: tenantOfList, abort: new AbortController(), asked: new Set(), keepRows };
  return current;
}

async function fetchBlock(gen: Generation, block: number): Promise<void> {
  gen.asked.add(block);
  const answer = await api
    .GET('/api/v1/monitors', { params: { query: listParams(gen.query, gen.tenant, block) }, signal: gen.abort.signal })
    .catch((e: unknown) => ({ data: undefined, error: e, response: undefined }));
  if (gen !== current) return; // an answer to an older keystroke never replaces a newer one
  const items = answer.data;
  if (!items) {
    gen.asked.delete(block); // asked again when scrolled to
    // a reload (after a change or a live update) that fails keeps the rows shown
    if ((block === 0 && !gen.keepRows) || $monitorList.get().status !== 'ready')
      $monitorList.set({ status: 'error', message: errorText(answer.error, t('monitors.list.loadFailed')) });
    return;
  }
  const total = Number(answer.response?.headers.get('x-total-count') ?? items.length);
  const shown = $monitorList.get();
  const base = shown.status === 'ready' && (!shown.data.stale || gen.keepRows) ? shown.data.rows : [];
  const rows = base.slice(0, total);
  rows.length = total;
  items.forEach((m, i) => {
    rows[block * BLOCK_SIZE + i] = m;
  });
  $monitorList.set({ status: 'ready', data: { total, rows, stale: false } });
  if (!gen.keepRows && block === 0) {
    const ids = new Set(items.map((m) => m.id));
    $selected.set(new Set([...$selected.get()].filter((id) => ids.has(id))));
  }
}

/**
 * Starts the list again from its first block, for a new query or tenant (the old rows stay on
 * screen, marked stale, until the first answer replaces them).
 */
export function loadMonitors(tenant: string | null = tenantOfList): Promise<void> {
  tenantOfList = tenant;
  const gen = start(false);
  const shown = $monitorList.get();
  if (shown.status === 'ready') $monitorList.set({ status: 'ready', data: { ...shown.data, stale: true } });
  else $monitorList.set({ status: 'loading' });
  return fetchBlock(gen, 0);
}

/** Fetches again every block on screen after a change, keeping the rows shown meanwhile. */
export function reloadMonitors(range: { start: number; end: number } = lastRange): Promise<void> {
  const gen = start(true);
  const first = Math.floor(range.start / BLOCK_SIZE);
  const last = Math.max(first, Math.floor((Math.max(range.end, 1) - 1) / BLOCK_SIZE));
  const calls: Array<Promise<void>> = [];
  for (let b = first; b <= last; b++) calls.push(fetchBlock(gen, b));
  return Promise.all(calls).then(() => undefined);
}

let lastRange = { start: 0, end: 0 };

/** The list asks for the rows it is about to render; blocks not yet asked for are fetched. */
export function needRows(blocks: number[], range: { start: number; end: number }): void {
  lastRange = range;
  const gen = current;
  const shown = $monitorList.get();
  // a new query's first answer comes before any further block of it
  if (!gen || shown.status !== 'ready' || shown.data.stale) return;
  for (const b of blocks) if (!gen.asked.has(b)) void fetchBlock(gen, b);
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
      ? { ok: true, text: t('monitors.bulk.done', { count: done, verb }) }
      : { ok: false, text: t('monitors.bulk.partly', { done, total: ids.length, verb, detail: errorText(failed[0].error, '') }).trim() },
  );
  $selected.set(new Set());
  await reloadMonitors();
}

export async function setPaused(id: string, paused: boolean): Promise<void> {
  $selected.set(new Set([id]));
  await bulkSetPaused(paused);
}

const reloadSoon = coalesced(() => reloadMonitors());

/** A live update: rows on screen take their monitor's new state (pill, last checked, response
 *  time); a change of state, or monitors added, removed or archived, fetches the rows again
 *  (filters and order may place them elsewhere). */
export function applyLiveMonitors(update: { monitors: LiveMonitor[]; reload: boolean }): void {
  const list = $monitorList.get();
  if (list.status === 'loading') return;
  // a reload that failed (offline for a moment) is retried by the next event
  if (update.reload || list.status === 'error') {
    reloadSoon();
    return;
  }
  const live = new Map(update.monitors.map((m) => [m.id, m]));
  if (!list.data.rows.some((row) => row !== undefined && live.has(row.id))) return;
  const rows = list.data.rows.map((row) => {
    const m = row && live.get(row.id);
    return m ? { ...row, ...m } : row;
  });
  $monitorList.set({ status: 'ready', data: { ...list.data, rows } });
}

/** After a reconnection: the rows on screen again, without a spinner. */
export const reloadMonitorsQuietly = reloadSoon;
