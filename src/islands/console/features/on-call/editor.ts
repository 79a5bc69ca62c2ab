// The schedule editor's model: the form is the API's ScheduleInput itself (so what is shown is
// what is sent), the defaults of a new schedule and layer, moving an item in a list, the words for
// a layer, and which of the server's per-field messages ('layers.0.user_ids.1') a field shows.
// Pure.
import type { Handoff, LayerInput, Schedule, ScheduleInput, Weekday } from './store.ts';
import { msToZonedInput } from '../../../../lib/zoned-time.ts';

export const WEEKDAYS: ReadonlyArray<readonly [Weekday, string]> = [
  ['mon', 'Mon'],
  ['tue', 'Tue'],
  ['wed', 'Wed'],
  ['thu', 'Thu'],
  ['fri', 'Fri'],
  ['sat', 'Sat'],
  ['sun', 'Sun'],
];

export const HANDOFFS: ReadonlyArray<readonly [Handoff, string]> = [
  ['daily', 'Daily'],
  ['weekly', 'Weekly'],
  ['custom', 'Every N hours'],
];

/** A first turn starting at 09:00 today in the schedule's zone, handed on weekly. */
export function emptyLayer(zone: string, now: number): LayerInput {
  return {
    user_ids: [],
    rotation_start: `${todayIn(zone, now)}T09:00`,
    handoff: 'weekly',
    handoff_hours: null,
    restrictions: [],
  };
}

/** Today's date in `zone`, or in UTC while the zone field holds no zone yet (Intl throws on it). */
function todayIn(zone: string, now: number): string {
  try {
    return msToZonedInput(now, zone).slice(0, 10);
  } catch {
    return msToZonedInput(now, 'UTC').slice(0, 10);
  }
}

export function emptySchedule(zone: string, now: number): ScheduleInput {
  return { name: '', time_zone: zone, layers: [emptyLayer(zone, now)] };
}

export function inputOf(s: Schedule): ScheduleInput {
  return {
    name: s.name,
    time_zone: s.time_zone,
    layers: s.layers.map((l) => ({
      name: l.name,
      user_ids: [...l.user_ids],
      rotation_start: l.rotation_start,
      handoff: l.handoff,
      handoff_hours: l.handoff_hours,
      restrictions: l.restrictions.map((r) => ({ ...r, days: [...r.days] })),
    })),
  };
}

/** What is sent: trimmed names, the hours only with a custom hand-off. */
export function payload(f: ScheduleInput): ScheduleInput {
  return {
    name: f.name.trim(),
    time_zone: f.time_zone.trim(),
    layers: f.layers.map((l) => {
      const name = l.name?.trim();
      return {
        ...(name ? { name } : {}),
        user_ids: l.user_ids,
        rotation_start: l.rotation_start,
        handoff: l.handoff,
        handoff_hours: l.handoff === 'custom' ? l.handoff_hours : null,
        restrictions: l.restrictions ?? [],
      };
    }),
  };
}

/** The list with item `i` moved by `by` places (unchanged at either end). */
export function moved<T>(list: readonly T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (j < 0 || j >= list.length) return [...list];
  const out = [...list];
  [out[i], out[j]] = [out[j], out[i]];
  return out;
}

export function handoffText(l: Pick<LayerInput, 'handoff' | 'handoff_hours'>): string {
  if (l.handoff === 'daily') return 'hands off daily';
  if (l.handoff === 'weekly') return 'hands off weekly';
  return `hands off every ${l.handoff_hours ?? '?'} hours`;
}

/** 'Mon, Tue 09:00–18:00' */
export function restrictionText(r: { days: readonly Weekday[]; start: string; end: string }): string {
  const days = WEEKDAYS.filter(([d]) => r.days.includes(d)).map(([, label]) => label);
  return `${days.join(', ')} ${r.start}–${r.end}`;
}

/**
 * The server's message for a field: its own key or one below it ('layers.0.user_ids' shows
 * the message of 'layers.0.user_ids.2', an unknown person).
 */
export function messageAt(errors: Record<string, string>, key: string): string | undefined {
  if (errors[key]) return errors[key];
  const below = Object.keys(errors).find((k) => k.startsWith(`${key}.`));
  return below ? errors[below] : undefined;
}

/** The messages no field of the form shows (told in the banner instead). */
export function unplaced(errors: Record<string, string>, shown: readonly string[]): string[] {
  return Object.entries(errors)
    .filter(([k]) => !shown.some((s) => k === s || k.startsWith(`${s}.`)))
    .map(([, v]) => v);
}

/** The keys the editor shows a message at, for a form with these layers. */
export function fieldKeys(f: ScheduleInput): string[] {
  const keys = ['name', 'time_zone'];
  f.layers.forEach((_, i) => {
    const at = `layers.${i}`;
    keys.push(`${at}.name`, `${at}.user_ids`, `${at}.rotation_start`, `${at}.handoff`, `${at}.handoff_hours`, `${at}.restrictions`);
  });
  return keys;
}

/**
 * What the form can tell before sending, in words (the request validator's own text for these
 * reads "layers.0.user_ids must NOT have fewer than 1 items"); everything else the server judges.
 */
export function localErrors(f: ScheduleInput): Record<string, string> {
  const errors: Record<string, string> = {};
  f.layers.forEach((l, i) => {
    if (l.user_ids.length === 0) errors[`layers.${i}.user_ids`] = 'Add at least one person to this layer';
    const h = l.handoff_hours;
    if (l.handoff === 'custom' && (h == null || !Number.isInteger(h) || h < 1 || h > 2016))
      errors[`layers.${i}.handoff_hours`] = 'A whole number of hours from 1 to 2016';
  });
  return errors;
}
