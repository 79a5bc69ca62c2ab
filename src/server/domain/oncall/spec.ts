// A stored schedule (its row, its overrides) as the pure resolver's ScheduleSpec, and the stored
// layer shape (the API's snake_case, kept as written so reading a schedule answers what was saved).
import type { ScheduleOverrideRow, ScheduleRow } from '../../db/repositories/schedules-repo.ts';
import type { HandoffKind, Restriction, ScheduleSpec } from './resolve.ts';

export interface StoredLayer {
  name: string;
  user_ids: string[];
  rotation_start: string;
  handoff: HandoffKind;
  handoff_hours: number | null;
  restrictions: Restriction[];
}

export const layersOf = (row: ScheduleRow): StoredLayer[] => JSON.parse(row.layers) as StoredLayer[];

export function specOf(row: ScheduleRow, overrides: readonly ScheduleOverrideRow[]): ScheduleSpec {
  return {
    timeZone: row.time_zone,
    layers: layersOf(row).map((l) => ({
      userIds: l.user_ids,
      rotationStart: l.rotation_start,
      handoff: l.handoff,
      handoffHours: l.handoff_hours,
      restrictions: l.restrictions,
    })),
    overrides: overrides
      .filter((o) => o.schedule_id === row.id)
      .map((o) => ({ id: o.id, userId: o.user_id, start: o.start_at, end: o.end_at, createdAt: o.created_at })),
  };
}
