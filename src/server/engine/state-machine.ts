// The monitor state machine: pure, `now` passed in, table-tested. A confirmed state changes only
// after `confirmations` identical results in a row; down opens an incident and leaving down
// resolves it. Maintenance suppresses the incident (and so every alert).
import type { CheckStatus } from '../db/schema/monitoring.ts';

export interface MonitorState {
  status: CheckStatus;
  statusSince: number | null;
  pendingStatus: CheckStatus | null;
  pendingCount: number;
  confirmations: number;
  /** An incident of this monitor is open */
  incidentOpen: boolean;
}

export type StateEvent = { kind: 'open_incident' } | { kind: 'resolve_incident' };

export interface Transition {
  state: MonitorState;
  changed: boolean;
  events: StateEvent[];
}

export function applyResult(prev: MonitorState, result: Exclude<CheckStatus, 'unknown'>, now: number, inMaintenance: boolean): Transition {
  const need = Math.max(1, prev.confirmations);
  let next: MonitorState;
  let changed = false;
  if (result === prev.status) {
    next = { ...prev, pendingStatus: null, pendingCount: 0 };
  } else {
    const count = prev.pendingStatus === result ? prev.pendingCount + 1 : 1;
    // A new monitor shows up/degraded at its first result; "down" always needs confirming.
    const immediate = prev.status === 'unknown' && result !== 'down';
    if (immediate || count >= need) {
      next = { ...prev, status: result, statusSince: now, pendingStatus: null, pendingCount: 0 };
      changed = true;
    } else {
      next = { ...prev, pendingStatus: result, pendingCount: count };
    }
  }
  const events: StateEvent[] = [];
  // Down with no incident open: also when the outage began inside a maintenance window that
  // has ended since, or after someone resolved the incident while the monitor stayed down.
  if (next.status === 'down' && !prev.incidentOpen && !inMaintenance) {
    events.push({ kind: 'open_incident' });
    next.incidentOpen = true;
  } else if (next.status !== 'down' && prev.incidentOpen && next.status !== 'unknown') {
    events.push({ kind: 'resolve_incident' });
    next.incidentOpen = false;
  }
  return { state: next, changed, events };
}

/**
 * Severity of an automatic incident: one monitor down is a partial outage (high, impact major);
 * critical (a major outage) only when its admin marked the monitor critical. The page reads every
 * monitor down as a major outage by itself (lib/status.ts overallOf).
 */
export const incidentSeverity = (isCritical: boolean): 'critical' | 'high' => (isCritical ? 'critical' : 'high');
export const incidentTitle = (monitorName: string): string => `${monitorName} is down`;
