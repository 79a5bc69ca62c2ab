// The date ranges of SLA reports, in UTC days: a range given as two ISO dates covers both whole
// days; a schedule reports the last complete month or week (Monday to Sunday). Pure.
import type { ReportRange } from './sla-report.ts';

export const DAY_MS = 86_400_000;
/** Longest range one report covers (a leap year and a day of slack) */
export const MAX_REPORT_DAYS = 367;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC of an ISO date (YYYY-MM-DD), or null when it is not a real date. */
export function isoDateStart(text: string): number | null {
  const m = ISO_DATE.exec(text);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? ms : null;
}

export const isoDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** [from's midnight, the day after to's midnight), or why not. */
export function rangeOfDates(fromText: string, toText: string): ReportRange | string {
  const from = isoDateStart(fromText);
  const to = isoDateStart(toText);
  if (from === null) return 'from must be a date (YYYY-MM-DD)';
  if (to === null) return 'to must be a date (YYYY-MM-DD)';
  if (to < from) return 'to must not be before from';
  if ((to - from) / DAY_MS + 1 > MAX_REPORT_DAYS) return `A report covers at most ${MAX_REPORT_DAYS} days`;
  return { from, to: to + DAY_MS };
}

export type ReportFrequency = 'monthly' | 'weekly';

export interface ReportPeriod extends ReportRange {
  /** The schedule's once-per-period marker: '2026-10' (month) or the Monday '2026-10-19' (week) */
  key: string;
}

/** The last complete month or week before `now`. */
export function lastCompletePeriod(frequency: ReportFrequency, now: number): ReportPeriod {
  const d = new Date(now);
  if (frequency === 'monthly') {
    const to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    const from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1);
    return { key: isoDate(from).slice(0, 7), from, to };
  }
  const today = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  const sinceMonday = (d.getUTCDay() + 6) % 7;
  const to = today - sinceMonday * DAY_MS;
  const from = to - 7 * DAY_MS;
  return { key: isoDate(from), from, to };
}

export type ReportPreset = 'month' | 'quarter' | 'year';

/** The report screen's quick ranges: the last complete month or quarter, or the last 12 months to today. */
export function presetDates(preset: ReportPreset, now: number): { from: string; to: string } {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (preset === 'month') return { from: isoDate(Date.UTC(y, m - 1, 1)), to: isoDate(Date.UTC(y, m, 1) - DAY_MS) };
  if (preset === 'quarter') {
    const q = Math.floor(m / 3) * 3;
    return { from: isoDate(Date.UTC(y, q - 3, 1)), to: isoDate(Date.UTC(y, q, 1) - DAY_MS) };
  }
  const today = Date.UTC(y, m, d.getUTCDate());
  return { from: isoDate(Date.UTC(y - 1, m, d.getUTCDate()) + DAY_MS), to: isoDate(today) };
}
