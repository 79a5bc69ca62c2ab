// Uptime Kuma's maintenance times as instants: it stores wall-clock dates ("2027-01-10 02:00:00")
// and times ("02:00") in the window's own time zone (an IANA name, "UTC" or "SAME_AS_SERVER").
// Pure: `now` is passed in.
import { DateTime } from 'luxon';

/** The zone a Kuma window means; SAME_AS_SERVER is the Kuma server's, which the file does not
 *  say: UTC is assumed (and said so in the plan). */
export function zoneOf(timezone: string | null): { zone: string; assumed: boolean } {
  if (!timezone || timezone === 'SAME_AS_SERVER') return { zone: 'UTC', assumed: true };
  const ok = DateTime.now().setZone(timezone).isValid;
  return ok ? { zone: timezone, assumed: false } : { zone: 'UTC', assumed: true };
}

/** A stored date ("YYYY-MM-DD HH:mm:ss", with or without seconds, or ISO) in the zone, as epoch ms. */
export function wallToMs(value: string, zone: string): number | null {
  const text = value.trim().replace('T', ' ').replace(/Z$/, '');
  for (const format of ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd HH:mm', 'yyyy-MM-dd HH:mm:ss.SSS', 'yyyy-MM-dd']) {
    const d = DateTime.fromFormat(text, format, { zone });
    if (d.isValid) return d.toMillis();
  }
  return null;
}

/** Minutes of an "HH:mm" time of day, null when unreadable. */
function minutesOf(time: string | null): number | null {
  const m = /^(\d{1,2}):(\d{2})/.exec(time ?? '');
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Seconds from start to end time of day; an end at or before the start is the next day (as Kuma's inferDuration). */
export function dailySpanSeconds(start: string | null, end: string | null): number | null {
  const a = minutesOf(start);
  const b = minutesOf(end);
  if (a === null || b === null) return null;
  const d = (b - a) * 60;
  return d <= 0 ? d + 24 * 3600 : d;
}

/**
 * The next start at `time` on `weekday` (0 Sunday .. 6 Saturday, as Kuma stores it) at or after
 * `from`, in the zone.
 */
export function nextWeekday(weekday: number, time: string, zone: string, from: number): number | null {
  const minutes = minutesOf(time);
  if (minutes === null) return null;
  let d = DateTime.fromMillis(from, { zone }).startOf('day').plus({ minutes });
  for (let i = 0; i < 8; i++) {
    if (d.weekday % 7 === weekday && d.toMillis() >= from) return d.toMillis();
    d = d.plus({ days: 1 }).startOf('day').plus({ minutes });
  }
  return null;
}

/** The next start at `time` on day `day` of a month (1..28; later days skip short months) at or after `from`. */
export function nextMonthDay(day: number, time: string, zone: string, from: number): number | null {
  const minutes = minutesOf(time);
  if (minutes === null) return null;
  let month = DateTime.fromMillis(from, { zone }).startOf('month');
  for (let i = 0; i < 14; i++) {
    const d = month.set({ day }).startOf('day').plus({ minutes });
    if (d.isValid && d.month === month.month && d.toMillis() >= from) return d.toMillis();
    month = month.plus({ months: 1 });
  }
  return null;
}
