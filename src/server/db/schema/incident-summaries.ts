// Row types of the language model's incident summaries (migration 0134). Times in ms.

/** A company's opt-in and budget; a company without a row has not opted in. */
export interface IncidentSummarySettingsTable {
  company_id: string;
  /** 0/1 (read as a boolean by the repository) */
  enabled: number;
  /** Tokens a calendar month; null: the operator's default (LLM_MONTHLY_TOKENS) */
  monthly_tokens: number | null;
  updated_at: number;
  updated_by: string | null;
}

/** Tokens a company used in one calendar month (UTC), estimates of calls under way included. */
export interface IncidentSummaryUsageTable {
  company_id: string;
  /** YYYY-MM */
  month: string;
  tokens: number;
  calls: number;
}

export type SummaryTrigger = 'evidence' | 'request';

export interface IncidentSummariesTable {
  id: string;
  company_id: string;
  incident_id: string;
  trigger: SummaryTrigger;
  requested_by: string | null;
  model: string;
  /** JSON: the chat messages sent */
  prompt: string;
  /** JSON: the IncidentEvidence it was written from */
  evidence: string;
  evidence_updated_at: number;
  answer: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  created_at: number;
}

export interface IncidentSummaryTables {
  incident_summary_settings: IncidentSummarySettingsTable;
  incident_summary_usage: IncidentSummaryUsageTable;
  incident_summaries: IncidentSummariesTable;
}
