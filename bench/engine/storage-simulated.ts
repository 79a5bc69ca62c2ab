// Storage benchmark, SIMULATED mode (`npm run bench:storage -- --simulated`; issue 18): bytes on
// disk per check after a simulated day, from made-up latencies, not real checks. 1,000 monitors
// checked every 60 s for 24 hours (1.44 M checks) with varied latencies, phase timings, codes and
// occasional errors (one monitor in fifty flaky, one in ten with a bad quarter hour) go through the engine's real result writer (rows, hourly and daily rollups,
// monitor state, incidents) on a simulated clock, with the check-compaction job run as often as
// the jobs runner runs it (its periodMs). Prints on-disk growth per check (SQLite: file + WAL
// after a checkpoint; PostgreSQL: pg_total_relation_size of every table, indexes and TOAST
// included) next to the target, with the share of each table and the chunk codec alone.
// Usage: npm run bench:storage -- --simulated [--monitors 1000 --hours 24 --pg]; with --hours 48
// it also prints what the last day alone added per check. The default mode (storage.ts) runs
// the real engine against loopback targets instead.
// On PostgreSQL a plain VACUUM of the tables every check updates runs every five simulated
// minutes, standing in for autovacuum: the simulation runs about an hour a minute, so autovacuum
// (a look every minute, a table vacuumed once a fifth of its rows are dead) could not follow,
// while in real time it would vacuum the rollups about as often (5,000 of 24,000 hourly rows
// are updated in five minutes at 1,000 monitors).
import { mkdtempSync, statSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { monitorsRepo, newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { phaseOffsetMs, writeBatch, type PendingResult } from '../../src/server/engine/result-writer.ts';
import { checkCompaction } from '../../src/server/jobs/check-compaction.ts';
import { createServices } from '../../src/server/services.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';
import { seededRandom } from '../../src/lib/seeded-random.ts';
import { seedBenchCompanies } from './seed-companies.ts';

export interface SimulatedOptions {
  monitors: number;
  hours: number;
  companies: number;
  pg: boolean;
}
const MIN = 60_000;
const BATCH = 200; // the engine's flushSize
const T0 = Date.UTC(2026, 10, 24, 0, 0, 0);
/** Minutes between check-compaction runs, as the jobs runner runs it */
const COMPACT_EVERY = checkCompaction.periodMs / MIN;
/** Tables every check updates (PostgreSQL leaves their old row versions until a vacuum). */
const CHURNED = ['monitors', 'monitor_rollups_hourly', 'monitor_rollups_daily', 'check_results', 'check_chunks'];

const r = seededRandom(2026);
const gauss = () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const round = (ms: number) => Math.round(ms * 100) / 100;

/** A monitored site: its own typical timings and habits. */
interface Site {
  id: string;
  companyId: string;
  dns: number;
  connect: number;
  tls: number;
  server: number;
  code: number;
  https: boolean;
  flaky: number;
  /** Minute of the day its bad quarter hour starts (one monitor in ten has one), or -1 */
  badAt: number;
  cert: number | null;
}

function site(id: string, companyId: string, i: number): Site {
  const https = i % 5 !== 0;
  return {
    id,
    companyId,
    dns: 0.5 + Math.exp(gauss()) * 2,
    connect: 3 + Math.exp(gauss() * 0.8) * 15,
    tls: https ? 8 + Math.exp(gauss() * 0.8) * 25 : 0,
    server: 20 + Math.exp(gauss()) * 80,
    code: i % 23 === 0 ? 204 : i % 31 === 0 ? 301 : 200,
    https,
    flaky: i % 50 === 0 ? 0.05 : 0.002,
    badAt: i % 10 === 0 ? (i * 37) % 1440 : -1,
    cert: https ? T0 + (20 + (i % 70)) * 86_400_000 : null,
  };
}

/**
 * One check: DNS mostly answered from a cache (small, noisy), connect and TLS bound by the round
 * trip (a few per cent of jitter), the server's time varying most (15 %, and now and then several
 * times slower), the body read in about a millisecond.
 */
function outcome(s: Site, minute: number): PendingResult['outcome'] {
  const jitter = (sigma = 0.15) => Math.exp(gauss() * sigma);
  // One monitor in ten has a bad quarter hour in the day: slow, and half its checks fail.
  const incident = s.badAt >= 0 && minute % 1440 >= s.badAt && minute % 1440 < s.badAt + 15;
  if (r() < s.flaky || (incident && r() < 0.5)) {
    const dns = round(s.dns * jitter());
    return r() < 0.5
      ? {
          status: 'down',
          responseTimeMs: null,
          httpCode: null,
          error: 'Timed out after 10000 ms',
          timings: { dns, total: 10_000 },
          certExpiresAt: null,
        }
      : { status: 'down', responseTimeMs: null, httpCode: 503, error: 'HTTP 503 Service Unavailable', timings: null, certExpiresAt: null };
  }
  const dns = round(s.dns * jitter(0.3));
  const connect = round(s.connect * jitter(0.04));
  const tls = s.https ? round(s.tls * jitter(0.05)) : undefined;
  const slow = incident || r() < 0.01 ? 3 + r() * 5 : 1;
  const ttfb = round(dns + connect + (tls ?? 0) + s.server * jitter() * slow);
  const total = round(ttfb + 0.3 + Math.exp(gauss() * 0.5) * 0.5);
  const degraded = total > 2000;
  return {
    status: degraded ? 'degraded' : 'operational',
    responseTimeMs: total,
    httpCode: s.code,
    error: degraded ? `Response took ${Math.round(total)} ms (threshold 2000 ms)` : null,
    timings: tls === undefined ? { dns, connect, ttfb, total } : { dns, connect, tls, ttfb, total },
    certExpiresAt: s.cert,
  };
}

export async function simulatedDay(opts: SimulatedOptions): Promise<void> {
  const { monitors: MONITORS, hours: HOURS, companies: COMPANIES } = opts;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-storage-'));
  const cluster = opts.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const url = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, 'bench_storage') : undefined);
  const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) });
  const db = url ? openDb({ kind: 'postgres', url, max: 4 }) : openDb({ kind: 'sqlite', file: config.sqlitePath });
  let clock = T0 - MIN;
  const services = await createServices(config, { db, now: () => clock });

  const sites: Site[] = [];
  const companies = await seedBenchCompanies(db, COMPANIES, clock);
  for (let i = 0; i < MONITORS; i++) {
    const id = newId();
    await monitorsRepo(db).insert(
      newMonitorRow({
        id,
        company_id: companies[i % COMPANIES],
        name: `bench ${i}`,
        type: 'http',
        config: JSON.stringify({ url: `https://site${i}.example.com/health`, method: 'GET' }),
        is_public: i % 2 === 1,
        interval_seconds: 60,
        timeout_seconds: 10,
        confirmations: 2,
        next_due_at: T0 + 400 * 86_400_000, // never due: this bench writes the results itself
        created_at: clock,
      }),
    );
    sites.push(site(id, companies[i % COMPANIES], i));
  }

  const tables = async (): Promise<Map<string, number>> => {
    if (db.kind === 'sqlite') {
      const rows = await sql<{ name: string; n: number }>`select name, sum(pgsize) as n from dbstat group by name`.execute(db.k);
      return new Map(rows.rows.map((x) => [x.name, Number(x.n)]));
    }
    const rows = await sql<{
      name: string;
      n: number;
    }>`select c.relname as name, pg_total_relation_size(c.oid) as n from pg_class c join pg_namespace s on s.oid = c.relnamespace
       where s.nspname = 'public' and c.relkind in ('r', 'p')`.execute(db.k);
    return new Map(rows.rows.map((x) => [x.name, Number(x.n)]));
  };
  const onDisk = async (): Promise<number> => {
    if (db.kind === 'sqlite') {
      await sql`pragma wal_checkpoint(truncate)`.execute(db.k);
      const f = config.sqlitePath;
      return statSync(f).size + (existsSync(`${f}-wal`) ? statSync(`${f}-wal`).size : 0);
    }
    return [...(await tables()).values()].reduce((a, b) => a + b, 0);
  };
  if (db.kind === 'postgres') await sql`vacuum`.execute(db.k);
  const disk0 = await onDisk();
  const tables0 = await tables();

  const offsets = sites.map((s) => phaseOffsetMs(s.id, 60_000));
  const order = sites.map((_, i) => i).sort((a, b) => offsets[a] - offsets[b]);
  const started = performance.now();
  let checks = 0;
  /** With --hours 48 or more: the database and checks as the last simulated day began */
  let dayBefore: { disk: number; checks: number } | null = null;
  let pending: PendingResult[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await writeBatch(services.db, pending, clock, services.monitorIncidents!);
    checks += pending.length;
    pending = [];
  };
  for (let minute = 0; minute < HOURS * 60; minute++) {
    const slot = T0 + minute * MIN;
    for (const i of order) {
      const checkedAt = slot + offsets[i] + Math.floor(r() * 30);
      clock = checkedAt + 50;
      pending.push({
        monitorId: sites[i].id,
        companyId: sites[i].companyId,
        checkedAt,
        leaseOwner: null,
        outcome: outcome(sites[i], minute),
      });
      if (pending.length >= BATCH) await flush();
    }
    await flush();
    clock = slot + MIN;
    if (minute % COMPACT_EVERY === COMPACT_EVERY - 1) await checkCompaction.run(services, clock);
    if (minute % 5 === 4 && db.kind === 'postgres') await sql`vacuum ${sql.raw(CHURNED.join(', '))}`.execute(db.k);
    if (minute === HOURS * 60 - 1 - 1440 && HOURS >= 48) {
      if (db.kind === 'postgres') await sql`vacuum`.execute(db.k);
      dayBefore = { disk: await onDisk(), checks };
    }
    if (minute % 60 === 59) {
      const rate = checks / ((performance.now() - started) / 1000);
      process.stdout.write(`  simulated hour ${(minute + 1) / 60} of ${HOURS}: ${checks} checks (${rate.toFixed(0)}/s)\n`);
    }
  }
  if (db.kind === 'postgres') await sql`vacuum`.execute(db.k);
  const disk1 = await onDisk();
  const tables1 = await tables();
  const codec = await sql<{
    bytes: number;
    checks: number;
    chunks: number;
  }>`select sum(length(data)) as bytes, sum(checks) as checks, count(*) as chunks from check_chunks`.execute(db.k);
  const c = codec.rows[0];
  const hourly = (
    await sql<{
      bytes: number;
      rows: number;
    }>`select avg(length(data)) as bytes, count(*) as rows from monitor_rollups_hourly`.execute(db.k)
  ).rows[0];

  const perCheck = (b: number) => (b / Math.max(1, checks)).toFixed(2);
  const growth = [...tables1].map(([name, n]) => [name, n - (tables0.get(name) ?? 0)] as const).filter(([, n]) => Math.abs(n) >= 4096);
  growth.sort((a, b) => b[1] - a[1]);
  const lines = [
    `storage benchmark, SIMULATED day (made-up latencies, not real checks): ${MONITORS} monitors at 60 s for ${HOURS} h = ${checks} checks through the result writer, ${db.kind}`,
    `bytes per check      ${perCheck(disk1 - disk0)}   (target <= 16; on-disk growth ${((disk1 - disk0) / 1048576).toFixed(1)} MiB${db.kind === 'sqlite' ? ', file + WAL after a checkpoint' : ', every table with indexes and TOAST'})`,
    ...(dayBefore
      ? [
          `last day alone      ${((disk1 - dayBefore.disk) / (checks - dayBefore.checks)).toFixed(2)}   (growth per check of the last 24 simulated hours: what each further day adds once the recent rows, monitor states and open rollups have their room)`,
        ]
      : []),
    `chunk codec alone    ${(Number(c.bytes) / Math.max(1, Number(c.checks))).toFixed(2)} bytes per check (${Number(c.chunks)} chunks, ${Number(c.checks)} checks; the rest stays rows until the next compaction)`,
    `hourly rollups       ${Number(hourly.rows)} rows; latency figures ${Number(hourly.bytes).toFixed(0)} bytes a row (src/lib/rollup-detail.ts)`,
    ...growth.map(([name, n]) => `  ${name.padEnd(40)} ${perCheck(n).padStart(7)} bytes/check`),
    `wall ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await services.db.close();
  cluster?.stop();
}
