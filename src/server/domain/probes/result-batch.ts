// A probe's delivery call as the domain reads it (POST /api/v1/probe/results) and its answer: types
// only, so the services' seams (context.ts) can name them without importing the domain code.
import type { CheckOutcome } from '../../engine/checkers/types.ts';
import type { SyntheticRun } from '../../engine/kinds/synthetic-run.ts';

export interface ProbeResultInput {
  id: string;
  monitor_id: string;
  checked_at: number;
  status: CheckOutcome['status'];
  response_time_ms: number | null;
  http_code: number | null;
  error: string | null;
  timings: { dns?: number; connect?: number; tls?: number; ttfb?: number; total: number } | null;
  cert_expires_at: number | null;
  cert_issuer: string | null;
  cert_subject: string | null;
  detail?: {
    cert_valid?: boolean;
    cert_problem?: string;
    answers?: string[];
    run?: SyntheticRun;
    /** browser: PNGs in base64 by step (from 1) */
    screenshots?: Array<{ index: number; png: string }>;
  };
}

export interface ProbeResultsInput {
  stats: { instance: string; checks_per_second: number; lag_ms_p99: number };
  results: ProbeResultInput[];
}

export type RefusalReason = 'not_assigned' | 'too_old';

export interface ProbeResultsAnswer {
  accepted: number;
  duplicates: number;
  refused: Array<{ id: string; reason: RefusalReason }>;
}
