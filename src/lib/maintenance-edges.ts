// When a maintenance window's notices go out: each occurrence "starts" once and "ends" once,
// found by scanning time in slices (from, to]. Pure; the rule of which times an occurrence covers
// is lib/maintenance.ts's.
//
// An occurrence ends at its end, or earlier when the window is cancelled while it runs. A window
// created while its time had begun starts when it is created; an occurrence wholly before the
// window existed (created in the past) is never announced.
import { occurrenceFrom, type WindowTimes } from './maintenance.ts';

export interface EdgeWindow extends WindowTimes {
  created_at: number | string;
}

export interface MaintenanceEdge {
  kind: 'started' | 'ended';
  /** When it happened */
  at: number;
  /** The occurrence: its start names it; end is when it ends or ended */
  start: number;
  end: number;
}

/** The starts and ends inside (from, to], in time order per occurrence. */
export function maintenanceEdges(w: EdgeWindow, from: number, to: number): MaintenanceEdge[] {
  const cancelledAt = w.cancelled_at === null || w.cancelled_at === undefined ? null : Number(w.cancelled_at);
  if (cancelledAt !== null && cancelledAt <= from) return [];
  const until = cancelledAt !== null && cancelledAt <= to ? cancelledAt : to;
  const createdAt = Number(w.created_at);
  const times = { ...w, cancelled_at: null };
  const out: MaintenanceEdge[] = [];
  let o = occurrenceFrom(times, from);
  // Bounded: a scan covers at most hours, a recurring window repeats weekly at the most often.
  for (let i = 0; o && o.start <= until && i < 100; i++) {
    const end = cancelledAt !== null && cancelledAt < o.end ? cancelledAt : o.end;
    if (end > createdAt) {
      const startedAt = Math.max(o.start, createdAt);
      if (startedAt > from && startedAt <= until) out.push({ kind: 'started', at: startedAt, start: o.start, end });
      if (end > from && end <= until) out.push({ kind: 'ended', at: end, start: o.start, end });
    }
    o = occurrenceFrom(times, o.end);
  }
  return out;
}
