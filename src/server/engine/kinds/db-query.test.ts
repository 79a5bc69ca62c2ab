import { describe, expect, it } from 'vitest';
import { dbQueryProblem } from './db-query.ts';

describe('database monitor queries', () => {
  it('takes one reading statement', () => {
    for (const q of [
      'SELECT 1',
      'select now()',
      'WITH t AS (SELECT 1) SELECT * FROM t',
      'SHOW server_version',
      'VALUES (1)',
      "SELECT replace('a', 'a', 'b')",
      'SELECT 1;',
    ])
      expect({ q, problem: dbQueryProblem(q) }).toEqual({ q, problem: null });
  });

  it('refuses what writes, two statements, and anything not starting as a read', () => {
    expect(dbQueryProblem('DELETE FROM t')).toMatch(/^Query must be a read-only statement/);
    expect(dbQueryProblem('SELECT 1; DROP TABLE t')).toBe('Query must be one statement');
    expect(dbQueryProblem('WITH d AS (DELETE FROM t RETURNING 1) SELECT 1')).toBe('Query must not write: "DELETE" is not allowed');
    expect(dbQueryProblem('SELECT * INTO copy FROM t')).toBe('Query must not write: "INTO" is not allowed');
    expect(dbQueryProblem('SELECT * FROM t FOR UPDATE')).toBe('Query must not write: "UPDATE" is not allowed');
  });
});
