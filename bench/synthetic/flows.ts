// API flows of bench/synthetic (issue 29 targets): what one 5-step flow against the loopback shop
// costs (CPU per flow through the engine's runChecker, wall time), and the real engine running
// --flow-monitors (1,000) api_flow monitors at --interval (60 s) on an SQLite file (--pg:
// PostgreSQL): scheduling lag p99 (target <= 50 ms) and the checks a second it kept up.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorsRepo, newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { runChecker } from '../../src/server/engine/checkers/run.ts';
import { type CheckEnv, DEFAULT_LIMITS } from '../../src/server/engine/checkers/types.ts';
import { KINDS } from '../../src/server/engine/kinds/index.ts';
import { createEngine } from '../../src/server/engine/scheduler.ts';
import { dnsResolver } from '../../src/server/net/dns-lookup.ts';
import { shopFlow } from '../../tests/support/kind-servers/shop-flows.ts';
import { benchServices } from '../engine/bench-services.ts';
import { seedBenchCompanies } from '../engine/seed-companies.ts';

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
export const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The flow's steps against the shop at `port`, validated as a monitor's config would be. */
function flowConfig(port: number) {
  const steps = shopFlow((p) => `http://127.0.0.1:${port}${p}`);
  const { config, problems } = KINDS.api_flow.validate((k) => ({ steps })[k as 'steps'] as never, { allowPrivate: true });
  if (Object.keys(problems).length) throw new Error(`bench flow invalid: ${JSON.stringify(problems)}`);
  return { config, steps: steps.length };
}

export async function flowCost(port: number, runs: number, concurrency: number): Promise<string[]> {
  const { config, steps } = flowConfig(port);
  const env: CheckEnv = {
    now: () => Date.now(),
    allowPrivateTargets: true,
    resolve: dnsResolver(),
    limits: DEFAULT_LIMITS,
    secrets: async () => ({}),
  };
  const target = {
    id: 'bench-flow',
    type: 'api_flow' as const,
    config,
    timeoutMs: 10_000,
    lastPushAt: null,
    intervalMs: 60_000,
    createdAt: Date.now(),
  };
  const statuses: Record<string, number> = {};
  let firstError: string | null = null;
  const walls: number[] = [];
  const run = async (n: number, count: boolean) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < n) {
          next++;
          const t0 = performance.now();
          const o = await runChecker(KINDS.api_flow.check as never, target, env, new AbortController(), (e) => {
            firstError ??= `bug: ${e.message}`;
          });
          if (!count) continue;
          walls.push(performance.now() - t0);
          statuses[o.status] = (statuses[o.status] ?? 0) + 1;
          if (o.status !== 'operational') firstError ??= o.error;
        }
      }),
    );
  };
  await run(Math.min(50, runs), false);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run(runs, true);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return [
    `api_flow cost: ${runs} runs of a ${steps}-step flow against the loopback shop (another process), ${concurrency} at a time; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    `  CPU per flow        ${fmt(cpuMs / runs, 2)} ms (${fmt(cpuMs / runs / steps, 2)} ms a step)`,
    `  wall per flow       p50 ${fmt(pct(walls, 50))} ms, p99 ${fmt(pct(walls, 99))} ms; ${fmt(runs / wall)} flows/s`,
    `  statuses            ${Object.entries(statuses)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ')}${firstError ? `; first error: ${firstError}` : ''}`,
  ];
}

export async function flowEngine(port: number, o: { monitors: number; interval: number; seconds: number; pg: boolean }): Promise<string[]> {
  const { config } = flowConfig(port);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-synthetic-'));
  const { cluster, db, services } = await benchServices({ pg: o.pg, dataDir, dbName: 'bench_synthetic' });
  const now = Date.now();
  const companies = await seedBenchCompanies(db, 10, now);
  const repo = monitorsRepo(db);
  for (let i = 0; i < o.monitors; i++)
    await repo.insert(
      newMonitorRow({
        id: newId(),
        company_id: companies[i % companies.length],
        name: `bench flow ${i}`,
        type: 'api_flow',
        config: JSON.stringify(config),
        is_public: false,
        interval_seconds: o.interval,
        timeout_seconds: 10,
        confirmations: 2,
        next_due_at: now + Math.floor((i / o.monitors) * o.interval * 1000),
        created_at: now,
      }),
    );
  const engine = createEngine(services, {});
  engine.start();
  process.stdout.write(`api_flow engine: ${o.monitors} monitors at ${o.interval} s on ${db.kind}; warming up ${o.interval} s...\n`);
  await sleep(o.interval * 1000);
  const checks0 = engine.stats.checks;
  engine.stats.lagMs.length = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await sleep(o.seconds * 1000);
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const lags = [...engine.stats.lagMs];
  const checks = engine.stats.checks - checks0;
  const down = await db.k.selectFrom('monitors').select('id').where('type', '=', 'api_flow').where('status', '!=', 'operational').execute();
  await engine.stop();
  await services.db.close();
  cluster?.stop();
  return [
    `api_flow engine: ${o.monitors} api_flow monitors (5 steps each) at ${o.interval} s, ${db.kind}, ${o.seconds} s measured after ${o.interval} s warm-up; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    `  flows/s             ${fmt(checks / wall)}   (expected ${fmt(o.monitors / o.interval)}; ${fmt((checks / wall) * 5)} requests/s)`,
    `  scheduling lag      p50 ${fmt(pct(lags, 50))} ms, p99 ${fmt(pct(lags, 99))} ms   (target: p99 <= 50 ms)`,
    `  CPU                 ${fmt(((cpu.user + cpu.system) / 1e6 / wall) * 100)} % of one core in this process (engine, flows, stores)`,
    `  not operational     ${down.length} of ${o.monitors} at the end`,
  ];
}
