// Which real driver errors count as an outage (503) and which stay what they are (a unique
// violation is a 409, a bug a 500), and that the log line names no server.
import { describe, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { freePort } from '../../../tests/support/pg-cluster.ts';
import { dbOutageOf, describeDbFailure } from './outage.ts';

function sqliteError(setup: string, statement: string): unknown {
  const db = new DatabaseSync(':memory:');
  db.exec(`create table t(x text unique); ${setup}`);
  try {
    db.exec(statement);
    return null;
  } catch (e) {
    return e;
  } finally {
    db.close();
  }
}

describe('database outages', () => {
  it('classifies SQLite failures: full and read-only are outages, a constraint is not', () => {
    const full = sqliteError(
      `PRAGMA max_page_count = 2;`,
      `insert into t select hex(randomblob(2000)) from (with recursive n(i) as (select 1 union all select i + 1 from n where i < 50) select i from n)`,
    );
    expect(dbOutageOf(full)).toEqual({ kind: 'full', code: 'SQLITE_FULL' });
    expect(dbOutageOf(sqliteError('PRAGMA query_only = 1;', `insert into t values ('a')`))).toEqual({
      kind: 'read_only',
      code: 'SQLITE_READONLY',
    });
    expect(dbOutageOf(sqliteError(`insert into t values ('a');`, `insert into t values ('a')`))).toBeNull();
    expect(dbOutageOf(new Error('boom'))).toBeNull();
  });

  it('classifies a refused PostgreSQL connection and describes it without host, user or database', async () => {
    const port = await freePort();
    const client = new pg.Client({ connectionString: `postgres://someone:s3cret@127.0.0.1:${port}/somedb` });
    const e = await client.connect().then(
      () => null,
      (err: unknown) => err,
    );
    expect(dbOutageOf(e)).toEqual({ kind: 'unreachable', code: 'ECONNREFUSED' });
    expect(dbOutageOf(new Error('wrapped', { cause: e }))).toEqual({ kind: 'unreachable', code: 'ECONNREFUSED' });
    const line = describeDbFailure(e);
    expect(line).toBe('database unreachable (ECONNREFUSED)');
    expect(dbOutageOf(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }))).toBeNull();
    expect(dbOutageOf(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toEqual({
      kind: 'unreachable',
      code: '57P01',
    });
  });
});
