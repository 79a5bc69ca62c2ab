// The schedule editor's model: the form is the API's ScheduleInput itself (so what is shown is
// what is sent), the defaults of a new schedule and layer, moving an item in a list, the words for
// a layer, and which of the server's per-field messages ('layers.0.user_ids.1') a field shows.
// Pure.
import type { Handoff, LayerInput, Schedule, ScheduleInput, Weekday } from './store.ts';
import { msToZonedInput } from '../../../../lib/zoned-time.ts';
import { type ConsoleKey, t } from '../../i18n.ts';

export const WEEKDAY_ORDER: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** A weekday's short name in the console's language ('Mon'). */
export const weekdayLabel = (d: Weekday) => t(`onCall.weekday.${d}` as ConsoleKey);

/** The weekdays with their short names, read when drawn (the language may change). */
export function weekdays(): ReadonlyArray<readonly [Weekday, string]> {
  return WEEKDAY_ORDER.map((d) => [d, weekdayLabel(d)] as const);
}

const HANDOFF_ORDER: readonly Handoff[] = ['daily', 'weekly', 'custom'];

export function handoffs(): ReadonlyArray<readonly [Handoff, string]> {
  return HANDOFF_ORDER.map((h) => [h, t(`onCall.handoff.${h}` as ConsoleKey)] as const);
}

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
  if (l.handoff === 'daily') return t('onCall.handoffText.daily');
  if (l.handoff === 'weekly') return t('onCall.handoffText.weekly');
  return t('onCall.handoffText.custom', { hours: l.handoff_hours ?? '?' });
}

/** 'Mon, Tue 09:00–18:00' */
export function restrictionText(r: { days: readonly Weekday[]; start: string; end: string }): string {
  const days = WEEKDAY_ORDER.filter((d) => r.days.includes(d)).map(weekdayLabel);
  return t('onCall.restriction.text', { days: days.join(t('onCall.restriction.daySeparator')), start: r.start, end: r.end });
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
    if (l.user_ids.length === 0) errors[`layers.${i}.user_ids`] = t('onCall.error.noPeople');
    const h = l.handoff_hours;
    if (l.handoff === 'custom' && (h == null || !Number.isInteger(h) || h < 1 || h > 2016))
      errors[`layers.${i}.handoff_hours`] = t('onCall.error.hours');
  });
  return errors;
}
