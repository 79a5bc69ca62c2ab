// Which monitors a maintenance window covers and when: the one rule the engine (no incidents,
// no alerts), the monitors list and the status page share. Pure.

export interface WindowScope {
  /** Absent when the window was read for the monitor's own company */
  company_id?: string;
  /** null: every monitor of the company */
  monitor_id: string | null;
}

/** The window is the monitor's own or its company's. */
export function coversMonitor(w: WindowScope, m: { id: string; company_id: string }): boolean {
  return (w.company_id === undefined || w.company_id === m.company_id) && (w.monitor_id === null || w.monitor_id === m.id);
}

/** The window runs at `at` (start included, end excluded); times may arrive as strings. */
export function isActiveAt(w: { starts_at: number | string; ends_at: number | string }, at: number): boolean {
  return Number(w.starts_at) <= at && at < Number(w.ends_at);
}
