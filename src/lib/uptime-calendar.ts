// The public uptime page's calendars: one month grid of daily bars per component for the last
// 3, 6 or 12 months (UTC days), with each day's and each month's uptime. Pure; takes `now`.
import type { DailyBarView } from './status.ts';
import { DAY_MS, dailyBarTone, dayStart, uptimePercent, type RollupCounts } from './timeline.ts';

export const UPTIME_RANGES = [3, 6, 12] as const;
export type UptimeRange = (typeof UPTIME_RANGES)[number];

export interface CalendarMonth {
  /** first day of the month, 00:00 UTC */
  start: number;
  /** 'September 2026' */
  label: string;
  /** blank cells before the 1st in a Monday-first week row */
  leadingBlanks: number;
  /** each day of the month up to today */
  days: DailyBarView[];
  /** the month's uptime (maintenance excluded); null without checks */
  uptime: number | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The range a visitor asked for (`?months=`), 3 when it is missing or not one of 3, 6, 12. */
export function uptimeRange(raw: string | null | undefined): UptimeRange {
  const n = Number(raw);
  return (UPTIME_RANGES as readonly number[]).includes(n) ? (n as UptimeRange) : 3;
}

/** The first instant (UTC) of the oldest month a calendar of `months` months shows. */
export function calendarStart(now: number, months: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (months - 1), 1);
}

/** Month grids, oldest first, ending with the current month (days after today left out). */
export function uptimeCalendar(dailyRollups: RollupCounts[], now: number, months: UptimeRange): CalendarMonth[] {
  const byDay = new Map<number, RollupCounts>();
  for (const r of dailyRollups) byDay.set(dayStart(r.start), r);
  const today = dayStart(now);
  const first = new Date(calendarStart(now, months));
  const out: CalendarMonth[] = [];
  for (let i = 0; i < months; i++) {
    const start = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1);
    const next = Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i + 1, 1);
    const days: DailyBarView[] = [];
    const rows: RollupCounts[] = [];
    for (let day = start; day < next && day <= today; day += DAY_MS) {
      const r = byDay.get(day);
      if (r) rows.push(r);
      const uptime = r ? uptimePercent([r]) : null;
      days.push({ day, uptime, tone: dailyBarTone(uptime) });
    }
    const d = new Date(start);
    out.push({
      start,
      label: `${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`,
      leadingBlanks: (d.getUTCDay() + 6) % 7,
      days,
      uptime: uptimePercent(rows),
    });
  }
  return out;
}

/** The uptime of every day of the calendar together (maintenance excluded). */
export function calendarUptime(dailyRollups: RollupCounts[], now: number, months: UptimeRange): number | null {
  const from = calendarStart(now, months);
  return uptimePercent(dailyRollups.filter((r) => r.start >= from && r.start <= now));
}
