// Row types of platform tables no product area owns (migrations 0400-0499). Times in ms.

export interface JobLeasesTable {
  /** The job's name (jobs/registry.ts) */
  name: string;
  /** The process that runs the job's current period; '' before its first run */
  holder: string;
  expires_at: number;
}

export interface PlatformTables {
  job_leases: JobLeasesTable;
}
