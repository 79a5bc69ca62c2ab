import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Db } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { rollupsRepo } from '../../../src/server/db/repositories/rollups-repo.ts';
import { LatencySketch } from '../../../src/lib/latency-sketch.ts';
import { DB_KINDS, dbWithMigrations, seedOldSchemaMonitor } from '../../support/test-db.ts';

const hist = (at: Record<number, number>) => JSON.stringify(Array.from({ length: 21 }, (_, i) => at[i] ?? 0));

describe.each(DB_KINDS)('the monitor latency sketch migration on %s', (kind) => {
  let db: Db;
  afterAll(async () => {
    await db?.close();
  });

  it('turns fixed-bucket monitor rollups into sketches without losing a check', async () => {
    // Every later migration runs too: 0114 then moves the converted rows into the compact rollup rows.
    db = await dbWithMigrations(kind, (f) => f < '0111');
    const k = db.k as unknown as Kysely<any>;
    await seedOldSchemaMonitor(k);
    const base = { monitor_id: 'm1', company_id: 'c1', degraded: 0, maintenance: 0, p95_response_ms: 500 };
    await k
      .insertInto('monitor_rollups_hourly')
      .values([
        // 90 checks in (20, 30] ms, 10 in (300, 400]: fastest 22 ms, slowest 380 ms
        {
          ...base,
          hour_start: 0,
          checks: 102,
          failures: 2,
          sum_response_ms: 6_000,
          min_response_ms: 22,
          max_response_ms: 380,
          response_hist: hist({ 3: 90, 10: 10 }),
        },
        // every check took 42 ms: the conversion is exact
        {
          ...base,
          hour_start: 3_600_000,
          checks: 5,
          failures: 0,
          sum_response_ms: 210,
          min_response_ms: 42,
          max_response_ms: 42,
          response_hist: hist({ 4: 5 }),
        },
        // two checks over 30 s (slowest 45 s) and one of at most 5 ms
        {
          ...base,
          hour_start: 7_200_000,
          checks: 3,
          failures: 0,
          sum_response_ms: 85_000,
          min_response_ms: 0,
          max_response_ms: 45_000,
          response_hist: hist({ 0: 1, 20: 2 }),
        },
        // only failures: no histogram
        {
          ...base,
          hour_start: 10_800_000,
          checks: 4,
          failures: 4,
          sum_response_ms: 0,
          min_response_ms: null,
          max_response_ms: null,
          response_hist: null,
        },
      ])
      .execute();
    await k
      .insertInto('monitor_rollups_daily')
      .values({
        ...base,
        day_start: 0,
        checks: 100,
        failures: 0,
        sum_response_ms: 6_000,
        min_response_ms: 22,
        max_response_ms: 380,
        response_hist: hist({ 3: 90, 10: 10 }),
      })
      .execute();

    expect(await migrateToLatest(db)).toContain('0111_monitoring_latency_sketch');

    const rows = await rollupsRepo(db).range('hourly', ['m1'], 0, Number.MAX_SAFE_INTEGER);
    expect(Object.keys(rows[0])).not.toContain('response_hist');
    expect(rows.map((r) => [Number(r.checks), Number(r.failures), Number(r.sum_response_ms)])).toEqual([
      [102, 2, 6_000],
      [5, 0, 210],
      [3, 0, 85_000],
      [4, 4, 0],
    ]);
    const s = rows.map((r) => LatencySketch.parse(r.response_sketch));
    expect(s.map((x) => x.total)).toEqual([100, 5, 3, 0]);
    const near = (got: number, want: number) => expect(Math.abs(got - want) / want).toBeLessThanOrEqual(0.01);
    near(s[0].quantile(0.5), 26); // (22 + 30) / 2: the bucket's part above the fastest check
    near(s[0].quantile(0.95), 340); // (300 + 380) / 2: below the slowest, not the bucket's 400
    near(s[1].quantile(0.5), 42);
    near(s[1].quantile(0.95), 42);
    near(s[2].quantile(0.2), 2.5); // [0, 5]
    near(s[2].quantile(1), 37_500); // (30 s, 45 s]: the open bucket ends at the slowest check
    expect(rows[3].response_sketch).toBe('');
    const [day] = await rollupsRepo(db).range('daily', ['m1'], 0, Number.MAX_SAFE_INTEGER);
    expect(LatencySketch.parse(day.response_sketch).total).toBe(100);
    expect(Object.keys(day)).not.toContain('response_hist');
  });
});
