// Row types of the alerts outbox (migrations 0500-0599). Times in ms; JSON columns hold text.
import type { Generated } from 'kysely';

/** `grouped`: merged into another delivery's message (grouped_into names it) */
export type DeliveryState = 'pending' | 'retrying' | 'delivered' | 'failed' | 'grouped';

export type PersonalTarget = 'email' | 'sms' | 'webhook';

export interface AlertChannelsTable {
  id: string;
  company_id: string;
  name: string;
  /** A key of notify/channels/index.ts CHANNELS */
  type: string;
  /** The channel module's parsed config, JSON */
  config: string;
  /** whsec_… signing secret of a webhook channel; null for the other types */
  secret: string | null;
  /** JSON array of AlertEventType */
  events: string;
  /** JSON array of monitor ids; null: every monitor */
  monitor_ids: string | null;
  min_severity: string;
  enabled: boolean;
  /** Earliest time (ms) the channel's service takes the next message: its rate limit (0503) */
  next_send_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AlertDeliveriesTable {
  /** Also the idempotency key: the webhook-id header, the e-mail Message-ID */
  id: string;
  company_id: string;
  /** The channel it goes through; null for a personal delivery (user_id and target say where) or a status-page subscriber's */
  channel_id: string | null;
  /** The status-page subscriber it goes to (migration 0590); null for a channel's delivery */
  subscriber_id: string | null;
  /** A scheduled SLA report's mail (migration 0510): the schedule it is for; null otherwise */
  report_schedule_id: Generated<string | null>;
  /** Personal delivery (migration 0501): the user it is for */
  user_id: string | null;
  /** Personal delivery: 'email' (the user's address), 'sms' (their phone) or 'webhook' (their URL) */
  target: PersonalTarget | null;
  event: string;
  /** What caused it (the notification draft's dedupe key): one delivery per cause and channel */
  dedupe_key: string;
  /** The Alert (channel.ts) without its deliveryId, JSON */
  payload: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: number;
  /** Retries stop after this (24 h after creation or after a manual retry) */
  retry_until: number;
  lease_holder: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  /** The delivery whose grouped message carried this one (state `grouped`), 0503 */
  grouped_into: string | null;
  created_at: number;
  updated_at: number;
}

export interface AlertDeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  at: number;
  /** The receiver's HTTP status; null for mail and for failures before an answer */
  status_code: number | null;
  latency_ms: number;
  /** Product-built text, never the receiver's body */
  error: string | null;
}

/** One step of a company's escalation policy: whom to alert when an incident is still not
 *  acknowledged `after_minutes` after it opened. */
export interface EscalationStepsTable {
  id: string;
  company_id: string;
  /** 0, 1, 2, … in the order of the policy */
  position: number;
  after_minutes: number;
  /** JSON array of alert channel ids */
  channel_ids: string;
  /** JSON array of user ids (personal delivery per their preferences) */
  user_ids: string;
  /** JSON array of schedule ids: whoever is on call in each when the step is due (migration 0520) */
  schedule_ids: string;
  created_at: number;
}

export type ReportFrequency = 'monthly' | 'weekly';
export type ReportFileFormat = 'pdf' | 'csv';

/** A company's SLA report mailed each month or week to its recipients (migration 0510). */
export interface ReportSchedulesTable {
  id: string;
  company_id: string;
  frequency: ReportFrequency;
  /** JSON array of e-mail addresses */
  recipients: string;
  format: ReportFileFormat;
  /** 0: kept but not sent (company admins disable; only super admins delete) */
  enabled: boolean;
  /** The last period sent ('2026-10' monthly, the week's Monday '2026-10-19' weekly); the once-per-period marker */
  last_sent_period: string | null;
  created_at: number;
  updated_at: number;
}

/**
 * A warning merged into an incident's thread instead of notifying (migration 0504): same monitor,
 * same cause as the failure that opened the incident. incident_id is null while it is held for
 * the incident a failure still being confirmed will open.
 */
export interface IncidentSignalsTable {
  id: string;
  company_id: string;
  /** null once the monitor is deleted (the incident keeps its thread) */
  monitor_id: string | null;
  incident_id: string | null;
  /** engine/failure-cause.ts FailureCause */
  cause: string;
  /** The notification type it would have been sent as (ssl_warning, …) */
  type: string;
  severity: string;
  title: string;
  message: string;
  dedupe_key: string;
  created_at: number;
}

/** The issue a tracker channel (Jira, Linear) opened for an incident (migration 0540). */
export interface AlertIssueLinksTable {
  channel_id: string;
  incident_id: string;
  company_id: string;
  issue_id: string;
  issue_key: string;
  issue_url: string | null;
  created_at: number;
}

/** A comment a tracker delivery made, kept so a delivery sent again comments once. */
export interface AlertIssueCommentsTable {
  delivery_id: string;
  channel_id: string;
  incident_id: string;
  created_at: number;
}

export interface AlertsTables {
  incident_signals: IncidentSignalsTable;
  report_schedules: ReportSchedulesTable;
  escalation_steps: EscalationStepsTable;
  alert_channels: AlertChannelsTable;
  alert_deliveries: AlertDeliveriesTable;
  alert_delivery_attempts: AlertDeliveryAttemptsTable;
  alert_issue_links: AlertIssueLinksTable;
  alert_issue_comments: AlertIssueCommentsTable;
}
