// Row types of threat intelligence (migration 0640, security suite). Times in ms.

/** ip: one address; cidr: a network (every address in it); domain: a name and every name under it */
export type IndicatorKind = 'ip' | 'cidr' | 'domain';

export interface ThreatIndicatorsTable {
  /** lower-case domain, canonical address, or the network's canonical CIDR (192.0.2.0/24) */
  value: string;
  feed: string;
  kind: IndicatorKind;
  /** What the feed says it is ('malware_download', or the feed's own kind such as 'botnet') */
  threat: string;
  /** comma-separated, as the feed gave them ('' when none) */
  tags: string;
  /** When the feed says it was added, else when an import first carried it (last seen: the feed's latest import) */
  first_seen_at: number;
}

export interface ThreatFeedsTable {
  name: string;
  url: string;
  format: string;
  /** How many the latest successful import stored */
  indicators: number;
  /** JSON list of the CIDR prefix lengths it holds, such as ["v4/24","v6/32"] */
  cidr_prefixes: string;
  imported_at: number | null;
  attempted_at: number;
  /** Why the latest attempt failed; null after a success */
  error: string | null;
}

/** A host a company's services called (client spans), kept at ingest */
export interface SpanPeersTable {
  company_id: string;
  host: string;
  service: string;
  first_seen_at: number;
  last_seen_at: number;
}

export interface ThreatLookalikesTable {
  company_id: string;
  /** The company's domain it imitates */
  domain: string;
  candidate: string;
  technique: string;
  /** Registered at the latest check */
  registered: boolean;
  /** When a check first found it registered */
  first_registered_at: number | null;
  /** null: never checked yet */
  checked_at: number | null;
}

export interface ThreatBreachesTable {
  company_id: string;
  domain: string;
  checked_at: number;
  /** JSON array of {name, date, accounts, data_classes} */
  breaches: string;
  error: string | null;
}

export interface ThreatTables {
  threat_indicators: ThreatIndicatorsTable;
  threat_feeds: ThreatFeedsTable;
  span_peers: SpanPeersTable;
  threat_lookalikes: ThreatLookalikesTable;
  threat_breaches: ThreatBreachesTable;
}
