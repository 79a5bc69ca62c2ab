// Incoming alerts from other tools (migration 0530): the sources that send them and each alert
// (by fingerprint) of the incidents they opened.
export type IncomingKind = 'alertmanager' | 'grafana' | 'generic';

export interface IncomingSourcesTable {
  id: string;
  company_id: string;
  name: string;
  kind: IncomingKind;
  /** SHA-256 of the token (domain/auth/tokens.ts hashSecret); the token itself is shown once */
  token_hash: string;
  token_prefix: string;
  /** JSON array of the company's monitor ids its open incidents mark on the status page */
  component_ids: string;
  /** minor | major | critical */
  component_impact: string;
  severity_label: string;
  /** JSON object: label value -> severity */
  severity_map: string;
  default_severity: string;
  last_received_at: number | null;
  token_rotated_at: number;
  created_by: string | null;
  created_at: number;
  updated_at: number;
}

export interface IncomingAlertsTable {
  id: string;
  company_id: string;
  incident_id: string;
  fingerprint: string;
  /** firing | resolved */
  status: string;
  title: string;
  severity: string;
  /** JSON { labels, annotations, url } as the tool sent them, capped */
  detail: string;
  first_seen_at: number;
  last_seen_at: number;
}

export interface IncomingTables {
  incoming_sources: IncomingSourcesTable;
  incoming_alerts: IncomingAlertsTable;
}
