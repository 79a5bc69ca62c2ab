// Checks of a schedule and an override as written through the API, beyond what the OpenAPI
// document already refuses (types, lengths, patterns): a real IANA zone, a local date-time that
// exists, custom hours when custom, restriction windows that end after they start, and people
// who are active users of the company. Each refusal names its field (`layers.0.user_ids`).
import { DomainError } from '../errors.ts';
import { isTimeZone, localToEpoch, type HandoffKind, type Restriction } from './resolve.ts';
import type { StoredLayer } from './spec.ts';

export interface LayerInput {
  name?: string;
  user_ids: string[];
  rotation_start: string;
  handoff: HandoffKind;
  handoff_hours?: number | null;
  restrictions?: Restriction[];
}

export interface ScheduleInput {
  name: string;
  time_zone: string;
  layers: LayerInput[];
}

export const MAX_OVERRIDE_MS = 90 * 24 * 3_600_000;

export const invalid = (field: string, message: string) => new DomainError('validation', message, { fields: { [field]: message } });

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The layers to store, or a validation error naming the first bad field. `members` answers who may be named. */
export async function checkSchedule(
  input: ScheduleInput,
  members: (ids: string[]) => Promise<Set<string>>,
): Promise<{ name: string; timeZone: string; layers: StoredLayer[] }> {
  const name = input.name.trim();
  if (!name) throw invalid('name', 'Give the schedule a name');
  const zone = input.time_zone.trim();
  if (!isTimeZone(zone)) throw invalid('time_zone', `Not a time zone: ${zone.slice(0, 64)} (use an IANA name such as Europe/Berlin)`);
  const known = await members([...new Set(input.layers.flatMap((l) => l.user_ids))]);
  const layers = input.layers.map((l, i): StoredLayer => {
    const at = `layers.${i}`;
    if (localToEpoch(l.rotation_start, zone) === null) throw invalid(`${at}.rotation_start`, `Layer ${i + 1}: not a date and time`);
    if (l.handoff === 'custom' && !l.handoff_hours)
      throw invalid(`${at}.handoff_hours`, `Layer ${i + 1}: give the hand-off length in hours`);
    if (l.user_ids.some((id) => !known.has(id))) throw invalid(`${at}.user_ids`, `Layer ${i + 1}: user not found in this company`);
    const restrictions = l.restrictions ?? [];
    restrictions.forEach((r, j) => {
      if (minutes(r.end) <= minutes(r.start))
        throw invalid(`${at}.restrictions.${j}.end`, `Layer ${i + 1}: a restriction must end after it starts (${r.start}-${r.end})`);
    });
    return {
      name: l.name?.trim() || `Layer ${i + 1}`,
      user_ids: l.user_ids,
      rotation_start: l.rotation_start,
      handoff: l.handoff,
      handoff_hours: l.handoff === 'custom' ? (l.handoff_hours ?? null) : null,
      restrictions: restrictions.map((r) => ({ days: r.days, start: r.start, end: r.end })),
    };
  });
  return { name, timeZone: zone, layers };
}

/** An RFC 3339 instant as epoch ms, or a validation error for `field`. */
export function instantOf(value: string, field: string): number {
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw invalid(field, `${field}: not a date and time`);
  return ms;
}

export function checkOverrideRange(start: number, end: number): void {
  if (end <= start) throw invalid('end', 'The override must end after it starts');
  if (end - start > MAX_OVERRIDE_MS) throw invalid('end', 'An override covers at most 90 days');
}
