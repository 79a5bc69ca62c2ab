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

/**
 * The named periods of the report screen and of the API's `period`, newest first: the month so
 * far, the rolling 7 and 30 days up to today, and the last complete month or quarter, or the
 * last 12 months up to today. Every one is a range of whole UTC days, today included where it
 * reaches today.
 */
export const REPORT_PERIODS = ['this_month', 'last_7_days', 'last_30_days', 'last_month', 'last_quarter', 'last_12_months'] as const;
export type ReportPeriodName = (typeof REPORT_PERIODS)[number];

export const isReportPeriod = (v: unknown): v is ReportPeriodName => (REPORT_PERIODS as readonly unknown[]).includes(v);

/** The first and last day (both included, YYYY-MM-DD) of a named period at `now`. */
export function periodDates(period: ReportPeriodName, now: number): { from: string; to: string } {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  const today = Date.UTC(y, m, d.getUTCDate());
  switch (period) {
    case 'this_month':
      return { from: isoDate(Date.UTC(y, m, 1)), to: isoDate(today) };
    case 'last_7_days':
      return { from: isoDate(today - 6 * DAY_MS), to: isoDate(today) };
    case 'last_30_days':
      return { from: isoDate(today - 29 * DAY_MS), to: isoDate(today) };
    case 'last_month':
      return { from: isoDate(Date.UTC(y, m - 1, 1)), to: isoDate(Date.UTC(y, m, 1) - DAY_MS) };
    case 'last_quarter': {
      const q = Math.floor(m / 3) * 3;
      return { from: isoDate(Date.UTC(y, q - 3, 1)), to: isoDate(Date.UTC(y, q, 1) - DAY_MS) };
    }
    case 'last_12_months':
      return { from: isoDate(Date.UTC(y - 1, m, d.getUTCDate()) + DAY_MS), to: isoDate(today) };
  }
}

/**
 * The calendar periods a report opens on, newest first; the rolling 7 and 30 days are offered
 * but never chosen for the user (they overlap this month and the last).
 */
const OPENING_ORDER: ReportPeriodName[] = ['this_month', 'last_month', 'last_quarter', 'last_12_months'];

/**
 * The latest period that holds data: the newest of the calendar periods that contains the
 * company's latest data (its last day with checks, or its last incident's start), so a company
 * made minutes ago opens on this month and one whose checks stopped in a past month opens there.
 * Without data, or with data older than a year: this month (where its first checks will show).
 */
export function latestPeriodWithData(latestDataAt: number | null, now: number): ReportPeriodName {
  if (latestDataAt === null) return 'this_month';
  const day = Math.floor(latestDataAt / DAY_MS) * DAY_MS;
  const found = OPENING_ORDER.find((p) => {
    const { from, to } = periodDates(p, now);
    return day >= isoDateStart(from)! && day <= isoDateStart(to)!;
  });
  return found ?? 'this_month';
}
