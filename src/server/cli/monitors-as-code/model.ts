// The monitors-as-code file as the CLI reads and writes it (schemas/statuswatch.schema.json
// says the same for editors), and the parts of the API's answers it compares with. The monitor
// kinds are the OpenAPI document's (generated types), never a list of our own.
import type { MonitorType } from '../../db/schema/monitoring.ts';

export interface MonitorSpec {
  name: string;
  type: MonitorType;
  paused?: boolean;
  [field: string]: unknown;
}

export interface MaintenanceSpec {
  title: string;
  description?: string | null;
  starts_at: string;
  ends_at: string;
  recurrence?: 'weekly' | 'monthly' | null;
  monitors?: string[];
}

export interface ChannelSpec {
  name: string;
  type: string;
  config: Record<string, unknown>;
  events?: string[];
  monitors?: string[] | null;
  min_severity?: string;
  enabled?: boolean;
}

export interface Placement {
  monitor: string;
  public_name?: string | null;
}

export interface StatusPageSpec {
  access?: { mode: string; password?: string; ip_allowlist?: string[] };
  ungrouped?: Placement[];
  groups?: { name: string; monitors: Placement[] }[];
}

export interface CodeFile {
  version: 1;
  monitors?: MonitorSpec[];
  maintenance?: MaintenanceSpec[];
  alert_channels?: ChannelSpec[];
  status_page?: StatusPageSpec;
}

/** The API's views, as far as the CLI reads them. */
export interface ApiMonitor {
  id: string;
  name: string;
  type: MonitorSpec['type'];
  is_paused: boolean;
  [field: string]: unknown;
}

export interface ApiWindow {
  id: string;
  title: string;
  description: string | null;
  starts_at: string;
  ends_at: string;
  recurrence: 'weekly' | 'monthly' | null;
  monitor_ids: string[];
  state: 'scheduled' | 'active' | 'completed' | 'cancelled';
}

export interface ApiChannel {
  id: string;
  name: string;
  type: string;
  config: Record<string, unknown>;
  events: string[];
  monitor_ids: string[] | null;
  min_severity: string;
  enabled: boolean;
}

export interface ApiPageSettings {
  access: { mode: string; has_password: boolean; ip_allowlist: string[] };
  groups: { id: string; name: string }[];
  monitors: { id: string; name: string; is_public: boolean; public_name: string | null; group_id: string | null }[];
}

/** Everything the CLI manages, as the server has it now. */
export interface RemoteState {
  monitors: ApiMonitor[];
  windows: ApiWindow[];
  channels: ApiChannel[];
  page: ApiPageSettings;
}

/** Fields every monitor kind has, in the order the file lists them after the kind's own. */
export const COMMON_MONITOR_FIELDS = [
  'interval_seconds',
  'timeout_seconds',
  'confirmations',
  'sla_target',
  'is_public',
  'is_critical',
  'locations',
  'quorum',
  'parents',
] as const;

/** Fields naming other monitors: monitor names in the file, ids in the API (a group's children, any monitor's parents). */
export const MONITOR_LINK_FIELDS = ['children', 'parents'] as const;
