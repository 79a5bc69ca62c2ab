// Row types of the security suite (migrations 0600-0699). Times in ms.

/** domain: a registered domain (RDAP, DNS, e-mail authentication, lookalikes); host: a server name under one (TLS, scans) */
export type AssetKind = 'domain' | 'host';
/** dns: the TXT record; file: /.well-known/; domain: a host covered by its company's verified domain asset */
export type VerificationMethod = 'dns' | 'file' | 'domain';

export interface SecurityAssetsTable {
  id: string;
  company_id: string;
  /** lower-case, no trailing dot */
  hostname: string;
  kind: AssetKind;
  /** Proves control: TXT `statuswatch-verification=<token>` or /.well-known/statuswatch-verification.txt */
  verification_token: string;
  /** How control was last proven; null while never verified */
  verification_method: VerificationMethod | null;
  /** null: not (or no longer) verified, and nothing active is done to the host */
  verified_at: number | null;
  last_verification_at: number | null;
  last_verification_error: string | null;
  /**
   * JSON string[]: the addresses the proof vouches for (the name's addresses when it was proven;
   * for a file proof, each address that served the file). Nothing connects to another address.
   * null: verified before migration 0650, bound at its first scan, analysis or proof lookup.
   */
  verified_addresses: string | null;
  /** Set when the name was seen pointing outside verified_addresses: "proof needs renewing" */
  renewal_reason: string | null;
  renewal_needed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Which analysis produced a result or finding */
export type SecuritySource = 'ssl' | 'dns' | 'scan' | 'threat';

/** The latest result of one analysis of one asset (what the screens draw) */
export interface SecurityResultsTable {
  asset_id: string;
  source: SecuritySource;
  company_id: string;
  checked_at: number;
  /** A-F (or A+, T for untrusted) where the analysis grades; null otherwise */
  grade: string | null;
  /** JSON; its shape belongs to the analysis named by `source` */
  data: string;
}

export type FindingSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';
/** open: seen in the last run; fixed: not seen in a later run; accepted: an admin accepted the risk (with a reason) */
export type FindingStatus = 'open' | 'fixed' | 'accepted';

export interface SecurityFindingsTable {
  id: string;
  company_id: string;
  asset_id: string;
  source: SecuritySource;
  /** Stable per problem within its source, e.g. 'tls.protocol.tls1_0' or 'path./.git/HEAD' */
  key: string;
  severity: FindingSeverity;
  cvss: number | null;
  title: string;
  /** What was seen, for the admin to check (a header, a response's first bytes, a version) */
  evidence: string;
  first_seen_at: number;
  last_seen_at: number;
  status: FindingStatus;
  status_reason: string | null;
  status_changed_at: number | null;
}

/** The TLS analysis of an https monitor no verified asset covers (migration 0610) */
export interface TlsMonitorAnalysesTable {
  monitor_id: string;
  company_id: string;
  checked_at: number;
  grade: string | null;
  /** JSON: the 'ssl' result data, plus the problems seen with their first-seen times */
  data: string;
}

export interface SecurityTables {
  security_assets: SecurityAssetsTable;
  security_results: SecurityResultsTable;
  security_findings: SecurityFindingsTable;
  security_domain_settings: SecurityDomainSettingsTable;
  tls_monitor_analyses: TlsMonitorAnalysesTable;
}

/** An admin's settings for the checks of one domain asset (migration 0620) */
export interface SecurityDomainSettingsTable {
  asset_id: string;
  company_id: string;
  /** JSON string[]: DKIM selectors checked at <selector>._domainkey.<domain> */
  dkim_selectors: string;
  /** JSON string[]: names under the domain whose CNAMEs are watched for dangling targets, besides its verified hosts */
  watched_names: string;
  updated_at: number;
}
