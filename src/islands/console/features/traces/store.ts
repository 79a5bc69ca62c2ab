// The trace search screen's state: the filters, and the pages of results answered for them
// (newest first; "Load older" appends the next page through the server's cursor).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { parseUtcInput } from '../../../../lib/dates.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type TraceRow = components['schemas']['TraceListPage']['traces'][number];

export interface TraceFilter {
  service: string;
  operation: string;
  status: '' | 'ok' | 'error';
  minDurationMs: string;
  /** datetime-local values, in UTC (lib/dates.ts); empty = the last 24 hours */
  from: string;
  to: string;
  attr: string;
  tenant: string | null;
}

export const EMPTY_FILTER: Omit<TraceFilter, 'tenant'> = {
  service: '',
  operation: '',
  status: '',
  minDurationMs: '',
  from: '',
  to: '',
  attr: '',
};
export const PAGE_SIZE = 50;

export const $traces = atom<Load<{ rows: TraceRow[]; nextCursor: string | null; loadingMore: boolean }>>({ status: 'loading' });

// looked up when it happens: the words follow the language of the moment
const failed = (e: unknown) => serverOr(t('traces.loadFailed'))(e);
let generation = 0;

const isoOf = (utc: string) => {
  const t = parseUtcInput(utc);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
};

async function page(f: TraceFilter, cursor: string | undefined) {
  const n = Number(f.minDurationMs);
  return api.GET('/api/v1/traces', {
    params: {
      query: {
        service: f.service.trim() || undefined,
        operation: f.operation.trim() || undefined,
        status: f.status || undefined,
        min_duration_ms: f.minDurationMs.trim() !== '' && Number.isFinite(n) ? Math.round(n) : undefined,
        from: isoOf(f.from),
        to: isoOf(f.to),
        attr: f.attr.trim() || undefined,
        tenant: f.tenant ?? undefined,
        limit: PAGE_SIZE,
        cursor,
      },
    },
  });
}

export async function searchTraces(f: TraceFilter): Promise<void> {
  const mine = ++generation;
  $traces.set({ status: 'loading' });
  try {
    const { data, error, response } = await page(f, undefined);
    if (mine !== generation) return;
    $traces.set(
      data
        ? { status: 'ready', data: { rows: data.traces, nextCursor: data.nextCursor, loadingMore: false } }
        : { status: 'error', message: failed(error), httpStatus: response?.status },
    );
  } catch (e) {
    if (mine === generation) $traces.set({ status: 'error', message: failed(e) });
  }
}

/** The next, older page after the rows shown. */
export async function loadOlder(f: TraceFilter): Promise<void> {
  const now = $traces.get();
  if (now.status !== 'ready' || !now.data.nextCursor || now.data.loadingMore) return;
  const mine = generation;
  $traces.set({ status: 'ready', data: { ...now.data, loadingMore: true } });
  try {
    const { data, error } = await page(f, now.data.nextCursor);
    if (mine !== generation) return;
    if (!data) throw new Error(failed(error));
    $traces.set({ status: 'ready', data: { rows: [...now.data.rows, ...data.traces], nextCursor: data.nextCursor, loadingMore: false } });
  } catch (e) {
    if (mine === generation) $traces.set({ status: 'error', message: failed(e) });
  }
}
