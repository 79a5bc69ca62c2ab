// On-call resolution, pure: from a schedule's layers and overrides, the shifts in a range and who
// is on call at an instant. No I/O; `from`, `to` and `at` are epoch ms. Local times (rotation
// start, restrictions) are wall-clock times in the schedule's IANA zone; luxon does the zone
// maths (Intl underneath), so a daily hand-off at 09:00 stays at 09:00 across a DST change and
// that day lasts 23 or 25 hours. Custom hand-offs are elapsed hours, by definition.
import { DateTime } from 'luxon';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type HandoffKind = 'daily' | 'weekly' | 'custom';

export interface Restriction {
  days: Weekday[];
  /** 'HH:MM' local */
  start: string;
  /** 'HH:MM' local, after start; '24:00' is the end of the day */
  end: string;
}

export interface Layer {
  userIds: string[];
  /** 'YYYY-MM-DDTHH:MM' local */
  rotationStart: string;
  handoff: HandoffKind;
  handoffHours: number | null;
  restrictions: Restriction[];
}

export interface Override {
  id: string;
  userId: string;
  start: number;
  end: number;
  createdAt: number;
}

export interface ScheduleSpec {
  timeZone: string;
  layers: Layer[];
  overrides: Override[];
}

export interface Segment {
  userId: string;
  start: number;
  end: number;
  /** Index of the layer; null for an override */
  layer: number | null;
  overrideId: string | null;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** How far around an instant "now and next" looks: longer than any turn (2016 h) */
export const ON_CALL_HORIZON_MS = 90 * DAY_MS;
const NEAR_MS = 8 * DAY_MS;

export function isTimeZone(zone: string): boolean {
  return DateTime.now().setZone(zone).isValid;
}

/** The epoch ms of a local 'YYYY-MM-DDTHH:MM' in `zone`, or null when it is not one. */
export function localToEpoch(local: string, zone: string): number | null {
  const dt = DateTime.fromISO(local, { zone });
  return dt.isValid ? dt.toMillis() : null;
}

/** Turn `i` of a layer starts here: calendar days for daily/weekly (wall time kept), elapsed hours for custom. */
function turnStart(origin: DateTime, layer: Layer, i: number): number {
  if (layer.handoff === 'daily') return origin.plus({ days: i }).toMillis();
  if (layer.handoff === 'weekly') return origin.plus({ weeks: i }).toMillis();
  return origin.toMillis() + i * (layer.handoffHours ?? 24) * HOUR_MS;
}

function nominalMs(layer: Layer): number {
  if (layer.handoff === 'daily') return DAY_MS;
  if (layer.handoff === 'weekly') return 7 * DAY_MS;
  return (layer.handoffHours ?? 24) * HOUR_MS;
}

/** The layer's turns (before restrictions) that overlap [from, to). */
export function layerTurns(layer: Layer, zone: string, from: number, to: number): Array<{ userId: string; start: number; end: number }> {
  const origin = DateTime.fromISO(layer.rotationStart, { zone });
  if (!origin.isValid || layer.userIds.length === 0 || to <= from) return [];
  // A DST change moves a calendar day by an hour at most: start two turns early and walk on.
  let i = Math.max(0, Math.floor((from - origin.toMillis()) / nominalMs(layer)) - 2);
  const out: Array<{ userId: string; start: number; end: number }> = [];
  for (let start = turnStart(origin, layer, i); start < to; i++) {
    const end = turnStart(origin, layer, i + 1);
    if (end > from) out.push({ userId: layer.userIds[i % layer.userIds.length]!, start: Math.max(start, from), end: Math.min(end, to) });
    start = end;
  }
  return out;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function atLocalMinute(day: DateTime, minute: number): number {
  return day.set({ hour: Math.floor(minute / 60), minute: minute % 60 }).toMillis();
}

/** The restriction windows that overlap [from, to), merged and in order. */
export function restrictionWindows(restrictions: readonly Restriction[], zone: string, from: number, to: number): Array<[number, number]> {
  const windows: Array<[number, number]> = [];
  let day = DateTime.fromMillis(from, { zone }).startOf('day').minus({ days: 1 });
  const last = DateTime.fromMillis(to, { zone }).startOf('day').plus({ days: 1 });
  for (; day <= last; day = day.plus({ days: 1 })) {
    const weekday = WEEKDAYS[day.weekday - 1]!;
    for (const r of restrictions) {
      if (!r.days.includes(weekday)) continue;
      // Wall-clock: a window 09:00-18:00 on a DST day still runs 09:00 to 18:00 local.
      const ws = atLocalMinute(day, minutesOf(r.start));
      const we = r.end === '24:00' ? day.plus({ days: 1 }).toMillis() : atLocalMinute(day, minutesOf(r.end));
      if (we > from && ws < to && we > ws) windows.push([Math.max(ws, from), Math.min(we, to)]);
    }
  }
  windows.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const w of windows) {
    const prev = merged[merged.length - 1];
    if (prev && w[0] <= prev[1]) prev[1] = Math.max(prev[1], w[1]);
    else merged.push([w[0], w[1]]);
  }
  return merged;
}

/**
 * Lays `top` over `base` (both sorted, non-overlapping): `top` wherever it has someone, `base`
 * in between. One sweep, so a year of hourly turns stays linear.
 */
function overlay(base: readonly Segment[], top: readonly Segment[]): Segment[] {
  const out: Segment[] = [];
  let j = 0;
  for (const b of base) {
    let cursor = b.start;
    while (j < top.length && top[j]!.end <= cursor) j++;
    for (let k = j; k < top.length && top[k]!.start < b.end; k++) {
      if (top[k]!.start > cursor) out.push({ ...b, start: cursor, end: top[k]!.start });
      cursor = Math.max(cursor, top[k]!.end);
    }
    if (cursor < b.end) out.push({ ...b, start: cursor, end: b.end });
  }
  return [...out, ...top].sort((a, b) => a.start - b.start);
}

/** Intervals sorted by start, the later of two overlapping ones winning where they overlap. */
function flatten(segments: readonly Segment[]): Segment[] {
  return segments.reduce<Segment[]>((timeline, s) => overlay(timeline, [s]), []);
}

const sameSource = (a: Segment, b: Segment) => a.userId === b.userId && a.layer === b.layer && a.overrideId === b.overrideId;

/**
 * The shifts of [from, to): each layer in order laid over the earlier ones where it has
 * someone, then overrides (later created wins); back-to-back segments of the same person from the
 * same source are joined. Time nobody covers is a gap.
 */
export function resolveShifts(spec: ScheduleSpec, from: number, to: number): Segment[] {
  if (to <= from) return [];
  let timeline: Segment[] = [];
  spec.layers.forEach((layer, index) => {
    const turns = layerTurns(layer, spec.timeZone, from, to);
    const windows = layer.restrictions.length ? restrictionWindows(layer.restrictions, spec.timeZone, from, to) : null;
    const mine: Segment[] = [];
    let w = 0;
    for (const turn of turns) {
      if (!windows) {
        mine.push({ userId: turn.userId, start: turn.start, end: turn.end, layer: index, overrideId: null });
        continue;
      }
      while (w < windows.length && windows[w]![1] <= turn.start) w++;
      for (let k = w; k < windows.length && windows[k]![0] < turn.end; k++)
        mine.push({
          userId: turn.userId,
          start: Math.max(windows[k]![0], turn.start),
          end: Math.min(windows[k]![1], turn.end),
          layer: index,
          overrideId: null,
        });
    }
    timeline = overlay(timeline, mine);
  });
  const overrides = [...spec.overrides]
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((o): Segment => ({ userId: o.userId, start: Math.max(o.start, from), end: Math.min(o.end, to), layer: null, overrideId: o.id }))
    .filter((o) => o.end > o.start);
  // Few overrides: laid one by one, in creation order, so a later one wins over an earlier.
  timeline = overlay(timeline, flatten(overrides));
  const joined: Segment[] = [];
  for (const s of timeline) {
    const prev = joined[joined.length - 1];
    if (prev && prev.end === s.start && sameSource(prev, s)) prev.end = s.end;
    else joined.push({ ...s });
  }
  return joined;
}

/**
 * Who is on call at `at` (with the whole shift, as far as the horizon sees) and the shift after.
 * Looks 8 days around `at` first (most shifts are a day or a week) and the whole horizon only
 * when a shift reaches the edge of that window or nobody is next in it.
 */
export function onCallAt(spec: ScheduleSpec, at: number): { current: Segment | null; next: Segment | null } {
  for (const span of [NEAR_MS, ON_CALL_HORIZON_MS]) {
    const from = at - span;
    const to = at + span;
    const shifts = resolveShifts(spec, from, to);
    const current = shifts.find((s) => s.start <= at && at < s.end) ?? null;
    const after = current ? current.end : at;
    const next = shifts.find((s) => s.start >= after && s !== current) ?? null;
    const cut = !next || next.end === to || (current !== null && (current.start === from || current.end === to));
    if (!cut || span === ON_CALL_HORIZON_MS) return { current, next };
  }
  return { current: null, next: null };
}
