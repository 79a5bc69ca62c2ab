// What the main thread and the probe ingest thread say to each other (probe-ingest.ts, probe-ingest-thread.ts).
import type { Config } from '../config.ts';
import type { ProbeResultsAnswer, ProbeResultsInput } from '../domain/probes/result-batch.ts';

export interface IngestThreadData {
  config: Config;
  port: number;
  host: string;
}

/** From the thread */
export type IngestThreadMessage =
  | { type: 'listening'; port: number }
  | { type: 'failed'; error: string }
  /** PostgreSQL: results landed in the inbox; drain it */
  | { type: 'inbox' }
  /** SQLite: take this batch (the main thread answers with `call`) */
  | { type: 'results'; call: number; presented: string | null; input: ProbeResultsInput };

/** From the main thread */
export type MainMessage =
  | { type: 'answer'; call: number; answer: ProbeResultsAnswer }
  /** a DomainError (code set) or another failure, answered as the main port would */
  | { type: 'refused'; call: number; code: string | null; detail: string; fields?: Record<string, string> }
  | { type: 'stop' };
