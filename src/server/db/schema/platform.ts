// Row types of platform tables no product area owns (migrations 0400-0499). Times in ms.

export interface JobLeasesTable {
  /** The job's name (jobs/registry.ts) */
  name: string;
  /** The process that runs the job's current period; '' before its first run */
  holder: string;
  expires_at: number;
}

/** Platform-wide state shared by the processes (migration 0401) */
export interface PlatformStateTable {
  /** 'canary', 'maintenance-notices' */
  name: string;
  /** JSON; its shape belongs to whoever owns the name */
  value: string;
  updated_at: number;
}

/** One counted event of a throttle, shared by the processes (migration 0402) */
export interface ThrottleHitsTable {
  /** Which throttle: 'login-pair', 'login-ip', 'signup-ip', 'forgot-email', 'trusted', … */
  scope: string;
  /** SHA-256 (base64url) of what is counted: an e-mail, an address, both, a user id */
  key_hash: string;
  at: number;
  /** When the row stops counting and may be deleted */
  expires_at: number;
}

/**
 * A table partitioned by UTC day on PostgreSQL (migration 0410; the table does not exist on
 * SQLite, where nothing is partitioned): the partition job and retention read this list.
 */
export interface DayPartitionedTablesTable {
  table_name: string;
  /** The bigint time column the table is partitioned on */
  column_name: string;
  /** What that column counts since the epoch */
  unit: 'ms' | 'us';
  /** JSON: the table's keys before partitioning (for migrating down) */
  original_keys: string;
}

export interface PlatformTables {
  job_leases: JobLeasesTable;
  platform_state: PlatformStateTable;
  throttle_hits: ThrottleHitsTable;
  day_partitioned_tables: DayPartitionedTablesTable;
}
