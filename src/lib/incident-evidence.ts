// The evidence panel of an automatic incident (issue 33, item 1): what changed, laid out from what
// the platform already stores, with no model and no guessing. Built when the incident opens and
// updated while it runs; shown on the incident page, as one line in the alert, in the API
// (GET /api/v1/incidents/{id}/evidence) and through MCP. The optional language model (item 3)
// writes its summary from this object only. Shared by the server and the console: types only.

/** One kind of finding; each has its own source to link to. */
export type EvidenceKind =
  | 'phase' // a check phase (dns, connect, tls, first_byte, body) failing or slower than the monitor's baseline
  | 'locations' // which probe locations see it down and which see it up
  | 'dns_change' // a DNS record of the target changed in the hours before
  | 'certificate_change' // the target's certificate changed in the hours before
  | 'service_errors' // the company's services whose spans name the same host: error rate, p95, top errors
  | 'deploy' // a new service.version seen shortly before
  | 'maintenance_ended'; // a maintenance window of the monitor ended shortly before

export type CheckPhase = 'dns' | 'connect' | 'tls' | 'first_byte' | 'body';

export interface EvidenceItem {
  kind: EvidenceKind;
  /** One sentence a person reads ("TLS handshake 840 ms, baseline 45 ms (p95 of the last 7 days)") */
  summary: string;
  /** When the finding happened or was measured (ISO 8601) */
  at: string;
  /** Where it comes from, to follow: a console path ("/monitors/…", "/traces/…", "/security/…") */
  source: { label: string; href: string };
  /** The figures behind the sentence, by name (machine-readable; also what the model is given) */
  data: Record<string, string | number | boolean | null | string[] | number[]>;
}

export interface IncidentEvidence {
  incident_id: string;
  monitor_id: string | null;
  /** When the panel was first built and last updated (ISO 8601) */
  built_at: string;
  updated_at: string;
  /** Most telling first; empty when nothing stood out (the panel says so) */
  items: EvidenceItem[];
  /** The one line for alerts ("TLS handshake 18× slower than usual; 2 of 3 locations; certificate replaced 40 min before") */
  line: string;
}
