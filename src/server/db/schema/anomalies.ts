// Row types of anomaly watching (migration 0133). Times ms.

export type AnomalyLevel = 'off' | 'low' | 'normal' | 'high';
export type AnomalyKind = 'latency' | 'divergence';

export interface AnomalySettingsTable {
  company_id: string;
  latency: AnomalyLevel;
  divergence: AnomalyLevel;
  updated_at: number;
  updated_by: string | null;
}

export interface AnomalyEpisodesTable {
  id: string;
  company_id: string;
  kind: AnomalyKind;
  subject: string;
  monitor_id: string | null;
  title: string;
  started_at: number;
  resolved_at: number | null;
  /** JSON array of AnomalyEvidence */
  evidence: string;
  updated_at: number;
}

export interface AnomalyTables {
  anomaly_settings: AnomalySettingsTable;
  anomaly_episodes: AnomalyEpisodesTable;
}
