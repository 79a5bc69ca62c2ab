// The API intelligence inventory at scale, straight on the database (no HTTP): one company with
// --spans (default 5 M) HTTP server spans over --days (default 30) of 10 services and 50
// operations, rolled up by the span writer's own code (endpoint-rollups.ts, then
// endpointsRepo.add, an hour of spans at a time) without storing the raw spans, which the
// inventory never reads. Prints the inventory's time per range (the domain call the handler
// makes: current and previous window, first sightings, percentiles) next to the 500 ms target.
// --pg (a throwaway cluster) or BENCH_DATABASE_URL=postgres://... runs on PostgreSQL.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDb } from '../../src/server/db/connect.ts';
import { parseConfig } from '../../src/server/config.ts';
import { createServices } from '../../src/server/services.ts';
import { withTransaction } from '../../src/server/db/scope.ts';
import { endpointsRepo } from '../../src/server/db/repositories/endpoints-repo.ts';
import { endpointRollupsOf, type EndpointSpan } from '../../src/server/telemetry/endpoint-rollups.ts';
import { getApiIntelligence } from '../../src/server/domain/telemetry/api-intelligence.ts';
import type { Ctx } from '../../src/server/domain/context.ts';
import type { MetricRange } from '../../src/lib/metric-buckets.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '30' },
    spans: { type: 'string', default: '5000000' },
    runs: { type: 'string', default: '5' },
    pg: { type: 'boolean', default: false },
  },
});
const DAYS = Number(values.days);
const SPANS = Number(values.spans);
const RUNS = Number(values.runs);
const OPS = 50;
const HOUR = 3_600_000;
const TARGET_MS = 500;

/** Operation o's request attributes: half named by http.route, half by paths with ids. */
function attributesOf(o: number, i: number): string {
  const method = ['GET', 'GET', 'POST', 'PUT', 'DELETE'][o % 5];
  return o % 2
    ? JSON.stringify({ 'http.request.method': method, 'http.route': `/api/v1/resource${o}/:id`, 'http.response.status_code': 200 })
    : JSON.stringify({
        'http.request.method': method,
        'url.path': `/api/v1/resource${o}/${i % 100_000}/items`,
        'http.response.status_code': 200,
      });
}

async function main() {
  const cluster = values.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const url = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, 'bench_api_intelligence') : undefined);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-ai-'));
  const db = url ? openDb({ kind: 'postgres', url }) : openDb({ kind: 'sqlite', file: path.join(dir, 'db.sqlite') });
  const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', ...(url ? { DATABASE_URL: url } : {}) });
  const now = Date.now();
  const services = await createServices(config, { db, now: () => now });
  try {
    const company = 'bench-co';
    await db.k
      .insertInto('companies')
      .values({
        id: company,
        name: 'Bench Co',
        email: 'b@bench.test',
        subdomain: 'bench',
        slug: 'bench',
        created_at: now,
        updated_at: now,
      } as never)
      .execute();
    const first = now - DAYS * 24 * HOUR;
    const perMs = SPANS / (now - first);
    const t0 = performance.now();
    let sent = 0;
    for (let h = first - (first % HOUR); h < now; h += HOUR) {
      const from = Math.max(h, first);
      const to = Math.min(h + HOUR, now);
      const n = Math.round((to - first) * perMs) - sent;
      const spans: EndpointSpan[] = [];
      for (let j = 0; j < n; j++) {
        const i = sent + j;
        const o = (i * 7) % OPS;
        const status = i % 50 === 0 ? 503 : i % 20 === 0 ? 404 : 200;
        spans.push({
          service: `svc${o % 10}`,
          start_us: Math.floor(from + ((to - from) * j) / n) * 1000,
          // 5-2000 ms, spread log-uniformly, slower for some operations
          duration_ms: 5 * Math.exp((((i * 7919) % 1000) / 1000) * Math.log(400)) * (1 + (o % 4)),
          is_error: status >= 500,
          is_request: true,
          http_status: status,
          attributes: attributesOf(o, i),
        });
      }
      sent += n;
      const rows = endpointRollupsOf(company, spans);
      await withTransaction(db, (tx) => endpointsRepo(tx).add(rows));
    }
    if (db.kind === 'postgres') await sql`analyze`.execute(db.k);
    const counted = await db.k.selectFrom('endpoint_rollups').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    console.log(
      `seeded ${sent.toLocaleString()} spans (${db.kind}) as ${Number(counted.n).toLocaleString()} minute rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const actor = {
      userId: 'u',
      email: 'a@bench.test',
      fullName: 'Bench',
      userType: 2,
      role: 'customer_admin',
      companyId: company,
      sessionId: 's',
      iat: 0,
      exp: 0,
    };
    const ctx = { services, actor, host: 'bench.localhost', ip: '127.0.0.1', userAgent: 'bench' } as unknown as Ctx;
    const superCtx = { ...ctx, actor: { ...actor, userType: 1, role: 'super_admin', companyId: null } } as unknown as Ctx;
    for (const [who, c] of [
      ['company', ctx],
      ['super admin, every company', superCtx],
    ] as const) {
      for (const range of ['1h', '24h', '7d', '30d'] as MetricRange[]) {
        const times: number[] = [];
        let endpoints = 0;
        let requests = 0;
        for (let run = 0; run < RUNS; run++) {
          const s = performance.now();
          const inv = await getApiIntelligence(c, { range });
          times.push(performance.now() - s);
          endpoints = inv.endpoints.length;
          requests = inv.endpoints.reduce((x, e) => x + e.requests, 0);
        }
        times.sort((a, b) => a - b);
        console.log(
          `inventory ${range} (${who}, ${db.kind}): ${endpoints} endpoints, ${requests.toLocaleString()} requests; best ${times[0].toFixed(0)} ms, median ${times[Math.floor(times.length / 2)].toFixed(0)} ms, worst ${times[times.length - 1].toFixed(0)} ms (target ${TARGET_MS} ms)`,
        );
      }
    }
  } finally {
    await db.close();
    cluster?.stop();
  }
}

await main();
