import { afterAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Db } from '../../../src/server/db/connect.ts';
import { migrateToLatest } from '../../../src/server/db/migrate.ts';
import { redRepo } from '../../../src/server/db/repositories/red-repo.ts';
import { LatencySketch } from '../../../src/lib/latency-sketch.ts';
import { DB_KINDS, dbWithMigrations } from '../../support/test-db.ts';

const HOUR = 3_600_000;
const T0 = 480_000 * HOUR; // an hour boundary

const sketchOf = (values: number[]) => {
  const s = new LatencySketch();
  for (const v of values) s.add(v);
  return s;
};

describe.each(DB_KINDS)('hourly rollups on %s', (kind) => {
  let db: Db;
  afterAll(async () => {
    await db?.close();
  });

  it('folds the minutes into hours on upgrade, and new writes reach both grains', async () => {
    db = await dbWithMigrations(kind, (f) => f < '0203');
    const k = db.k as unknown as Kysely<any>;
    const row = (minute: number, op: string, values: number[], errors: number) => ({
      company_id: 'c1',
      minute_ms: T0 + minute * 60_000,
      service: 'shop',
      operation: op,
      requests: values.length,
      errors,
      sum_ms: values.reduce((a, b) => a + b, 0),
      hist: sketchOf(values).serialize(),
    });
    const a = [10, 20, 30, 400];
    const b = [15, 25, 900];
    const c = [50];
    await k
      .insertInto('red_rollups')
      .values([row(1, 'GET /', a, 1), row(59, 'GET /', b, 0), row(61, 'GET /', c, 0), row(5, 'POST /', [7], 1)])
      .execute();

    expect(await migrateToLatest(db)).toContain('0203_telemetry_search_hourly_rollups');
    const hours = await k.selectFrom('red_rollups_hourly').selectAll().orderBy('minute_ms').orderBy('operation').execute();
    expect(hours.map((h) => [Number(h.minute_ms) - T0, h.operation, Number(h.requests), Number(h.errors)])).toEqual([
      [0, 'GET /', 7, 1],
      [0, 'POST /', 1, 1],
      [HOUR, 'GET /', 1, 0],
    ]);
    expect(LatencySketch.parse(hours[0].hist).serialize()).toBe(sketchOf([...a, ...b]).serialize());

    // A new write for the first hour adds to its minute and to its hour.
    await redRepo(db).add([{ ...row(2, 'GET /', [1000, 2000], 2) }]);
    const repo = redRepo(db);
    const byHour = await repo.buckets({ companyId: 'c1', fromMs: T0, toMs: T0 + 6 * HOUR }, 6 * HOUR);
    const byMinute = await repo.buckets({ companyId: 'c1', fromMs: T0, toMs: T0 + 6 * HOUR }, 30 * 60_000); // not whole hours: minutes
    const six = byHour.get(T0)!;
    expect([six.requests, six.errors]).toEqual([11, 4]);
    expect(six.sketch.quantile(0.95)).toBeCloseTo(sketchOf([...a, ...b, ...c, 7, 1000, 2000]).quantile(0.95), 9);
    expect([...byMinute.keys()].map((t) => t - T0).sort((x, y) => x - y)).toEqual([0, 1_800_000, HOUR]);
    expect([...byMinute.values()].reduce((n, t) => n + t.requests, 0)).toBe(11);

    // Retention keeps an hour until it has ended before the cutoff.
    await repo.deleteOlderThan('c1', T0 + HOUR + 30 * 60_000);
    const left = await k.selectFrom('red_rollups_hourly').select('minute_ms').execute();
    expect(left.map((h) => Number(h.minute_ms) - T0)).toEqual([HOUR]);
  });
});
