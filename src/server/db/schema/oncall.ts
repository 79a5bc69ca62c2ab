// On-call tables (migrations 0520 and 0521): schedules, their overrides, the escalation policy's
// company-wide switches, the pages an escalation sent, and the private calendar feeds.
export interface SchedulesTable {
  id: string;
  company_id: string;
  name: string;
  time_zone: string;
  /** JSON array of layers as the API writes them (user_ids, rotation_start, handoff, handoff_hours, restrictions, name) */
  layers: string;
  created_at: number;
  updated_at: number;
}

export interface ScheduleOverridesTable {
  id: string;
  schedule_id: string;
  company_id: string;
  user_id: string;
  start_at: number;
  end_at: number;
  created_at: number;
}

export interface EscalationPoliciesTable {
  company_id: string;
  /** How many more rounds of the steps after the first (0-9) */
  repeat_count: number;
  notify_team_at_last_step: boolean;
  updated_at: number;
}

export type PageReason = 'user' | 'schedule' | 'team';

export interface IncidentPagesTable {
  id: string;
  incident_id: string;
  company_id: string;
  round: number;
  step: number;
  user_id: string;
  schedule_id: string | null;
  schedule_name: string | null;
  reason: PageReason;
  /** The personal target: email, sms, webhook */
  channel: string;
  sent_at: number;
}

export interface CalendarFeedsTable {
  id: string;
  company_id: string;
  /** Exactly one of schedule_id and user_id is set */
  schedule_id: string | null;
  user_id: string | null;
  /** hex SHA-256 of the token */
  token_hash: string;
  created_at: number;
}

export interface OnCallTables {
  schedules: SchedulesTable;
  schedule_overrides: ScheduleOverridesTable;
  escalation_policies: EscalationPoliciesTable;
  incident_pages: IncidentPagesTable;
  calendar_feeds: CalendarFeedsTable;
}
