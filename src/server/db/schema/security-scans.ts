// Row types of the vulnerability scans (migration 0630). Times in ms.

export type ScanTrigger = 'on_demand' | 'scheduled';
/** queued → running → done | failed; at most one queued or running per asset (a unique partial index) */
export type ScanState = 'queued' | 'running' | 'done' | 'failed';

export interface SecurityScansTable {
  id: string;
  company_id: string;
  asset_id: string;
  trigger: ScanTrigger;
  /** The user who pressed "Scan now"; null for scheduled scans */
  requested_by: string | null;
  state: ScanState;
  queued_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** While running: when another runner may take the scan over (its runner crashed) */
  lease_expires_at: number | null;
  /** Open findings of the scan by severity, once done */
  critical: number;
  high: number;
  medium: number;
  low: number;
  info: number;
  /** Findings this scan saw for the first time (or again after a fix) */
  new_findings: number;
  /** Why a failed scan failed, in the product's words */
  error: string | null;
}

export interface SecurityScanTables {
  security_scans: SecurityScansTable;
}
