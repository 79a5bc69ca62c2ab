// Migration 0113 on a database with results: every row survives (on SQLite the table is rebuilt
// WITHOUT ROWID), the two time indexes nothing reads any more are gone, and results can be
// compacted into the new check_chunks table and read back.
import { afterAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { type Db } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { checksRepo } from '../../../src/server/db/repositories/checks-repo.ts';
import { compactResults } from '../../../src/server/engine/compaction.ts';
import { DB_KINDS, dbWithMigrations, seedOldSchemaMonitor } from '../../support/test-db.ts';

describe.each(DB_KINDS)('the check chunks migration on %s', (kind) => {
  let db: Db;
  afterAll(async () => {
    await db?.close();
  });

  it('keeps every result row, drops the time indexes, and the rows compact', async () => {
    db = await dbWithMigrations(kind, (f) => f < '0113');
    const k = db.k as unknown as Kysely<any>;
    await seedOldSchemaMonitor(k);
    const rows = Array.from({ length: 50 }, (_, i) => ({
      monitor_id: 'm1',
      checked_at: 1_700_000_000_000 + i * 60_000,
      company_id: 'c1',
      status: i % 10 ? 'operational' : 'down',
      response_time_ms: i % 10 ? 100 + i / 4 : null,
      http_code: i % 10 ? 200 : 503,
      error: i % 10 ? null : 'HTTP 503',
      timings: i % 10 ? JSON.stringify({ dns: 1.25, total: 100 + i / 4 }) : null,
      cert_expires_at: 1_800_000_000_000,
    }));
    await k.insertInto('check_results').values(rows).execute();

    expect(await migrateToLatest(db)).toContain('0113_monitoring_check_chunks');
    const indexes =
      kind === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'check_results'`.execute(db.k))
            .rows
        : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'check_results'`.execute(db.k)).rows;
    expect(indexes.map((i) => i.name).filter((n) => n.includes('time'))).toEqual([]);
    if (kind === 'sqlite') {
      const ddl = await sql<{ sql: string }>`select sql from sqlite_master where name = 'check_results'`.execute(db.k);
      expect(ddl.rows[0].sql.toLowerCase()).toContain('without rowid');
    }
    const want = rows.reverse();
    const read = async () =>
      (await checksRepo(db).list('m1', { limit: 100 })).map((r) => ({
        ...r,
        checked_at: Number(r.checked_at),
        cert_expires_at: Number(r.cert_expires_at),
      }));
    expect(await read()).toEqual(want);
    expect(await compactResults(db, 1_800_000_000_000)).toBe(50);
    expect(await read()).toEqual(want);
  });
});
