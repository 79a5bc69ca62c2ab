// Engine benchmark (DESIGN.md section 5): many HTTP monitors against a loopback target, with the
// minimum interval lowered so 1,000 monitors at 6 s load the engine like 10,000 at 60 s.
// Prints checks/s, scheduling lag p50/p99, event-loop delay p99, CPU, RSS and stored bytes per
// check next to the targets. Usage: npm run bench:engine [-- --monitors 1000 --interval 6 --seconds 30]
// --pg (a throwaway cluster) or BENCH_DATABASE_URL=postgres://... runs it on PostgreSQL instead of SQLite.
// --server: the engine inside the real server process at 50,000 monitors / 60 s while autocannon
// loads a status page (in-server.ts; needs the pages built, DIST_DIR). Options there: --monitors,
// --interval, --seconds, --warmup (default one interval), --addresses 8, --connections 100
// (0: no page load), --page-rate N (offer N req/s instead of as many as the page answers),
// --cpu-prof FILE (a profile of the measured window), --page-load wrk|autocannon (what loads the
// page; wrk where installed).
import { spawn } from 'node:child_process';
import { mkdtempSync, statSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import { monitorsRepo, newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { createEngine } from '../../src/server/engine/scheduler.ts';
import { serverBench } from './in-server.ts';
import { benchServices } from './bench-services.ts';
import { seedBenchCompanies } from './seed-companies.ts';
import { pageLoadOption } from './page-load.ts';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string' },
    interval: { type: 'string' },
    seconds: { type: 'string' },
    companies: { type: 'string', default: '10' },
    pg: { type: 'boolean', default: false },
    server: { type: 'boolean', default: false },
    warmup: { type: 'string' },
    addresses: { type: 'string', default: '8' },
    connections: { type: 'string', default: '100' },
    'page-rate': { type: 'string' },
    'cpu-prof': { type: 'string' },
    // what loads the page: wrk (default where installed) or autocannon (bench/engine/page-load.ts)
    'page-load': { type: 'string' },
  },
});
const MONITORS = Number(values.monitors ?? (values.server ? 50_000 : 1000));
const INTERVAL = Number(values.interval ?? (values.server ? 60 : 6));
const SECONDS = Number(values.seconds ?? (values.server ? 60 : 30));
const COMPANIES = Number(values.companies);

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

async function main(): Promise<void> {
  const target = spawn(process.execPath, [path.join(import.meta.dirname, 'target.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [targetHost] = await new Promise<string[]>((resolve) =>
    target.stdout!.once('data', (d: Buffer) => resolve(String(d).trim().split(' '))),
  );
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-'));
  const { cluster, config, db, services } = await benchServices({ pg: values.pg, dataDir, dbName: 'bench_engine' });
  const now = Date.now();
  const companies = await seedBenchCompanies(db, COMPANIES, now);
  const repo = monitorsRepo(db);
  for (let i = 0; i < MONITORS; i++) {
    await repo.insert(
      newMonitorRow({
        id: newId(),
        company_id: companies[i % COMPANIES],
        name: `bench ${i}`,
        type: 'http',
        config: JSON.stringify({
          url: `http://${targetHost}/m/${i}`,
          method: 'GET',
          accepted_status_codes: ['200-299'],
          follow_redirects: true,
        }),
        is_public: i % 2 === 1,
        interval_seconds: INTERVAL,
        timeout_seconds: Math.min(5, INTERVAL),
        confirmations: 2,
        // Steady state: monitors already spread over their interval (as after their first check).
        next_due_at: now + Math.floor((i / MONITORS) * INTERVAL * 1000),
        created_at: now,
      }),
    );
  }
  // Baseline side by side: the same process idle, to tell machine contention from engine cost.
  const idleLoop = monitorEventLoopDelay({ resolution: 10 });
  idleLoop.enable();
  const idleLate: number[] = [];
  const baselineEnd = Date.now() + 5000;
  while (Date.now() < baselineEnd) {
    const due = Date.now() + 20;
    await new Promise((r) => setTimeout(r, 20));
    idleLate.push(Date.now() - due);
  }
  idleLoop.disable();
  const baseline = { loopP99: idleLoop.percentile(99) / 1e6, timerP99: pct(idleLate, 99), timerP50: pct(idleLate, 50) };

  const engine = createEngine(services);
  engine.start();
  process.stdout.write(`warming up ${INTERVAL * 2} s with ${MONITORS} monitors at ${INTERVAL} s on ${db.kind}...\n`);
  await new Promise((r) => setTimeout(r, INTERVAL * 2000));

  // On PostgreSQL check_results is partitioned by day (its own size is 0): its partitions are summed.
  const storedBytes = async (): Promise<number> => {
    if (db.kind === 'sqlite') {
      const f = config.sqlitePath;
      return statSync(f).size + (existsSync(`${f}-wal`) ? statSync(`${f}-wal`).size : 0);
    }
    const r = await sql<{
      n: number;
    }>`select (select sum(pg_total_relation_size(relid)) from pg_partition_tree('check_results')) + pg_total_relation_size('monitor_rollups_hourly') + pg_total_relation_size('monitor_rollups_daily') as n`.execute(
      db.k,
    );
    return Number(r.rows[0].n);
  };
  const rawBytes = async (): Promise<number | null> => {
    if (db.kind !== 'sqlite') {
      const r = await sql<{ n: number }>`select sum(pg_total_relation_size(relid)) as n from pg_partition_tree('check_results')`.execute(
        db.k,
      );
      return Number(r.rows[0].n);
    }
    try {
      const r = await sql<{
        n: number;
      }>`select sum(pgsize) as n from dbstat where name in ('check_results', 'check_results_company_time_idx', 'check_results_time_idx', 'sqlite_autoindex_check_results_1')`.execute(
        db.k,
      );
      return Number(r.rows[0].n);
    } catch {
      return null;
    }
  };

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const checks0 = engine.stats.checks;
  engine.stats.lagMs.length = 0;
  const missed0 = engine.stats.missedSlots;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const bytes0 = await storedBytes();
  const raw0 = await rawBytes();
  const rows0 = Number((await sql<{ n: number }>`select count(*) as n from check_results`.execute(db.k)).rows[0].n);
  let rssMax = 0;
  const rssTimer = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }, 250);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const checks = engine.stats.checks - checks0;
  const lags = [...engine.stats.lagMs];
  loop.disable();
  const loopP99 = loop.percentile(99) / 1e6;
  const loopMax = loop.max / 1e6;
  clearInterval(rssTimer);
  await engine.stop();
  const rows1 = Number((await sql<{ n: number }>`select count(*) as n from check_results`.execute(db.k)).rows[0].n);
  const bytes1 = await storedBytes();
  const raw1 = await rawBytes();

  const rate = checks / wall;
  const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  const lines = [
    `engine benchmark: ${MONITORS} http monitors at ${INTERVAL} s, ${COMPANIES} companies, ${db.kind}, ${SECONDS} s measured`,
    `checks/s            ${fmt(rate)}   (target: 10,000 monitors at 60 s = 166.7/s; expected here ${fmt(MONITORS / INTERVAL)})`,
    `scheduling lag p50  ${fmt(pct(lags, 50), 2)} ms   (baseline: an idle timer is ${fmt(baseline.timerP50, 2)} ms late at p50)`,
    `scheduling lag p99  ${fmt(pct(lags, 99), 2)} ms   (target <= 50 ms; baseline idle timer lateness p99 ${fmt(baseline.timerP99, 2)} ms)`,
    `event-loop delay p99 ${fmt(loopP99, 2)} ms   (baseline idle process ${fmt(baseline.loopP99, 2)} ms; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`,
    `lag > 50 ms        ${lags.filter((l) => l > 50).length} of ${lags.length} checks; event-loop delay max ${fmt(loopMax, 0)} ms`,
    `missed slots        ${engine.stats.missedSlots - missed0}   (checks that started over an interval late skip, never burst; target 0)`,
    `CPU                 ${fmt(((cpu.user + cpu.system) / 1e6 / wall) * 100)} % of one core (user ${fmt(cpu.user / 1e6)} s, system ${fmt(cpu.system / 1e6)} s)`,
    `RSS max             ${fmt(rssMax / 1048576)} MiB`,
    `stored bytes/check  ${raw0 !== null && raw1 !== null ? fmt((raw1 - raw0) / Math.max(1, rows1 - rows0), 0) : 'n/a'} (raw results + indexes); ${fmt((bytes1 - bytes0) / Math.max(1, rows1 - rows0), 0)} incl. rollups/WAL`,
    `storage bound       raw results pruned after 7/30/90 days; rollups: 24 hourly + 1 daily row per monitor per day`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  target.kill('SIGTERM');
  await services.db.close();
  cluster?.stop();
}

const run = values.server
  ? () =>
      serverBench({
        monitors: MONITORS,
        interval: INTERVAL,
        seconds: SECONDS,
        warmup: Number(values.warmup ?? INTERVAL),
        pg: values.pg,
        addresses: Number(values.addresses),
        connections: Number(values.connections),
        pageRate: values['page-rate'] ? Number(values['page-rate']) : undefined,
        cpuProfile: values['cpu-prof'],
        pageLoad: pageLoadOption(values['page-load']),
      })
  : main;
run().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
