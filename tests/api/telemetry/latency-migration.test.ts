import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Db } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { redRepo } from '../../../src/server/db/repositories/red-repo.ts';
import { rollupsOf } from '../../../src/server/telemetry/rollups.ts';
import { LatencySketch } from '../../../src/lib/latency-sketch.ts';
import { DB_KINDS, dbWithMigrations } from '../../support/test-db.ts';

describe.each(DB_KINDS)('the latency sketch migration on %s', (kind) => {
  let db: Db;
  afterAll(async () => {
    await db?.close();
  });

  it('turns fixed-bucket rollups into sketches without losing a count', async () => {
    db = await dbWithMigrations(kind, (f) => f < '0202');
    const k = db.k as unknown as Kysely<any>;
    const zeros = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`h${i}`, 0]));
    const base = { company_id: 'c1', service: 'shop', requests: 0, errors: 0, sum_ms: 0 };
    // minute 1: 3 requests in [0, 1] ms, 95 in (300, 500], 2 over 30 s; minute 2: 1 in (100, 150]
    await k
      .insertInto('red_rollups')
      .values([
        { ...base, ...zeros, minute_ms: 60_000, operation: 'GET /', requests: 100, errors: 4, sum_ms: 98_765.5, h0: 3, h11: 95, h19: 2 },
        { ...base, ...zeros, minute_ms: 120_000, operation: 'GET /', requests: 1, errors: 0, sum_ms: 120, h8: 1 },
        { ...base, ...zeros, minute_ms: 120_000, operation: 'idle', requests: 0, errors: 0, sum_ms: 0 },
      ])
      .execute();
    await k
      .insertInto('companies')
      .values({ id: 'c1', name: 'A', email: 'a@a.test', subdomain: 'a', slug: 'a', created_at: 1, updated_at: 1 })
      .execute();
    await k
      .insertInto('api_keys')
      .values({ id: 'k1', company_id: 'c1', name: 'old', scope: 'ingest', prefix: 'sw_live_abcd', key_hash: 'f'.repeat(64), created_at: 1 })
      .execute();

    expect(await migrateToLatest(db)).toContain('0202_telemetry_latency_sketch');

    const rows = await k.selectFrom('red_rollups').selectAll().orderBy('minute_ms').orderBy('operation').execute();
    expect(Object.keys(rows[0]).filter((c) => /^h\d+$/.test(c))).toEqual([]);
    expect(rows.map((r) => [Number(r.requests), Number(r.errors), Number(r.sum_ms)])).toEqual([
      [100, 4, 98_765.5],
      [1, 0, 120],
      [0, 0, 0],
    ]);
    const first = LatencySketch.parse(rows[0].hist);
    expect(first.total).toBe(100);
    expect(first.quantile(0.03)).toBeCloseTo(0.5, 1);
    expect(first.quantile(0.5) / 400).toBeCloseTo(1, 1);
    expect(first.quantile(1) / 30_000).toBeCloseTo(1, 1);
    expect(LatencySketch.parse(rows[1].hist).quantile(0.5) / 125).toBeCloseTo(1, 1);
    expect(rows[2].hist).toBe('');
    // Old keys accept no browser origin until one is set.
    expect((await k.selectFrom('api_keys').select('allowed_origins').executeTakeFirstOrThrow()).allowed_origins).toBe('[]');

    // New spans add to a migrated row.
    await redRepo(db).add(
      rollupsOf('c1', [{ service: 'shop', name: 'GET /', start_us: 60_000_500, duration_ms: 7, is_error: false, is_request: true }]),
    );
    const totals = await redRepo(db).totalsForCompany('c1', 0);
    expect(totals.requests).toBe(102);
    expect(totals.sketch.total).toBe(102);
    expect(totals.sketch.quantile(4 / 102) / 7).toBeCloseTo(1, 1); // 3 at 0.5 ms, then the new 7 ms
  });
});
