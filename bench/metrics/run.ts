// Metrics series and trace search at scale, straight on the database (no HTTP): one company with
// per-minute rollups for --days (default 30) of --ops (default 45) operations a minute, i.e.
// what 5 M spans over 30 days of 10 services and 50 operations leave behind, and --spans stored
// spans (a fifth of them requests) for the trace search. The 7- and 30-day series read the
// hourly rollups, the shorter ranges the minutes. Prints the 30-day series time (target:
// the screen in 1 s) and trace search p50/p99 over 50 runs per filter (target 200 ms p99).
// --pg (a throwaway cluster) or BENCH_DATABASE_URL=postgres://... runs on PostgreSQL.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDb } from '../../src/server/db/connect.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import { redRepo } from '../../src/server/db/repositories/red-repo.ts';
import { spansRepo } from '../../src/server/db/repositories/spans-repo.ts';
import { LatencySketch } from '../../src/lib/latency-sketch.ts';
import { metricWindow, type MetricRange } from '../../src/lib/metric-buckets.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    ops: { type: 'string', default: '45' },
    spans: { type: 'string', default: '1000000' },
    pg: { type: 'boolean', default: false },
  },
});
const DAYS = Number(values.days);
const OPS = Number(values.ops);
const SPANS = Number(values.spans);
const COMPANY = 'bench-co';
const MIN = 60_000;

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(q * xs.length) - 1)];

async function main() {
  const cluster = values.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const url = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, 'bench_metrics') : undefined);
  const db = url
    ? openDb({ kind: 'postgres', url })
    : openDb({ kind: 'sqlite', file: path.join(mkdtempSync(path.join(os.tmpdir(), 'sw-bench-metrics-')), 'db.sqlite') });
  try {
    await migrateToLatest(db);
    const now = Date.now();
    const first = now - DAYS * 1440 * MIN;
    const t0 = performance.now();
    // Rollups: OPS rows a minute, ~2.5 requests each, with a realistic sketch text.
    let rows: Array<Record<string, unknown>> = [];
    let n = 0;
    for (let m = first - (first % MIN); m < now; m += MIN) {
      for (let o = 0; o < OPS; o++) {
        const s = new LatencySketch();
        s.add(20 + ((m / MIN + o) % 200));
        s.add(35 + (o % 50));
        s.add(80 + (o % 7) * 30);
        rows.push({
          company_id: COMPANY,
          minute_ms: m,
          service: `svc${o % 10}`,
          operation: `op${o}`,
          requests: 3,
          errors: o % 20 === 0 ? 1 : 0,
          sum_ms: 200,
          hist: s.serialize(),
        });
        if (rows.length === 2000) {
          await db.k
            .insertInto('red_rollups')
            .values(rows as never)
            .execute();
          n += rows.length;
          rows = [];
        }
      }
    }
    if (rows.length)
      await db.k
        .insertInto('red_rollups')
        .values(rows as never)
        .execute();
    n += rows.length;
    // The hours, compact, as the span writer keeps them beside the minutes.
    let hours: Array<Record<string, unknown>> = [];
    for (let h = first - (first % 3_600_000); h < now; h += 3_600_000) {
      for (let o = 0; o < OPS; o++) {
        const s = new LatencySketch();
        for (let m = 0; m < 60; m++) {
          s.add(20 + ((h / MIN + m + o) % 200));
          s.add(35 + (o % 50));
          s.add(80 + (o % 7) * 30);
        }
        const hour = {
          company_id: COMPANY,
          minute_ms: h,
          service: `svc${o % 10}`,
          operation: `op${o}`,
          requests: 180,
          errors: 0,
          sum_ms: 12_000,
        };
        hours.push({ ...hour, hist: s.serialize() });
        if (hours.length === 2000) {
          await db.k
            .insertInto('red_rollups_hourly')
            .values(hours as never)
            .execute();
          hours = [];
        }
      }
    }
    if (hours.length)
      await db.k
        .insertInto('red_rollups_hourly')
        .values(hours as never)
        .execute();
    console.log(`seeded ${n.toLocaleString()} rollup rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const t1 = performance.now();
    const spans = spansRepo(db);
    let batch: Array<Record<string, unknown>> = [];
    const span = DAYS * 1440 * MIN;
    for (let i = 0; i < SPANS; i++) {
      const request = i % 5 === 0;
      batch.push({
        company_id: COMPANY,
        trace_id: Math.floor(i / 5)
          .toString(16)
          .padStart(32, '0'),
        span_id: i.toString(16).padStart(16, '0'),
        parent_span_id: request ? null : (i - (i % 5)).toString(16).padStart(16, '0'),
        name: `op${i % 50}`,
        service: `svc${i % 10}`,
        kind: request ? 2 : 3,
        start_us: (now - Math.floor((i / SPANS) * span)) * 1000,
        duration_ms: (i * 7919) % 3000,
        status_code: 0,
        http_status: 200,
        is_error: i % 97 === 0 ? 1 : 0,
        is_request: request ? 1 : 0,
        error_message: null,
        attributes: JSON.stringify({ 'http.route': `/r${i % 50}`, tier: i % 3 ? 'free' : 'gold' }),
        events: '[]',
      });
      if (batch.length === 500) {
        await spans.insertNew(batch as never);
        batch = [];
      }
    }
    if (batch.length) await spans.insertNew(batch as never);
    await sql`analyze`.execute(db.k);
    console.log(`seeded ${SPANS.toLocaleString()} spans in ${((performance.now() - t1) / 1000).toFixed(1)} s`);

    const red = redRepo(db);
    for (const range of ['24h', '7d', '30d'] as MetricRange[]) {
      const times: number[] = [];
      for (let run = 0; run < 3; run++) {
        const w = metricWindow(range, now);
        const s = performance.now();
        const [cur, prev] = await Promise.all([
          red.buckets({ companyId: COMPANY, fromMs: w.fromMs, toMs: w.toMs }, w.bucketMs),
          red.buckets({ companyId: COMPANY, fromMs: w.previousFromMs, toMs: w.fromMs }, w.bucketMs),
          red.endpoints({ companyId: COMPANY, fromMs: w.fromMs, toMs: w.toMs }, w.bucketMs, 1000),
        ]);
        for (const b of [...cur.values(), ...prev.values()]) for (const q of [0.5, 0.95, 0.99]) b.sketch.quantile(q);
        times.push(performance.now() - s);
      }
      console.log(
        `metrics series ${range} (${db.kind}): best ${Math.min(...times).toFixed(0)} ms, worst ${Math.max(...times).toFixed(0)} ms (target 1000 ms for 30d)`,
      );
    }
    const fromUs = (now - 86_400_000) * 1000;
    const toUs = now * 1000;
    const filters: Array<[string, Record<string, unknown>]> = [
      ['company', {}],
      ['service', { service: 'svc3' }],
      ['errors', { errorsOnly: true }],
      ['min 2900 ms', { minDurationMs: 2900 }],
      ['attr tier=gold', { attr: { key: 'tier', value: 'gold' } }],
      ['every company', { companyId: null }],
    ];
    for (const [name, f] of filters) {
      const times: number[] = [];
      for (let run = 0; run < 50; run++) {
        const s = performance.now();
        const page = await spans.findRequests({ companyId: COMPANY, fromUs, toUs, limit: 51, ...f });
        await spans.spanCounts(
          COMPANY,
          page.map((r) => r.trace_id),
        );
        times.push(performance.now() - s);
      }
      console.log(
        `trace search ${name} (${db.kind}): p50 ${pct(times, 0.5).toFixed(1)} ms, p99 ${pct(times, 0.99).toFixed(1)} ms (target p99 200 ms)`,
      );
    }
  } finally {
    await db.close();
    cluster?.stop();
  }
}

await main();
