// Which monitors a maintenance window covers and when: the one rule the engine (no incidents,
// no alerts), the monitors list and the status page share. Pure.
//
// A window runs from starts_at to ends_at; a recurring one runs that same span again every week
// or every month (same weekday or same day of the month, UTC; a day the month lacks falls on its
// last day). A cancelled window covers nothing.

export type Recurrence = 'weekly' | 'monthly';

export interface WindowScope {
  /** Absent when the window was read for the monitor's own company */
  company_id?: string;
  /** null (and no monitor_ids): every monitor of the company */
  monitor_id: string | null;
  /** The monitors the window covers; when given and not empty they decide, not monitor_id */
  monitor_ids?: readonly string[];
}

export interface WindowTimes {
  starts_at: number | string;
  ends_at: number | string;
  recurrence?: Recurrence | string | null;
  cancelled_at?: number | string | null;
}

const WEEK_MS = 7 * 24 * 3600_000;
/** The longest span a recurring window may have: occurrences must not overlap. */
export const MAX_RECURRING_SPAN_MS: Record<Recurrence, number> = { weekly: WEEK_MS, monthly: 28 * 24 * 3600_000 };

/** The window lists the monitor, or covers its whole company. */
export function coversMonitor(w: WindowScope, m: { id: string; company_id: string }): boolean {
  if (w.company_id !== undefined && w.company_id !== m.company_id) return false;
  if (w.monitor_ids?.length) return w.monitor_ids.includes(m.id);
  return w.monitor_id === null || w.monitor_id === m.id;
}

/** The k-th occurrence's start (k = 0 is starts_at). */
function occurrenceStart(start: number, recurrence: Recurrence, k: number): number {
  if (recurrence === 'weekly') return start + k * WEEK_MS;
  const d = new Date(start);
  const y = d.getUTCFullYear();
  const month = d.getUTCMonth() + k;
  const lastDay = new Date(Date.UTC(y, month + 1, 0)).getUTCDate();
  const time = start - Date.UTC(y, d.getUTCMonth(), d.getUTCDate());
  return Date.UTC(y, month, Math.min(d.getUTCDate(), lastDay)) + time;
}

/** The occurrence running at `at`, or the next one to come (null: none, or cancelled). */
export function occurrenceFrom(w: WindowTimes, at: number): { start: number; end: number } | null {
  if (w.cancelled_at !== null && w.cancelled_at !== undefined) return null;
  const start = Number(w.starts_at);
  const span = Number(w.ends_at) - start;
  const recurrence = w.recurrence === 'weekly' || w.recurrence === 'monthly' ? w.recurrence : null;
  if (!recurrence || at < start) return at < start + span ? { start, end: start + span } : null;
  // A first guess at the occurrence index, then step to the one that has not ended by `at`.
  let k =
    recurrence === 'weekly'
      ? Math.floor((at - start) / WEEK_MS)
      : (new Date(at).getUTCFullYear() - new Date(start).getUTCFullYear()) * 12 +
        new Date(at).getUTCMonth() -
        new Date(start).getUTCMonth() -
        1;
  k = Math.max(0, k);
  while (occurrenceStart(start, recurrence, k) + span <= at) k += 1;
  const s = occurrenceStart(start, recurrence, k);
  return { start: s, end: s + span };
}

/** The window runs at `at` (start included, end excluded); times may arrive as strings. */
export function isActiveAt(w: WindowTimes, at: number): boolean {
  const o = occurrenceFrom(w, at);
  return o !== null && o.start <= at && at < o.end;
}
