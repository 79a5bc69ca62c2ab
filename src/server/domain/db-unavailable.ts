// What a caller is told when the database cannot serve: reads and writes answer 503 with a
// Retry-After (never 500) until it is back; the status pages keep their last snapshot.
import { describeDbFailure, dbOutageOf } from '../db/outage.ts';

export interface DatabaseUnavailable {
  detail: string;
  /** seconds */
  retryAfter: number;
  /** for the server log: a code, no connection details */
  log: string;
}

export const DB_DOWN_DETAIL = 'The database is unavailable right now. Please try again in a moment.';
export const DB_CANNOT_STORE_DETAIL = 'The database cannot store data right now. Please try again later.';

/** The answer for an error that means the database is down, full or read-only; null otherwise. */
export function databaseUnavailable(e: unknown): DatabaseUnavailable | null {
  const outage = dbOutageOf(e);
  if (!outage) return null;
  // A restart is over in seconds; a full or read-only disk waits for an operator.
  return outage.kind === 'unreachable'
    ? { detail: DB_DOWN_DETAIL, retryAfter: 5, log: describeDbFailure(e) }
    : { detail: DB_CANNOT_STORE_DETAIL, retryAfter: 60, log: describeDbFailure(e) };
}
