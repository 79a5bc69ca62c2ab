// The public history pages' view models and their month maths (UTC). Pure; imports only src/lib.
import type { IncidentView, MaintenanceView, StatusPageView } from './status.ts';
import type { CalendarMonth, UptimeRange } from './uptime-calendar.ts';

export interface MonthRef {
  /** '2026-11' */
  key: string;
  /** 'November 2026' */
  label: string;
  start: number;
  end: number;
}

/** /history: one month of public incidents and maintenance, newest first, with its neighbours. */
export interface HistoryView {
  month: MonthRef;
  /** the month before, while the history reaches back that far; null at its start */
  previous: MonthRef | null;
  /** the month after, up to the current one */
  next: MonthRef | null;
  incidents: IncidentView[];
  maintenance: MaintenanceView[];
}

/** /uptime: a calendar of daily bars per public component. */
export interface UptimeView {
  months: UptimeRange;
  components: Array<{ id: string; name: string; group: string | null; uptime: number | null; calendar: CalendarMonth[] }>;
}

/** A public page beside the status page: the snapshot (branding, header) and its own data. */
export type HistoryPageLookup<T> =
  | { kind: 'ok'; view: StatusPageView; data: T; etag: string }
  /** the company's page exists, the thing asked for (an incident) does not, or is not public */
  | { kind: 'missing'; view: StatusPageView }
  | { kind: 'not_found' }
  | { kind: 'unavailable' };

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const KEY = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The month (UTC) that holds `ms`. */
export function monthOf(ms: number): MonthRef {
  const d = new Date(ms);
  return monthAt(d.getUTCFullYear(), d.getUTCMonth());
}

function monthAt(year: number, month: number): MonthRef {
  const start = Date.UTC(year, month, 1);
  const d = new Date(start);
  return {
    key: `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}`,
    label: `${MONTH_NAMES[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
    start,
    end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1),
  };
}

/** A `?month=YYYY-MM` value, or null when it is not one. */
export function parseMonth(raw: string | null | undefined): MonthRef | null {
  const m = KEY.exec(raw ?? '');
  return m ? monthAt(Number(m[1]), Number(m[2]) - 1) : null;
}

export function monthBefore(m: MonthRef): MonthRef {
  return monthOf(m.start - 1);
}

export function monthAfter(m: MonthRef): MonthRef {
  return monthOf(m.end);
}
