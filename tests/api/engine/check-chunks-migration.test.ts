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
import { okResultRow } from './support.ts';

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
    const want = rows.reverse().map((r) => ({ ...r, location: 0 }));
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

  it('keys chunks by the monitor number on a database upgraded after its tables were day-partitioned (0115 after 0410)', async () => {
    // 0119 and later build on 0114's monitor numbers: they come with the upgrade too.
    const upgraded = await dbWithMigrations(kind, (f) => !f.startsWith('0114') && !f.startsWith('0115') && f < '0119');
    try {
      const k = upgraded.k as unknown as Kysely<any>;
      await seedOldSchemaMonitor(k);
      const rows = Array.from({ length: 3 }, (_, i) => okResultRow('m1', 'c1', 1_700_000_000_000 + i * 60_000, 100 + i));
      await k.insertInto('check_results').values(rows).execute();
      // compacted the old way: a chunk keyed by monitor id and company
      expect(await compactResultsBefore0115(k, rows)).toBe(1);
      expect((await migrateToLatest(upgraded)).slice(0, 2)).toEqual([
        '0114_monitoring_compact_rollups',
        '0115_monitoring_chunk_monitor_numbers',
      ]);
      const got = await checksRepo(upgraded).list('m1', { limit: 10 });
      expect(got.map((r) => [Number(r.checked_at), r.response_time_ms, r.company_id])).toEqual(
        [...rows].reverse().map((r) => [r.checked_at, r.response_time_ms, 'c1']),
      );
      // a monitor deleted takes its chunks with it (the new key's foreign key cascades)
      await k.deleteFrom('monitors').where('id', '=', 'm1').execute();
      expect(await k.selectFrom('check_chunks').selectAll().execute()).toEqual([]);
    } finally {
      await upgraded.close();
    }
  });
});

/** The rows written as one chunk row of the 0113 layout (monitor_id, company_id), rows removed. */
async function compactResultsBefore0115(k: Kysely<any>, rows: Array<Record<string, any>>): Promise<number> {
  const { encodeChecks } = await import('../../../src/lib/check-chunk.ts');
  await k.deleteFrom('check_results').execute();
  await k
    .insertInto('check_chunks')
    .values({
      monitor_id: 'm1',
      company_id: 'c1',
      chunk_start: Math.floor(rows[0].checked_at / 3_600_000) * 3_600_000,
      checks: rows.length,
      data: encodeChecks(rows.map(({ monitor_id, company_id, ...c }) => ({ location: 0, ...c }) as never)),
    })
    .execute();
  return Number(
    (
      await k
        .selectFrom('check_chunks')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}
