// Moments in a named time zone, beside lib/dates.ts (which writes every moment in UTC): the IANA
// list the browser knows, a moment written on the wall clocks of a given zone (always in a fixed
// 'en-GB' form, never the browser's locale), and a wall-clock time in a zone turned into the
// moment it names. The on-call screens use it: a hand-off is about someone's working day, so they
// show it in the schedule's zone and in the viewer's. All through Intl: the platform's tz
// database, no hand-kept offsets. Pure.

/** Every zone the browser knows, UTC first (Chromium's list leaves it out). */
export function zoneNames(): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...known.filter((z) => z !== 'UTC')];
}

/** The viewer's zone as the browser reports it. */
export function viewerZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const partsCache = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = partsCache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    partsCache.set(zone, f);
  }
  return f;
}

interface Wall {
  weekday: string;
  date: string;
  time: string;
  zoneName: string;
}

function wall(ms: number, zone: string): Wall {
  const p: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(ms)) p[part.type] = part.value;
  return { weekday: p.weekday, date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}`, zoneName: p.timeZoneName };
}

/** 'Mon 2026-11-30 09:00 CET': the moment on the wall clocks of `zone`. */
export function formatInZone(ms: number, zone: string): string {
  const w = wall(ms, zone);
  return `${w.weekday} ${w.date} ${w.time} ${w.zoneName}`;
}

/** '09:00' in `zone`, and the day when it is not the day of `sameDayAs`. */
export function shortInZone(ms: number, zone: string, sameDayAs?: number): string {
  const w = wall(ms, zone);
  if (sameDayAs !== undefined && wall(sameDayAs, zone).date === w.date) return w.time;
  return `${w.weekday} ${w.date.slice(5)} ${w.time}`;
}

/** The zone's offset from UTC at `ms`, in ms (east positive). */
function offsetAt(ms: number, zone: string): number {
  const p: Record<string, string> = {};
  const f = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  });
  for (const part of f.formatToParts(ms)) p[part.type] = part.value;
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return asUtc - (ms - (ms % 1000));
}

/**
 * The moment a wall-clock 'YYYY-MM-DDTHH:MM' names in `zone` (a datetime-local value); NaN for
 * an unfinished value. In the hour skipped by a spring-forward change the later offset is taken
 * (02:30 reads as 03:30), and in the repeated autumn hour the first.
 */
export function zonedInputToMs(value: string, zone: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return Number.NaN;
  const local = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5]);
  // The offsets a day either side: one, or the two around a change within the day.
  const before = local - offsetAt(local - 86_400_000, zone);
  const after = local - offsetAt(local + 86_400_000, zone);
  const real = [before, after].filter((ms) => msToZonedInput(ms, zone) === value);
  return real.length ? Math.min(...real) : before;
}

/** The datetime-local value of a moment on the wall clocks of `zone`. */
export function msToZonedInput(ms: number, zone: string): string {
  const shifted = ms + offsetAt(ms, zone);
  return new Date(shifted).toISOString().slice(0, 16);
}
