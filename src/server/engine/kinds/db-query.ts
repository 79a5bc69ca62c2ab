// The query of database kinds: read-only by construction (the checker runs it in a READ ONLY
// transaction), and obviously writing statements are refused here already, with a clear text,
// rather than only failing at the first check.
import { plainTextProblem } from '../../../lib/plain-text.ts';

const READING = /^\s*(select|with|show|values|table|explain)\b/i;
// What turns a reading statement into a writing one: a data-modifying WITH, SELECT … INTO, a lock.
// Functions that write are stopped by the READ ONLY transaction instead.
const WRITING = /\b(insert|update|delete|merge|into|truncate|create|alter|drop|grant|revoke|copy|lock)\b/i;
/** A statement separator followed by more text: two statements. */
const MORE_STATEMENTS = /;\s*\S/;

export const QUERY_MAX = 2000;

export function dbQueryProblem(query: string): string | null {
  if (query.length > QUERY_MAX) return `Query must be at most ${QUERY_MAX} characters`;
  if (!READING.test(query)) return 'Query must be a read-only statement starting with SELECT, WITH, SHOW, VALUES, TABLE or EXPLAIN';
  if (MORE_STATEMENTS.test(query)) return 'Query must be one statement';
  const writes = query.match(WRITING);
  if (writes) return `Query must not write: "${writes[1].toUpperCase()}" is not allowed`;
  return null;
}

export function dbExpectedProblem(expected: string | null): string | null {
  if (expected !== null && expected.length > 500) return 'Expected value must be at most 500 characters';
  return plainTextProblem('Expected value', expected);
}
