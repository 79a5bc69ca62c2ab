// The span writer on real databases: a failing batch leaves nothing behind (neither spans nor
// rollups), concurrent exports are group-committed correctly, repeats count once; and the
// retention sweep keeps each plan's days.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb, newDatabaseLocation, tempDir } from '../../../tests/support/test-db.ts';
import { openDb } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { redRepo } from '../db/repositories/red-repo.ts';
import { endpointsRepo } from '../db/repositories/endpoints-repo.ts';
import { seedCompany } from '../../../tests/support/fixtures.ts';
import { parseConfig } from '../config.ts';
import type { Services } from '../domain/context.ts';
import { withProcessState } from '../process-state.ts';
import type { Db } from '../db/connect.ts';
import { SpanWriter } from './span-writer.ts';
import { sweepRetention } from './service.ts';
import type { DecodedSpan } from './otlp-spans.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function span(i: number, over: Partial<DecodedSpan> = {}): DecodedSpan {
  return {
    trace_id: (i + 1).toString(16).padStart(32, 'a'),
    span_id: (i + 1).toString(16).padStart(16, '0'),
    parent_span_id: null,
    name: 'GET /x',
    service: 'api',
    kind: 2,
    start_us: (NOW - 60_000) * 1000 + i,
    duration_ms: 10,
    status_code: 0,
    http_status: 200,
    is_error: i % 4 === 0,
    is_request: true,
    error_message: null,
    attributes: '{}',
    events: '[]',
    ...over,
  };
}

describe.each(DB_KINDS)('span writer on %s', (kind) => {
  let db: Db;
  let services: Services;
  const count = async (table: 'spans' | 'red_rollups', companyId?: string) => {
    let q = db.k.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
    if (companyId) q = q.where('company_id', '=', companyId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };
  const requests = async (companyId: string) =>
    Number(
      (
        await db.k
          .selectFrom('red_rollups')
          .select((eb) => eb.fn.sum<number>('requests').as('n'))
          .where('company_id', '=', companyId)
          .executeTakeFirstOrThrow()
      ).n ?? 0,
    );

  beforeEach(async () => {
    db = await freshDb(kind);
    services = withProcessState({
      config: parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir() }),
      db,
      now: () => NOW,
      ready: true,
      version: 'test',
    });
  });
  afterEach(async () => db.close());

  it('writes a batch whole or not at all', async () => {
    const c = await seedCompany(services);
    const writer = new SpanWriter(db);
    // 600 spans go in two statements; the 550th breaks a NOT NULL column inside the second.
    const bad = Array.from({ length: 600 }, (_, i) => (i === 550 ? span(i, { name: null as never }) : span(i)));
    await expect(writer.write(c.id, bad)).rejects.toThrow();
    expect(await count('spans')).toBe(0);
    expect(await count('red_rollups')).toBe(0);
    // The writer goes on with the next batch.
    expect(
      await writer.write(
        c.id,
        Array.from({ length: 600 }, (_, i) => span(i)),
      ),
    ).toBe(600);
    expect(await count('spans')).toBe(600);
    expect(await requests(c.id)).toBe(600);
    await writer.close();
  });

  it('group-commits concurrent exports of several companies and counts repeats once', async () => {
    const a = await seedCompany(services);
    const b = await seedCompany(services);
    const writer = new SpanWriter(db);
    const jobs = Array.from({ length: 20 }, (_, j) =>
      writer.write(
        j % 2 ? b.id : a.id,
        Array.from({ length: 50 }, (_, i) => span(j * 50 + i)),
      ),
    );
    // The same spans again for company a (an exporter retry), and a span repeated in one export.
    jobs.push(writer.write(a.id, [span(0), span(0), span(1)]));
    const counts = await Promise.all(jobs);
    expect(counts.slice(0, 20)).toEqual(new Array(20).fill(50));
    expect(counts[20]).toBe(0);
    expect(await count('spans', a.id)).toBe(500);
    expect(await count('spans', b.id)).toBe(500);
    expect(await requests(a.id)).toBe(500);
    expect(await requests(b.id)).toBe(500);
    // Same trace and span ids in another company are that company's own spans.
    expect(await writer.write(b.id, [span(0)])).toBe(1);
    await writer.close();
    await expect(writer.write(a.id, [span(9999)])).rejects.toThrow('closed');
  });

  it("sweeps spans and rollups past each plan's retention", async () => {
    const starter = await seedCompany(services, { plan: 'starter' });
    const enterprise = await seedCompany(services, { plan: 'enterprise' });
    const writer = new SpanWriter(db);
    const day = 86_400_000;
    const attributes = '{"http.request.method":"GET","http.route":"/x"}';
    for (const c of [starter, enterprise]) {
      await writer.write(c.id, [
        span(1, { start_us: (NOW - 8 * day) * 1000, attributes }),
        span(2, { start_us: (NOW - 1 * day) * 1000, attributes }),
        span(3, { start_us: (NOW - 91 * day) * 1000, attributes }),
      ]);
    }
    await writer.close();
    const swept = await sweepRetention(services);
    expect(swept.spans).toBe(3); // starter: 8 and 91 days old; enterprise: 91 days old
    expect(await count('spans', starter.id)).toBe(1);
    expect(await count('spans', enterprise.id)).toBe(2);
    expect(await requests(starter.id)).toBe(1);
    expect(await requests(enterprise.id)).toBe(2);
    // The endpoint rollups go with them, at every grain.
    for (const table of ['endpoint_rollups', 'endpoint_rollups_hourly', 'endpoint_rollups_daily'] as const) {
      const left = await db.k.selectFrom(table).select(['company_id', 'requests']).execute();
      expect(
        left.filter((r) => r.company_id === starter.id).map((r) => Number(r.requests)),
        table,
      ).toEqual([1]);
      expect(
        left.filter((r) => r.company_id === enterprise.id).map((r) => Number(r.requests)),
        table,
      ).toEqual([1, 1]);
    }
  });
});

// Two server processes on one PostgreSQL database write the same minute rows at once: each
// read-merge-write locks its rows, and a row both insert first is merged by the conflict
// clause, so no request is lost from the latency sketch (SQLite has one writing process).
describe('span writers of two processes on postgres', () => {
  it('keep every request in the sketch of a shared minute row', async () => {
    const loc = await newDatabaseLocation('postgres');
    const one = openDb({ kind: 'postgres', url: loc.url!, max: 3 });
    const two = openDb({ kind: 'postgres', url: loc.url!, max: 3 });
    try {
      await migrateToLatest(one);
      const c = await seedCompany(
        withProcessState({
          config: parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir() }),
          db: one,
          now: () => NOW,
          ready: true,
          version: 'test',
        }),
      );
      const writers = [new SpanWriter(one), new SpanWriter(two)];
      const durations: number[] = [];
      const jobs: Promise<number>[] = [];
      for (let j = 0; j < 40; j++) {
        const batch = Array.from({ length: 25 }, (_, i) => {
          const n = j * 25 + i;
          durations.push(1 + n * 0.7);
          return span(n, {
            duration_ms: 1 + n * 0.7,
            start_us: (NOW - 60_000) * 1000 + (n % 3) * 60_000_000,
            attributes: `{"http.request.method":"GET","url.path":"/items/${n % 7}"}`,
          });
        });
        jobs.push(writers[j % 2].write(c.id, batch));
      }
      expect((await Promise.all(jobs)).reduce((a, b) => a + b, 0)).toBe(1000);
      await Promise.all(writers.map((w) => w.close()));
      const totals = await redRepo(one).totalsForCompany(c.id, 0);
      expect(totals.requests).toBe(1000);
      expect(totals.sketch.total).toBe(1000);
      const sorted = [...durations].sort((a, b) => a - b);
      for (const q of [0.5, 0.95, 0.99]) {
        const exact = sorted[Math.ceil(q * 1000) - 1];
        expect(Math.abs(totals.sketch.quantile(q) - exact) / exact).toBeLessThanOrEqual(0.01);
      }
      // The endpoint rollups of the same rows, at every grain, lose no request either.
      const [endpoint] = await endpointsRepo(one).totals({ companyId: c.id, fromMs: 0, toMs: NOW + 3_600_000, limit: 10 }, { codes: true });
      expect(endpoint).toMatchObject({ route: '/items/{id}', requests: 1000, classes: { '2xx': 1000 } });
      expect(endpoint.sketch.total).toBe(1000);
      const p95 = sorted[Math.ceil(0.95 * 1000) - 1];
      expect(Math.abs(endpoint.sketch.quantile(0.95) - p95) / p95).toBeLessThanOrEqual(0.01);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
