// Monitor kinds benchmark (issue 28): what one check of each kind costs, and the engine with mixed
// kinds. Real checkers against real loopback servers (targets.ts, started in their own process by
// servers.ts so their CPU is not counted); a kind's CPU counts the child processes it runs (ping).
//   1. per kind: --checks (1,000) checks, --concurrency (10) at a time, through the engine's
//      runChecker: CPU ms per 1,000 checks beside http's, wall time, and the statuses seen (every
//      target is up, so anything else is a finding printed with its error);
//   2. mixed: --monitors (10,000) monitors at --interval (60 s), the kinds in turn, in the real
//      engine on an SQLite file (--pg: PostgreSQL): scheduling lag p99 (target <= 50 ms).
// Usage: npm run bench:kinds [-- --checks 1000 --concurrency 10 --monitors 10000 --interval 60 --seconds 60 --kinds http,tcp --no-mixed --pg]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { monitorsRepo, newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import type { MonitorType } from '../../src/server/db/schema/monitoring.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { runChecker } from '../../src/server/engine/checkers/run.ts';
import { type CheckEnv, DEFAULT_LIMITS } from '../../src/server/engine/checkers/types.ts';
import { KINDS } from '../../src/server/engine/kinds/index.ts';
import { createEngine } from '../../src/server/engine/scheduler.ts';
import { dnsResolver } from '../../src/server/net/dns-lookup.ts';
import { benchServices } from '../engine/bench-services.ts';
import { seedBenchCompanies } from '../engine/seed-companies.ts';
import type { BenchTarget } from './targets.ts';

const { values } = parseArgs({
  options: {
    checks: { type: 'string', default: '1000' },
    concurrency: { type: 'string', default: '10' },
    monitors: { type: 'string', default: '10000' },
    interval: { type: 'string', default: '60' },
    seconds: { type: 'string', default: '60' },
    kinds: { type: 'string' },
    'no-mixed': { type: 'boolean', default: false },
    pg: { type: 'boolean', default: false },
  },
});
const CHECKS = Number(values.checks);
const CONCURRENCY = Number(values.concurrency);
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};

/** CPU ms of this process's waited-for children (ping), from /proc: cutime + cstime in clock ticks. */
function childCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  // fields[0] is the state (field 3); cutime and cstime are fields 16 and 17
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

async function startServers(): Promise<{ targets: Record<string, BenchTarget | { error: string }>; stop(): void }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'servers.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += String(d);
      if (buf.includes('\n')) resolve(buf.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`bench/kinds servers exited (${code})`)));
  });
  return { targets: JSON.parse(line), stop: () => child.kill('SIGTERM') };
}

function envFor(t: BenchTarget): CheckEnv {
  return {
    now: () => Date.now(),
    allowPrivateTargets: true,
    resolve: dnsResolver(),
    dnsServers: t.dnsServers,
    extraCa: t.ca ? [t.ca] : undefined,
    rdap: t.rdap ? () => ({ url: t.rdap!, trusted: true }) : undefined,
    limits: DEFAULT_LIMITS,
  };
}

interface KindFigure {
  kind: string;
  cpuPer1000: number;
  wallS: number;
  statuses: Record<string, number>;
  firstError: string | null;
  /** this process's resident memory and open file descriptors after the kind's checks */
  rssMiB: number;
  fds: number;
}

async function measureKind(kind: MonitorType, t: BenchTarget): Promise<KindFigure> {
  const check = KINDS[kind].check;
  const env = envFor(t);
  const target = {
    id: `bench-${kind}`,
    type: kind,
    config: t.config,
    timeoutMs: 5000,
    lastPushAt: null,
    intervalMs: 60_000,
    createdAt: Date.now(),
  };
  const statuses: Record<string, number> = {};
  let firstError: string | null = null;
  const run = async (n: number, count: boolean) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < n) {
          next++;
          const o = await runChecker(check as never, target, env, new AbortController(), (e) => {
            firstError ??= `bug: ${e.message}`;
          });
          if (!count) continue;
          statuses[o.status] = (statuses[o.status] ?? 0) + 1;
          if (o.status !== 'operational') firstError ??= o.error;
        }
      }),
    );
  };
  await run(Math.min(50, CHECKS), false); // warm-up: code paths compiled, pools open
  const cpu0 = process.cpuUsage();
  const child0 = childCpuMs();
  const t0 = performance.now();
  await run(CHECKS, true);
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const ms = (cpu.user + cpu.system) / 1000 + (childCpuMs() - child0);
  const fds = readdirSync('/proc/self/fd').length;
  return { kind, cpuPer1000: (ms / CHECKS) * 1000, wallS, statuses, firstError, rssMiB: process.memoryUsage().rss / 1048576, fds };
}

async function mixed(targets: Record<string, BenchTarget>): Promise<string[]> {
  const monitors = Number(values.monitors);
  const interval = Number(values.interval);
  const seconds = Number(values.seconds);
  const kinds = Object.keys(targets) as MonitorType[];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-kinds-'));
  const { cluster, db, services } = await benchServices({ pg: values.pg, dataDir, dbName: 'bench_kinds' });
  // Domain monitors ask the loopback RDAP server (the engine reads RDAP_BASE_URLS from its settings).
  const rdap = targets.domain?.rdap;
  if (rdap) Object.assign(services.config, { rdapBaseUrls: { ...services.config.rdapBaseUrls, test: rdap } });
  const now = Date.now();
  const companies = await seedBenchCompanies(db, 10, now);
  const repo = monitorsRepo(db);
  for (let i = 0; i < monitors; i++) {
    const kind = kinds[i % kinds.length];
    await repo.insert(
      newMonitorRow({
        id: newId(),
        company_id: companies[i % companies.length],
        name: `bench ${kind} ${i}`,
        type: kind,
        config: JSON.stringify(targets[kind].config),
        is_public: false,
        interval_seconds: interval,
        timeout_seconds: 5,
        confirmations: 2,
        next_due_at: now + Math.floor((i / monitors) * interval * 1000),
        created_at: now,
      }),
    );
  }
  const extraCa = Object.values(targets).flatMap((t) => (t.ca ? [t.ca] : []));
  const engine = createEngine(services, { extraCa });
  engine.start();
  process.stdout.write(
    `mixed: ${monitors} monitors of ${kinds.length} kinds at ${interval} s on ${db.kind}; warming up ${interval} s...\n`,
  );
  await new Promise((r) => setTimeout(r, interval * 1000));
  const checks0 = engine.stats.checks;
  engine.stats.lagMs.length = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const wall = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const lags = [...engine.stats.lagMs];
  const checks = engine.stats.checks - checks0;
  await engine.stop();
  await services.db.close();
  cluster?.stop();
  return [
    `mixed: ${monitors} monitors (${kinds.join(', ')} in turn) at ${interval} s, ${db.kind}, ${seconds} s measured after ${interval} s warm-up; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    `  checks/s            ${fmt(checks / wall)}   (expected ${fmt(monitors / interval)})`,
    `  scheduling lag      p50 ${fmt(pct(lags, 50), 1)} ms, p99 ${fmt(pct(lags, 99), 1)} ms   (target: p99 <= 50 ms)`,
    `  CPU                 ${fmt(((cpu.user + cpu.system) / 1e6 / wall) * 100)} % of one core in this process (ping's children not counted here)`,
  ];
}

async function main(): Promise<void> {
  const servers = await startServers();
  const wanted = values.kinds ? new Set(values.kinds.split(',')) : null;
  const usable: Record<string, BenchTarget> = {};
  const lines: string[] = [
    `kinds benchmark: ${CHECKS} checks a kind, ${CONCURRENCY} at a time, against loopback servers in another process; load ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  ];
  const figures: KindFigure[] = [];
  try {
    for (const kind of Object.keys(KINDS) as MonitorType[]) {
      if (wanted && !wanted.has(kind)) continue;
      const t = servers.targets[kind];
      if (!t) {
        lines.push(
          `  ${kind.padEnd(10)} not measured: ${KINDS[kind].heartbeat ? 'a heartbeat kind (no check to run)' : 'no loopback target in bench/kinds/targets.ts'}`,
        );
        continue;
      }
      if ('error' in t) {
        lines.push(`  ${kind.padEnd(10)} not measured: its server did not start (${t.error})`);
        continue;
      }
      usable[kind] = t;
      const f = await measureKind(kind, t);
      figures.push(f);
      process.stdout.write(`  ${kind}: ${fmt(f.cpuPer1000, 0)} ms CPU per 1,000\n`);
    }
    const http = figures.find((f) => f.kind === 'http')?.cpuPer1000;
    for (const f of figures) {
      const seen = Object.entries(f.statuses)
        .map(([s, n]) => `${n} ${s}`)
        .join(', ');
      lines.push(
        `  ${f.kind.padEnd(10)} CPU ${fmt(f.cpuPer1000, 0).padStart(6)} ms per 1,000 checks${http ? ` (${fmt(f.cpuPer1000 / http, 2)} x http)` : ''}; ${fmt(f.wallS)} s wall; RSS after ${fmt(f.rssMiB, 0)} MiB, ${f.fds} fds; ${seen}${f.firstError ? `; first error: ${f.firstError}` : ''}`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
    if (!values['no-mixed']) process.stdout.write(`${(await mixed(usable)).join('\n')}\n`);
  } finally {
    servers.stop();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
