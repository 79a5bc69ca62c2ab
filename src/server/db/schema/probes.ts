// Probe locations, their tokens and the probes seen in them (migration 0118, issue 27).
import type { Generated } from 'kysely';

export interface ProbeLocationsTable {
  id: string;
  /** Small number keying the location in stored checks (0 is `local`, which has no row; migration 0119) */
  num: number;
  slug: string;
  name: string;
  /** null: a public location (offered to every company); else the company owning a private one */
  company_id: string | null;
  created_at: number;
  created_by: string | null;
  /** Since when every probe of the location is silent (the last one heard); null while one is heard (migration 0120) */
  offline_since: number | null;
  /** Since when the per-location canary flags it (its checks all fail while others see the monitors up); migration 0120 */
  flagged_since: number | null;
}

export interface ProbeTokensTable {
  id: string;
  location_id: string;
  name: string;
  /** SHA-256 (hex) of the token: the token itself is shown once and never stored */
  token_hash: string;
  token_prefix: string;
  created_at: number;
  created_by: string | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface ProbesTable {
  id: string;
  location_id: string;
  token_id: string;
  /** the instance name (host name) the probe reports */
  instance: string;
  version: string;
  first_seen_at: number;
  last_seen_at: number;
  checks_per_second: number | null;
  lag_ms: number | null;
  /** What it runs beyond the network kinds, as a comma list (`browser`), from its last hello (migration 0131) */
  capabilities: string;
}

/** Ids of results already taken from a location's probes: a batch sent twice is stored once (migration 0119). */
export interface ProbeResultsSeenTable {
  location: number;
  result_id: string;
  received_at: number;
}

/** Each probe result stream's highest number taken (migration 0136). */
export interface ProbeResultStreamsTable {
  location: number;
  stream: string;
  last_seq: number;
  prev_seq: Generated<number>;
  updated_at: number;
}

/** Results a delivery call took and the drainer has not stored yet (migration 0126). */
export interface ProbeResultInboxTable {
  seq: Generated<number>;
  location: number;
  received_at: number;
  count: number;
  /** JSON array of the results (domain/probes/inbox.ts) */
  results: string;
}

export interface ProbeTables {
  probe_locations: ProbeLocationsTable;
  probe_tokens: ProbeTokensTable;
  probes: ProbesTable;
  probe_results_seen: ProbeResultsSeenTable;
  probe_result_inbox: ProbeResultInboxTable;
  probe_result_streams: ProbeResultStreamsTable;
}
