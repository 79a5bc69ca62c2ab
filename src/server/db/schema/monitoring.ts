// Row types of the monitoring engine's tables (migrations 0100-0199). Booleans (stored 0/1, read as booleans: db/booleans.ts), times ms.
import type { Generated } from 'kysely';
import type { components } from '../../../api/schema.d.ts';

/** The kinds the OpenAPI document describes; engine/kinds/index.ts holds a module for each. */
export type MonitorType = components['schemas']['MonitorType'];
export type CheckStatus = 'operational' | 'degraded' | 'down' | 'unknown';

export interface MonitorsTable {
  id: string;
  /** Small unique number keying the rollup rows (migration 0114); assigned by the database */
  num: Generated<number>;
  company_id: string;
  name: string;
  type: MonitorType;
  config: string;
  is_public: Generated<boolean>;
  is_paused: Generated<boolean>;
  interval_seconds: number;
  timeout_seconds: number;
  confirmations: Generated<number>;
  status: Generated<CheckStatus>;
  status_since: number | null;
  pending_status: CheckStatus | null;
  pending_count: Generated<number>;
  last_checked_at: number | null;
  last_response_time_ms: number | null;
  last_http_code: number | null;
  last_error: string | null;
  cert_expires_at: number | null;
  /** SHA-256 (hex) of the push URL's token; the token itself is never stored (migration 0102) */
  push_token_hash: string | null;
  last_push_at: number | null;
  next_due_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  /** JSON array of the last DNS answers (migration 0101) */
  last_answers: string | null;
  /** Last check run at once after a save, to limit them (migration 0103) */
  immediate_check_at: number | null;
  /** What visitors read instead of the name; null: lib/public-name.ts decides (migration 0105) */
  public_name: Generated<string | null>;
  /** The public name per language, JSON {locale: text} (migration 0306) */
  public_name_translations: Generated<string | null>;
  /** Place on the status page within its group (or among the ungrouped); null: after the placed ones */
  public_position: Generated<number | null>;
  /** Its component group on the status page; null: listed on its own */
  public_group_id: Generated<string | null>;
  /** Archived: kept but unchecked, hidden and outside the plan count until restored (migration 0106) */
  archived_at: number | null;
  /** The https certificate's issuer and subject as last seen, e.g. "Let's Encrypt R3" (migration 0106) */
  cert_issuer: string | null;
  cert_subject: string | null;
  /** Promised uptime in percent (e.g. 99.9) the SLA report compares with; null: none (migration 0112) */
  sla_target: Generated<number | null>;
  /** Why the latest check failed when it names a cause ('certificate'); null otherwise (migration 0504) */
  failure_cause: Generated<string | null>;
  /** Its outage alone is a major outage of the status page (migration 0116) */
  is_critical: Generated<boolean>;
  /**
   * The host its checks connect to, normalised (lib/destination-host.ts), for the per-destination
   * check budget; null: push monitors, dns monitors asking the platform's resolvers (migration 0407)
   */
  destination_host: Generated<string | null>;
  /** JSON array of location slugs; null: the company's default set (migration 0119) */
  locations: Generated<string | null>;
  /** Locations that must see it down for it to be down; null: a majority of the online ones */
  quorum: Generated<number | null>;
  /** Its effective locations include `local`: the built-in engine checks it (kept by the service) */
  run_local: Generated<boolean>;
  /** The status page shows its response time per location (migration 0123) */
  public_locations: Generated<boolean>;
  /** The status page draws its response-time chart (migration 0312) */
  public_response_chart: Generated<boolean>;
  /** Larger than every other monitor's at its latest change of what a probe runs (triggers; migration 0121) */
  assignment_rev: Generated<number>;
  /** JSON array of the ids of the monitors it depends on; null: none (migration 0124) */
  parents: Generated<string | null>;
  created_at: number;
  updated_at: number;
}

export interface CheckResultsTable {
  monitor_id: string;
  checked_at: number;
  company_id: string;
  status: CheckStatus;
  response_time_ms: number | null;
  http_code: number | null;
  error: string | null;
  timings: string | null;
  cert_expires_at: number | null;
  /** The location that checked: 0 is `local`, else probe_locations.num (migration 0119) */
  location: Generated<number>;
}

/** One monitor's checks of one UTC hour, compacted (src/lib/check-chunk.ts; migrations 0113, 0115). */
export interface CheckChunksTable {
  /** monitors.num */
  monitor_num: number;
  chunk_start: number;
  checks: number;
  data: Uint8Array;
}

/** Rollup rows (migration 0114): SQL adds up the counts; the rest is src/lib/rollup-detail.ts */
interface RollupColumns {
  monitor_num: number;
  checks: Generated<number>;
  failures: Generated<number>;
  degraded: Generated<number>;
  maintenance: Generated<number>;
  last_http_code: number | null;
  data: Uint8Array;
}
export interface MonitorRollupsHourlyTable extends RollupColumns {
  hour_start: number;
}
/** Per monitor, location and hour (migration 0119): a location's own uptime and latency */
export interface MonitorLocationRollupsHourlyTable extends RollupColumns {
  location: number;
  hour_start: number;
}
/**
 * Per monitor and location, for monitors checked from more than one location: the location's own
 * state machine (confirmed status, pending streak) and its last result. The monitor row holds the
 * quorum's verdict over them.
 */
export interface MonitorLocationStatesTable {
  monitor_id: string;
  location: number;
  company_id: string;
  status: Generated<CheckStatus>;
  status_since: number | null;
  pending_status: CheckStatus | null;
  pending_count: Generated<number>;
  last_checked_at: number | null;
  last_status: CheckStatus | null;
  last_response_time_ms: number | null;
  last_http_code: number | null;
  last_error: string | null;
  updated_at: number;
}
export interface MonitorRollupsDailyTable extends RollupColumns {
  day_start: number;
}

export type IncidentStatus = 'open' | 'investigating' | 'identified' | 'monitoring' | 'resolved';

export interface IncidentsTable {
  id: string;
  company_id: string;
  monitor_id: string | null;
  title: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  status: IncidentStatus;
  is_public: Generated<boolean>;
  started_at: number;
  resolved_at: number | null;
  /** null for automatic incidents (the engine opens them) */
  created_by: string | null;
  created_at: number;
  updated_at: number;
  /** Written after resolution; shown on the public page under the resolved incident */
  postmortem: string | null;
  /** Set once by the first acknowledgement (migration 0501); stops escalation */
  acknowledged_at: number | null;
  /** The user who acknowledged; null when a link in a channel's message did */
  acknowledged_by: string | null;
  /** How: 'console', or the channel or personal target whose link was used */
  acknowledged_via: string | null;
  /** How many steps of the company's escalation policy have been sent for it */
  escalated_steps: Generated<number>;
  /** Automatic incidents of monitors checked from several locations: where it was down at opening (JSON DownWhere; migration 0123) */
  down_where: Generated<string | null>;
  /** An incident an incoming-alert source opened (migration 0530): the source, and its group key */
  incoming_source_id: Generated<string | null>;
  incoming_key: Generated<string | null>;
  /** The impact its marked status-page components show while it is open (null: it marks none) */
  marks_impact: Generated<string | null>;
  /** The title per language, JSON {locale: text} (migration 0306; lib/i18n/company-text.ts) */
  title_translations: Generated<string | null>;
}

export interface IncidentUpdatesTable {
  id: string;
  incident_id: string;
  company_id: string;
  status: IncidentStatus;
  message: string;
  created_by: string | null;
  created_at: number;
  /** The message per language, JSON {locale: text} (migration 0306) */
  message_translations: Generated<string | null>;
}

export interface MaintenanceWindowsTable {
  id: string;
  company_id: string;
  monitor_id: string | null;
  title: string;
  description: string | null;
  starts_at: number;
  ends_at: number;
  created_at: number;
  /** null: once; otherwise the span starts_at..ends_at repeats (lib/maintenance.ts) */
  recurrence: MaintenanceRecurrence | null;
  /** Cancelled windows stay listed but cover nothing */
  cancelled_at: number | null;
  /** null until edited, ended or cancelled */
  updated_at: number | null;
}

/** A company's named group of monitors on its status page (migration 0105) */
export interface StatusPageGroupsTable {
  id: string;
  company_id: string;
  name: string;
  position: number;
  created_at: number;
  updated_at: number;
  /** The name per language, JSON {locale: text} (migration 0306) */
  name_translations: Generated<string | null>;
}

/** The monitors an incident is about (the first is also incidents.monitor_id; migration 0106) */
export interface IncidentMonitorsTable {
  incident_id: string;
  monitor_id: string;
  company_id: string;
}

/** The monitors a window covers; none: every monitor of the company (migration 0106) */
export interface MaintenanceMonitorsTable {
  window_id: string;
  monitor_id: string;
  company_id: string;
}

export type MaintenanceRecurrence = 'weekly' | 'monthly';

/** A company's prepared incident or maintenance text (migration 0130). */
export interface IncidentTemplatesTable {
  id: string;
  company_id: string;
  name: string;
  kind: 'incident' | 'maintenance';
  title: string;
  message: string;
  impact: 'minor' | 'major' | 'critical' | null;
  /** JSON array of monitor ids */
  monitor_ids: string;
  created_at: number;
  updated_at: number;
}

/** An automatic incident's evidence panel (migration 0132): replaced whole by each build. */
export interface IncidentEvidenceTable {
  incident_id: string;
  company_id: string;
  monitor_id: string | null;
  built_at: number;
  updated_at: number;
  /** JSON array of EvidenceItem (src/lib/incident-evidence.ts) */
  items: string;
  line: string;
}

export interface MonitoringTables {
  monitors: MonitorsTable;
  check_results: CheckResultsTable;
  check_chunks: CheckChunksTable;
  monitor_rollups_hourly: MonitorRollupsHourlyTable;
  monitor_location_rollups_hourly: MonitorLocationRollupsHourlyTable;
  monitor_location_states: MonitorLocationStatesTable;
  monitor_rollups_daily: MonitorRollupsDailyTable;
  incidents: IncidentsTable;
  incident_updates: IncidentUpdatesTable;
  maintenance_windows: MaintenanceWindowsTable;
  status_page_groups: StatusPageGroupsTable;
  incident_monitors: IncidentMonitorsTable;
  maintenance_monitors: MaintenanceMonitorsTable;
  company_secrets: CompanySecretsTable;
  check_screenshots: CheckScreenshotsTable;
  incident_templates: IncidentTemplatesTable;
  incident_evidence: IncidentEvidenceTable;
}

/** A company's secret for the synthetic kinds' steps ({{secrets.NAME}}); `value` sealed (secret-box.ts). */
export interface CompanySecretsTable {
  company_id: string;
  name: string;
  value: string;
  created_at: number;
  updated_at: number;
}

/** A kept screenshot of a browser check (migration 0128): the failing step's or a `screenshot` step's PNG. */
export interface CheckScreenshotsTable {
  id: string;
  company_id: string;
  monitor_id: string;
  checked_at: number;
  step_index: number;
  png: Uint8Array;
  size: number;
}
