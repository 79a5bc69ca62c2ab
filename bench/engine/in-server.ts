// Engine benchmark, server mode (issue 18): the check engine inside the real server process
// (wired as src/server/main.ts wires it: HTTP API + pages, engine, jobs, delivery waker) with
// 50,000 http monitors at 60 s against loopback targets, while autocannon (a child process, so its
// CPU is not the server's) loads one company's public status page whose monitors the engine checks.
//
// Steady state: monitors are seeded as already checked once, their next checks spread evenly over
// one interval (what the scheduler reaches after each monitor's first check, result-writer.ts
// phaseOffsetMs). New monitors created all at once would instead all be due at once: a first-minute
// herd this mode does not measure. A warm-up (default one interval) lets every monitor create its
// hour's rollup rows and the JIT settle; figures cover the measured window after it.
//
// Missed slot (from the stored results): over the measured window [T0, T1], each monitor's checks
// (check_results.checked_at, the time a check started) with T0 and T1 as edges; a gap g longer than
// interval + 1 s holds ceil((g - 1 s) / interval) - 1 missed slots: a slot whose check did not start
// within interval + 1 s of the previous one. Checks the compaction job has moved meanwhile are read
// back from their chunks. The scheduler's own count (checks that started more
// than an interval late) is printed beside it.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Insertable } from 'kysely';
import { parseConfig } from '../../src/server/config.ts';
import type { MonitorsTable } from '../../src/server/db/schema/monitoring.ts';
import { withTransaction } from '../../src/server/db/scope.ts';
import { newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { decodeChecks } from '../../src/lib/check-chunk.ts';
import { HOUR_MS } from '../../src/lib/timeline.ts';
import { startEngine } from '../../src/server/engine/index.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { startDeliveryWaker } from '../../src/server/jobs/alert-delivery.ts';
import { startJobs } from '../../src/server/jobs/runner.ts';
import { createPageServices, createServices } from '../../src/server/services.ts';
import type { Services } from '../../src/server/domain/context.ts';
import { createDatabase, freePort, startPgCluster } from '../../tests/support/pg-cluster.ts';
import { rawRequest } from '../../tests/support/test-app.ts';
import { seedBenchCompanies } from './seed-companies.ts';
import { loadPage, type PageLoadGenerator } from './page-load.ts';
import { startCpuProfile } from './cpu-profile.ts';

export interface ServerBenchOptions {
  monitors: number;
  interval: number;
  seconds: number;
  warmup: number;
  pg: boolean;
  /** loopback addresses the targets listen on (127.0.0.2 …) */
  addresses: number;
  connections: number;
  /** offer the page this many requests a second (page-load.ts) instead of as many as it answers */
  pageRate?: number;
  /** what loads the page (page-load.ts) */
  pageLoad: PageLoadGenerator;
  /** write a CPU profile of the measured window here */
  cpuProfile?: string;
}

const PAGE_COMPANY = 'bench';
const PAGE_MONITORS = 20;
const PER_COMPANY = 1000;
const TOLERANCE_MS = 1000;

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

export async function startTargets(addresses: number): Promise<{ proc: ChildProcess; hosts: string[] }> {
  const proc = spawn(process.execPath, [path.join(import.meta.dirname, 'target.ts'), String(addresses)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const hosts = await new Promise<string[]>((resolve) => proc.stdout!.once('data', (d: Buffer) => resolve(String(d).trim().split(' '))));
  return { proc, hosts };
}

/** Companies of 1,000 monitors; the first is the status page's, with PAGE_MONITORS public ones. */
async function seed(services: Services, o: ServerBenchOptions, hosts: string[], start: number): Promise<void> {
  const db = services.db;
  const now = Date.now();
  const intervalMs = o.interval * 1000;
  const companyIds = await seedBenchCompanies(db, Math.ceil(o.monitors / PER_COMPANY), now, (c) => (c === 0 ? PAGE_COMPANY : `bench${c}`));
  const CHUNK = 400; // ~40 columns a row: under SQLite's and PostgreSQL's bound-parameter limits
  for (let from = 0; from < o.monitors; from += CHUNK) {
    const rows: Array<Insertable<MonitorsTable>> = [];
    for (let i = from; i < Math.min(o.monitors, from + CHUNK); i++) {
      const nextDue = start + Math.floor((i / o.monitors) * intervalMs);
      // companies interleaved over the interval, as real ones are (in blocks, one company would
      // have every due check at once and wait on its own concurrency cap)
      const company = i % companyIds.length;
      const onPage = company === 0 && i < PAGE_MONITORS * companyIds.length;
      rows.push({
        ...newMonitorRow({
          id: newId(),
          company_id: companyIds[company],
          name: onPage ? `Service ${String(i / companyIds.length + 1).padStart(2, '0')}` : `bench ${i}`,
          type: 'http',
          config: JSON.stringify({
            url: `http://${hosts[i % hosts.length]}/m/${i}`,
            method: 'GET',
            accepted_status_codes: ['200-299'],
            follow_redirects: true,
          }),
          is_public: onPage,
          interval_seconds: o.interval,
          timeout_seconds: 10,
          confirmations: 2,
          next_due_at: nextDue,
          created_at: now,
        }),
        // checked once already, one interval before its next slot: the steady state
        status: 'operational' as const,
        status_since: now,
        last_checked_at: nextDue - intervalMs,
      });
    }
    await withTransaction(db, (tx) => tx.k.insertInto('monitors').values(rows).execute());
  }
}

/** Missed slots from the stored results (see the header). */
async function missedFromData(
  services: Services,
  t0: number,
  t1: number,
  intervalMs: number,
): Promise<{ missed: number; monitorsMissing: number; responseMs: number[]; stored: number }> {
  const rows = await services.db.k
    .selectFrom('check_results')
    .select(['monitor_id', 'checked_at', 'response_time_ms'])
    .where('checked_at', '>=', t0)
    .where('checked_at', '<=', t1)
    .execute();
  const byMonitor = new Map<string, Set<number>>();
  const add = (id: string, t: number) => {
    let l = byMonitor.get(id);
    if (!l) byMonitor.set(id, (l = new Set()));
    l.add(t);
  };
  for (const r of rows) add(r.monitor_id, Number(r.checked_at));
  // The compaction job (every 2 minutes, rows older than one) moves part of the window into
  // chunks before this runs: those checks are read back from the chunks.
  const chunks = await services.db.k
    .selectFrom('check_chunks as c')
    .innerJoin('monitors as m', 'm.num', 'c.monitor_num')
    .select(['m.id', 'c.data'])
    .where('c.chunk_start', '>', t0 - HOUR_MS)
    .where('c.chunk_start', '<=', t1)
    .execute();
  const responseMs = rows.map((r) => Number(r.response_time_ms ?? Number.NaN));
  for (const c of chunks) {
    for (const check of decodeChecks(c.data)) {
      if (check.checked_at < t0 || check.checked_at > t1) continue;
      add(c.id, check.checked_at);
      responseMs.push(check.response_time_ms ?? Number.NaN);
    }
  }
  const ids = await services.db.k.selectFrom('monitors').select('id').execute();
  let missed = 0;
  let monitorsMissing = 0;
  for (const { id } of ids) {
    const times = [t0, ...[...(byMonitor.get(id) ?? [])].sort((a, b) => a - b), t1];
    let own = 0;
    for (let i = 1; i < times.length; i++) {
      const gap = times[i] - times[i - 1];
      if (gap > intervalMs + TOLERANCE_MS) own += Math.ceil((gap - TOLERANCE_MS) / intervalMs) - 1;
    }
    missed += own;
    if (own > 0) monitorsMissing++;
  }
  let stored = 0;
  for (const l of byMonitor.values()) stored += l.size;
  const finite = responseMs.filter(Number.isFinite);
  return { missed, monitorsMissing, responseMs: finite.sort((a, b) => a - b), stored };
}

/** The server's settings as a bench runs it: production mode on loopback, the built pages, private targets open. */
export function benchServerConfig(dataDir: string, port: number, databaseUrl: string | undefined, extra: Record<string, string> = {}) {
  return parseConfig({
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('base64'),
    PUBLIC_SCHEME: 'http',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    DIST_DIR: process.env.DIST_DIR ?? path.resolve('dist'),
    ALLOW_PRIVATE_TARGETS: 'true',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    PORT: String(port),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...extra,
  });
}

export async function serverBench(o: ServerBenchOptions): Promise<void> {
  const targets = await startTargets(o.addresses);
  process.once('exit', () => targets.proc.kill('SIGTERM')); // also when the bench fails
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-'));
  const cluster = o.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const url = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, 'bench_engine') : undefined);
  const port = await freePort();
  const config = benchServerConfig(dataDir, port, url);
  const services = await createServices(config);
  const seedStart = performance.now();
  const firstDue = Date.now() + 5_000;
  await seed(services, o, targets.hosts, firstDue);
  const seedSeconds = (performance.now() - seedStart) / 1000;

  // The server process as main.ts starts it.
  const log = (m: string) => process.stderr.write(`server: ${m}\n`);
  const app = await buildApp({ services, pages: createPageServices(services), withPages: true, logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  const engine = startEngine(services, { log });
  startJobs(services, { log });
  startDeliveryWaker(services, { log });

  const host = `${PAGE_COMPANY}.localhost:${port}`;
  const pageUrl = `http://127.0.0.1:${port}/`;
  const page = await rawRequest(pageUrl, 'GET', { host });
  if (page.status !== 200) throw new Error(`status page answered ${page.status}`);
  process.stdout.write(
    `seeded ${o.monitors} monitors in ${fmt(seedSeconds)} s; warming up ${o.warmup} s on ${services.db.kind} (targets on ${targets.hosts.length} loopback addresses)...\n`,
  );
  await sleep(o.warmup * 1000);

  const profiler = await startCpuProfile(o.cpuProfile);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const checks0 = engine.stats.checks;
  const started0 = engine.stats.started;
  const missed0 = engine.stats.missedSlots;
  engine.stats.lagMs.length = 0;
  const cpu0 = process.cpuUsage();
  let rssMax = 0;
  const rssTimer = setInterval(() => (rssMax = Math.max(rssMax, process.memoryUsage().rss)), 250);
  const t0 = Date.now();
  const wall0 = performance.now();
  // --connections 0: the engine alone, to tell its own cost from the page load's
  const idle = async () => {
    await sleep(o.seconds * 1000);
    return { rps: 0, p99: 0, errors: 0, non2xx: 0 };
  };
  const web = o.connections > 0 ? await loadPage(pageUrl, host, o.seconds, o.connections, o.pageRate, o.pageLoad) : await idle();
  const wall = (performance.now() - wall0) / 1000;
  const t1 = Date.now();
  const cpu = process.cpuUsage(cpu0);
  clearInterval(rssTimer);
  loop.disable();
  const lags = [...engine.stats.lagMs].sort((a, b) => a - b);
  const checks = engine.stats.checks - checks0;
  const started = engine.stats.started - started0;
  const schedulerMissed = engine.stats.missedSlots - missed0;
  await profiler.stop();
  const load = os.loadavg();
  await engine.flush();
  const data = await missedFromData(services, t0, t1 - 2_000, o.interval * 1000);

  const lines = [
    `engine in the server process: ${o.monitors} http monitors at ${o.interval} s, ${services.db.kind}, ${fmt(wall, 0)} s measured after ${o.warmup} s warm-up (steady state: seeded spread over the interval)`,
    `load average ${load.map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores (shared machine)`,
    `checks/s            ${fmt(data.stored / ((t1 - 2_000 - t0) / 1000))} stored (checks that began in the window, from the results), ${fmt(started / wall)} begun, ${fmt(checks / wall)} committed   (target: ${fmt(o.monitors / o.interval)} = ${o.monitors} monitors / ${o.interval} s)`,
    `scheduling lag p50  ${fmt(pct(lags, 50), 2)} ms, p99 ${fmt(pct(lags, 99), 2)} ms, max ${fmt(lags.at(-1) ?? Number.NaN, 0)} ms   (target: p99 <= 50 ms)`,
    `checks late > 1 s   ${lags.filter((l) => l > 1000).length} of ${lags.length}`,
    `response time       p50 ${fmt(pct(data.responseMs, 50))} ms, p99 ${fmt(pct(data.responseMs, 99))} ms (as the checks timed the loopback targets)`,
    `missed slots        ${data.missed} (${data.monitorsMissing} monitors; from stored results, gap > interval + 1 s)   scheduler: ${schedulerMissed}   (target: 0)`,
    `status page         ${fmt(web.rps, 0)} req/s, p99 ${web.p99} ms, errors ${web.errors + web.non2xx}   (target: >= 5,000 req/s; ${o.connections} connections${o.pageRate ? `, offered ${o.pageRate}/s` : ''}, ${o.pageLoad} in its own process)`,
    `event-loop delay    p99 ${fmt(loop.percentile(99) / 1e6, 2)} ms, max ${fmt(loop.max / 1e6, 0)} ms`,
    `CPU (server)        ${fmt(((cpu.user + cpu.system) / 1e6 / wall) * 100)} % of one core (user ${fmt(cpu.user / 1e6)} s, system ${fmt(cpu.system / 1e6)} s)`,
    `CPU per check       ${fmt((cpu.user + cpu.system) / 1000 / Math.max(1, checks), 3)} ms of server CPU${o.connections > 0 ? ' (page load included)' : ' (engine alone)'}`,
    `RSS max (server)    ${fmt(rssMax / 1048576)} MiB`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  await app.close();
  for (const hook of services.onShutdown ?? []) await hook();
  await services.db.close();
  targets.proc.kill('SIGTERM');
  cluster?.stop();
}
