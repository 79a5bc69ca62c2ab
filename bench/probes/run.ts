// Probe benchmark (issue 27): real probe processes (`node src/probe/main.ts`, as `npm run probe`
// starts it) checking loopback targets for the real platform (HTTP API, pages, jobs and engine
// wired as src/server/main.ts wires them, in this process), which ingests their results.
//   --scenario one     one probe, --monitors (100,000) http monitors at --interval (60 s): the
//                      probe's scheduling lag p99 (target <= 50 ms), its memory and CPU, and
//                      what the platform stored.
//   --scenario five    five probes (locations) x --monitors/5 monitors each checked from all five
//                      (5 x 20,000 at 60 s: 1,667 results/s), while autocannon loads a status page:
//                      ingest p99 as the probes timed their deliveries (target <= 50 ms) and the
//                      page's req/s in the same run (target >= 5,000).
//   --scenario replay  the platform alone on the five probes' real calls: one interval of them
//                      recorded, then played back at their own pace by a sender process without
//                      the probes and targets on the box (labelled REPLAYED; run.ts says why).
//   --scenario detect  three probes, each with its own loopback DNS server, so a fault can hit one
//                      location: one location failing alone for four intervals (no incident, the
//                      target), then two of three (down within interval x confirmations + 5 s).
// Figures are from the probes' own run summaries (src/probe/run-figures.ts), the platform's
// stored rows and /proc. Usage: npm run bench:probes -- [--scenario one|five|replay|detect|all]
//   [--monitors N] [--interval S] [--seconds S] [--warmup S] [--pg]; pages need a build (DIST_DIR).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Insertable } from 'kysely';
import type { Services } from '../../src/server/domain/context.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { createProbeLocation } from '../../src/server/domain/probes/locations.ts';
import { createProbeToken } from '../../src/server/domain/probes/tokens.ts';
import { newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import type { MonitorsTable } from '../../src/server/db/schema/monitoring.ts';
import { withTransaction } from '../../src/server/db/scope.ts';
import { startEngine } from '../../src/server/engine/index.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { startJobs } from '../../src/server/jobs/runner.ts';
import { createPageServices, createServices } from '../../src/server/services.ts';
import { actorFor, ctxFor, seedUser } from '../../tests/support/fixtures.ts';
import { createDatabase, freePort, startPgCluster } from '../../tests/support/pg-cluster.ts';
import { startDnsZoneServer, type DnsZoneServer } from '../../tests/fixtures/targets/dns-zone-server.ts';
import { seedBenchCompanies } from '../engine/seed-companies.ts';
import { benchServerConfig, startTargets } from '../engine/in-server.ts';
import { loadPage, pageLoadOption } from '../engine/page-load.ts';
import { startCpuProfile } from '../engine/cpu-profile.ts';
import { startProbeIngest } from '../../src/server/http/probe-ingest.ts';
import { drainProbeInboxInThread } from '../../src/server/jobs/probe-drain.ts';
import { cpuLine, startCpuSplit, type Groups } from './cpu-split.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'all' },
    monitors: { type: 'string', default: '100000' },
    interval: { type: 'string', default: '60' },
    seconds: { type: 'string', default: '120' },
    warmup: { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    // the page's load offered at this many requests a second (autocannon -R) instead of as fast as
    // the 50 connections go: an open load like real visitors', which leaves the platform what it
    // does not need for them (the target is >= 5,000 req/s served)
    'page-rate': { type: 'string' },
    // what loads the page: wrk (default where installed; C, a fraction of autocannon's CPU on these
    // shared cores) or autocannon (bench/engine/page-load.ts)
    'page-load': { type: 'string' },
    // a CPU profile of the platform's main thread over the replay's measured window
    'cpu-prof': { type: 'string' },
    pg: { type: 'boolean', default: false },
    // the probes call the ingest thread's port (PROBE_INGEST_PORT), as docs/features/probe-locations.md advises; --main-port: the main one
    'main-port': { type: 'boolean', default: false },
    // PostgreSQL: store the probes' results on the main thread, as before the drain thread (jobs/probe-drain.ts)
    'drain-here': { type: 'boolean', default: false },
    // replay: the page loaded this long before its measured window (as a server that has been
    // serving it: its code compiled, its connections open, its caches filled); 0: cold, as before
    'page-warmup': { type: 'string', default: '15' },
  },
});
const INTERVAL = Number(values.interval);
const SECONDS = Number(values.seconds);
const WARMUP = Number(values.warmup);
const PAGE_RATE = values['page-rate'] ? Number(values['page-rate']) : undefined;
const PAGE_LOAD = pageLoadOption(values['page-load']);
const pageLoad = () => `${PAGE_LOAD}, ${PAGE_RATE ? `offered ${PAGE_RATE}/s` : `${values.connections} connections as fast as they go`}`;
const PROBE_MAIN = path.resolve(import.meta.dirname, '../../src/probe/main.ts');
const PAGE_COMPANY = 'bench';
const PER_COMPANY = 1000;
const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const say = (line: string) => process.stdout.write(`${line}\n`);

/** The processes of a run, for the CPU line: what is the platform's and what only the bench's. */
const CPU_GROUPS: Groups = {
  platform: (pid) => pid === process.pid,
  postgres: (_pid, cmd) => cmd.startsWith('postgres') || cmd.includes('/bin/postgres '),
  [`page load (${PAGE_LOAD})`]: (_pid, cmd) => cmd.includes('autocannon') || cmd.startsWith('wrk'),
  probes: (_pid, cmd) => cmd.includes('src/probe/main.ts'),
  'replay sender': (_pid, cmd) => cmd.includes('replay-sender.ts'),
  targets: (_pid, cmd) => cmd.includes('target.ts'),
};

interface Platform {
  services: Services;
  port: number;
  url: string;
  /** Where the probes call: the ingest thread's port, or the main one with --main-port */
  probeUrl: string;
  close(): Promise<void>;
}

async function startPlatform(tag: string): Promise<Platform> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-probes-'));
  const cluster = values.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const dbUrl = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, `bench_probes_${tag}`) : undefined);
  const port = await freePort();
  const config = benchServerConfig(dataDir, port, dbUrl, { MAX_CHECKS_PER_HOST_PER_MINUTE: '0' });
  const services = await createServices(config);
  const log = (m: string) => process.stderr.write(`server: ${m}\n`);
  const app = await buildApp({ services, pages: createPageServices(services), withPages: true, logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  startEngine(services, { log });
  startJobs(services, { log });
  // as main.ts: on PostgreSQL the results are stored by a thread of their own (--drain-here: by the main thread)
  if (!values['drain-here']) drainProbeInboxInThread(services, { log });
  const ingest = values['main-port'] ? null : await startProbeIngest(services, { port: 0, host: '127.0.0.1', log });
  return {
    services,
    port,
    // The platform answers on its product domain (and its companies' subdomains) only.
    url: `http://localhost:${port}`,
    probeUrl: `http://localhost:${ingest?.port ?? port}`,
    async close() {
      await app.close();
      for (const hook of services.onShutdown ?? []) await hook();
      await services.db.close();
      cluster?.stop();
    },
  };
}

/** Which thread stored the results (jobs/probe-drain.ts: a thread of its own on PostgreSQL unless --drain-here) */
const storedWhere = (platform: Platform) =>
  platform.services.db.kind === 'postgres' && !values['drain-here'] ? 'stored by the probe drain thread' : 'stored by the main thread';

/** Public locations made by a super admin through the domain verbs, each with a token. */
async function makeLocations(services: Services, n: number): Promise<Array<{ slug: string; token: string }>> {
  const root = ctxFor(services, actorFor(await seedUser(services, { userType: 1 })));
  const out: Array<{ slug: string; token: string }> = [];
  for (let i = 1; i <= n; i++) {
    const slug = `bench-${i}`;
    const loc = await createProbeLocation(root, { name: `Bench ${i}`, slug, private: false });
    const tok = await createProbeToken(root, loc.id, { name: `probe ${i}` });
    out.push({ slug, token: tok.token });
  }
  return out;
}

/** Monitors checked from `locations` only (not the built-in engine), in companies of 1,000. */
async function seedMonitors(
  services: Services,
  n: number,
  urlOf: (i: number) => string,
  locations: string[],
  over: Partial<Insertable<MonitorsTable>> = {},
) {
  const now = Date.now();
  const companyIds = await seedBenchCompanies(services.db, Math.ceil(n / PER_COMPANY), now, (c) => (c === 0 ? PAGE_COMPANY : `bench${c}`));
  const ids: string[] = [];
  for (let from = 0; from < n; from += 400) {
    const rows: Array<Insertable<MonitorsTable>> = [];
    for (let i = from; i < Math.min(n, from + 400); i++) {
      const id = newId();
      ids.push(id);
      const company = i % companyIds.length;
      const onPage = company === 0 && i < 20 * companyIds.length;
      rows.push({
        ...newMonitorRow({
          id,
          company_id: companyIds[company],
          name: onPage ? `Service ${i}` : `bench ${i}`,
          type: 'http',
          config: JSON.stringify({ url: urlOf(i), method: 'GET', accepted_status_codes: ['200-299'], follow_redirects: true }),
          is_public: onPage,
          interval_seconds: INTERVAL,
          timeout_seconds: 10,
          confirmations: 2,
          next_due_at: now + 3_600_000,
          created_at: now,
        }),
        locations: JSON.stringify(locations),
        run_local: false,
        ...over,
      });
    }
    await withTransaction(services.db, (tx) => tx.k.insertInto('monitors').values(rows).execute());
  }
  return ids;
}

interface Probe {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  rssMaxKb: number;
  stop(): Promise<void>;
  cpuSeconds(): number;
}

function startProbe(platformUrl: string, token: string, name: string, env: Record<string, string> = {}): Probe {
  const child = spawn(process.execPath, [PROBE_MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      PROBE_URL: platformUrl,
      PROBE_TOKEN: token,
      PROBE_INSTANCE: name,
      PROBE_BUFFER_DIR: mkdtempSync(path.join(os.tmpdir(), `sw-probe-${name}-`)),
      ALLOW_PRIVATE_TARGETS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const take = (d: Buffer) => lines.push(...String(d).split('\n').filter(Boolean));
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  const p: Probe = {
    child,
    lines,
    exited,
    rssMaxKb: 0,
    async stop() {
      clearInterval(timer);
      child.kill('SIGTERM');
      await exited;
    },
    cpuSeconds() {
      try {
        const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (USER_HZ, 100 on Linux)
      } catch {
        return Number.NaN;
      }
    },
  };
  const timer = setInterval(() => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) p.rssMaxKb = Math.max(p.rssMaxKb, Number(m[1]));
    } catch {
      // exited
    }
  }, 500);
  return p;
}

/** The probe's run summary (logged at stop): "run N s: C checks (R/s), lag p50 A ms p99 B ms max M ms; D results delivered in K calls, p50 E ms p99 F ms max G ms" */
function runSummary(p: Probe) {
  const line = p.lines.find((l) => l.includes(' run ') && l.includes('lag p50')) ?? '';
  const n = (re: RegExp) => Number(re.exec(line)?.[1] ?? Number.NaN);
  return {
    line,
    checks: n(/: (\d+) checks/),
    rate: n(/checks \(([\d.]+)\/s\)/),
    lagP50: n(/lag p50 (\d+) ms/),
    lagP99: n(/lag p50 \d+ ms p99 (\d+) ms/),
    lagMax: n(/lag p50 \d+ ms p99 \d+ ms max (\d+) ms/),
    delivered: n(/; (\d+) results delivered/),
    deliveryP50: n(/calls, p50 (\d+) ms/),
    deliveryP99: n(/calls, p50 \d+ ms p99 (\d+) ms/),
  };
}

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
  return Date.now() - t0;
}

const storedSince = async (services: Services, t0: number) =>
  Number(
    (
      await services.db.k
        .selectFrom('check_results')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('checked_at', '>=', t0)
        .executeTakeFirstOrThrow()
    ).n,
  );

async function scenarioOne(): Promise<void> {
  const monitors = Number(values.monitors);
  const targets = await startTargets(8);
  const platform = await startPlatform('one');
  try {
    const [loc] = await makeLocations(platform.services, 1);
    const seedStart = performance.now();
    await seedMonitors(platform.services, monitors, (i) => `http://${targets.hosts[i % targets.hosts.length]}/m/${i}`, [loc.slug]);
    say(
      `one probe: seeded ${monitors} monitors in ${fmt((performance.now() - seedStart) / 1000)} s on ${platform.services.db.kind}; warming up ${WARMUP} s...`,
    );
    const probe = startProbe(platform.probeUrl, loc.token, 'one');
    const loadedIn = await waitFor(
      'the assignments',
      () => probe.lines.some((l) => l.includes(`assignments: ${monitors} monitors`)),
      600_000,
    );
    await sleep(WARMUP * 1000);
    const cpu0 = probe.cpuSeconds();
    const t0 = Date.now();
    await sleep(SECONDS * 1000);
    const cpu = probe.cpuSeconds() - cpu0;
    const stored = await storedSince(platform.services, t0);
    const load = os.loadavg();
    await probe.stop();
    const s = runSummary(probe);
    say(
      [
        `scenario one: 1 probe, ${monitors} http monitors at ${INTERVAL} s (${fmt(monitors / INTERVAL, 0)} checks/s wanted), ${platform.services.db.kind}, ${SECONDS} s measured after ${WARMUP} s warm-up; load ${load.map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`,
        `  assignments loaded  ${fmt(loadedIn / 1000)} s after the probe started (the whole set in one answer)`,
        `  probe checks/s      ${fmt(s.rate)} over its run (${s.checks} checks)   (target: ${fmt(monitors / INTERVAL, 0)})`,
        `  scheduling lag      p50 ${s.lagP50} ms, p99 ${s.lagP99} ms, max ${s.lagMax} ms over its whole run, warm-up included   (target: p99 <= 50 ms)`,
        `  probe memory        RSS max ${fmt(probe.rssMaxKb / 1024)} MiB; CPU ${fmt((cpu / SECONDS) * 100)} % of one core in the window`,
        `  delivery            ${s.delivered} results taken by the platform; each call p50 ${s.deliveryP50} ms, p99 ${s.deliveryP99} ms`,
        `  platform stored     ${fmt(stored / SECONDS)} results/s in the window`,
        `  probe said          ${s.line.replace(/^.*probe: /, '')}`,
      ].join('\n'),
    );
  } finally {
    targets.proc.kill('SIGTERM');
    await platform.close();
  }
}

async function scenarioFive(): Promise<void> {
  const perProbe = Math.round(Number(values.monitors) / 5);
  const targets = await startTargets(8);
  const platform = await startPlatform('five');
  try {
    const locs = await makeLocations(platform.services, 5);
    await seedMonitors(
      platform.services,
      perProbe,
      (i) => `http://${targets.hosts[i % targets.hosts.length]}/m/${i}`,
      locs.map((l) => l.slug),
    );
    say(
      `five probes: seeded ${perProbe} monitors each checked from 5 locations on ${platform.services.db.kind}; warming up ${WARMUP} s...`,
    );
    const probes = locs.map((l, i) => startProbe(platform.probeUrl, l.token, `five-${i + 1}`));
    await waitFor(
      'the assignments',
      () => probes.every((p) => p.lines.some((l) => l.includes(`assignments: ${perProbe} monitors`))),
      600_000,
    );
    await sleep(WARMUP * 1000);
    const host = `${PAGE_COMPANY}.localhost:${platform.port}`;
    const t0 = Date.now();
    // The platform's event loop in this process: every request (page or delivery) waits out its pauses.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const cpu = startCpuSplit(CPU_GROUPS, process.pid);
    const profiler = await startCpuProfile(values['cpu-prof']);
    const web = await loadPage(`http://127.0.0.1:${platform.port}/`, host, SECONDS, Number(values.connections), PAGE_RATE, PAGE_LOAD);
    await profiler.stop();
    const split = cpu.stop();
    loop.disable();
    const stored = await storedSince(platform.services, t0);
    const load = os.loadavg();
    await Promise.all(probes.map((p) => p.stop()));
    const sums = probes.map(runSummary);
    say(
      [
        `scenario five: 5 probes x ${perProbe} monitors at ${INTERVAL} s (${fmt((5 * perProbe) / INTERVAL, 0)} results/s wanted), ${platform.services.db.kind}, ${SECONDS} s of page load after ${WARMUP} s warm-up; probes call the ${values['main-port'] ? 'main port' : 'ingest port (PROBE_INGEST_PORT thread)'}; ${storedWhere(platform)}; load ${load.map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`,
        `  ingest p99          ${Math.max(...sums.map((s) => s.deliveryP99))} ms (worst probe; each delivery call of up to 1,000 results as the probe timed it; p50 ${Math.max(...sums.map((s) => s.deliveryP50))} ms)   (target: <= 50 ms)`,
        `  platform stored     ${fmt(stored / SECONDS)} results/s during the page load   (target: ${fmt((5 * perProbe) / INTERVAL, 0)})`,
        `  status page         ${fmt(web.rps, 0)} req/s (${pageLoad()}), p99 ${web.p99} ms, errors ${web.errors + web.non2xx} in the same run   (target: >= 5,000 req/s)`,
        `  platform loop delay p50 ${fmt(loop.percentile(50) / 1e6, 0)} ms, p99 ${fmt(loop.percentile(99) / 1e6, 0)} ms, max ${fmt(loop.max / 1e6, 0)} ms during the page load (the pauses every request waits out)`,
        `  probes lag p99      ${sums.map((s) => s.lagP99).join(', ')} ms; RSS max ${probes.map((p) => fmt(p.rssMaxKb / 1024, 0)).join(', ')} MiB`,
        cpuLine(split),
      ].join('\n'),
    );
  } finally {
    targets.proc.kill('SIGTERM');
    await platform.close();
  }
}

/** What a probe's delivery call carries, as far as the replay's checks of the recording read it. */
interface RecordedBody {
  stats?: { lag_ms_p99?: number };
  results: Array<{ error: string | null }>;
}

/**
 * The platform alone, on real delivery calls: five real probes check the loopback targets through
 * a recording relay for one interval (each monitor once from each location), then the probes and
 * targets stop and a sender process (replay-sender.ts) plays those calls back to the ingest port,
 * at the moments the probes made them, round after round, while autocannon loads the page. In
 * production probes run elsewhere; on this 2-core box the five probes and the targets alone take
 * about a core (top: 5 x 15.7 % for the probes, 15 % for the targets), which the five-probe
 * scenario's platform shares. This one measures what the platform does with the same calls when
 * it has the box to itself, beside the page's load generator. Labelled REPLAYED in its output.
 */
async function scenarioReplay(): Promise<void> {
  const perProbe = Math.round(Number(values.monitors) / 5);
  const pageWarmup = Number(values['page-warmup']);
  // the delivery calls' own warm-up, then the page's (both loads run through it), then the window
  const replayWarmup = 20 + pageWarmup;
  const targets = await startTargets(8);
  const platform = await startPlatform('replay');
  const recording = path.join(mkdtempSync(path.join(os.tmpdir(), 'sw-bench-replay-')), 'calls.jsonl');
  const lines: string[] = [];
  let recordFrom: number | null = null;
  const ingest = new URL(platform.probeUrl);
  const relay = http.createServer((q, res) => {
    const chunks: Buffer[] = [];
    q.on('data', (c: Buffer) => chunks.push(c));
    q.on('end', () => {
      const body = Buffer.concat(chunks);
      if (recordFrom !== null && q.method === 'POST' && q.url === '/api/v1/probe/results')
        lines.push(
          JSON.stringify({
            at: Math.round(performance.now() - recordFrom),
            wall: Date.now(),
            authorization: q.headers.authorization,
            body: JSON.parse(String(body)),
          }),
        );
      const up = http.request(
        { host: ingest.hostname, port: ingest.port, path: q.url, method: q.method, headers: { ...q.headers, host: ingest.host } },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
  try {
    const locs = await makeLocations(platform.services, 5);
    await seedMonitors(
      platform.services,
      perProbe,
      (i) => `http://${targets.hosts[i % targets.hosts.length]}/m/${i}`,
      locs.map((l) => l.slug),
    );
    const relayUrl = `http://localhost:${(relay.address() as AddressInfo).port}`;
    const probes = locs.map((l, i) => startProbe(relayUrl, l.token, `replay-${i + 1}`));
    await waitFor(
      'the assignments',
      () => probes.every((p) => p.lines.some((l) => l.includes(`assignments: ${perProbe} monitors`))),
      600_000,
    );
    say(
      `replay: ${perProbe} monitors from 5 locations on ${platform.services.db.kind}; warming up ${WARMUP} s, then recording one ${INTERVAL} s interval of the probes' calls...`,
    );
    await sleep(WARMUP * 1000);
    recordFrom = performance.now();
    await sleep(INTERVAL * 1000);
    recordFrom = null;
    await Promise.all(probes.map((p) => p.stop()));
    targets.proc.kill('SIGTERM');
    writeFileSync(recording, `${lines.join('\n')}\n`);
    const calls = lines.map((l) => JSON.parse(l) as { body: RecordedBody });
    const recorded = calls.reduce((n, c) => n + c.body.results.length, 0);
    // The loopback targets answer every check: a failed one means the box starved the targets or
    // the probes while recording, and the replay would then measure incident work, not steady ingest.
    const failed = calls.reduce((n, c) => n + c.body.results.filter((r) => r.error !== null).length, 0);
    const probeLag = Math.max(0, ...calls.map((c) => c.body.stats?.lag_ms_p99 ?? 0));
    // What the probes sent is stored before the replay begins.
    await waitFor(
      'the inbox to empty',
      async () =>
        Number(
          (
            await platform.services.db.k
              .selectFrom('probe_result_inbox')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ) === 0,
      600_000,
    );
    const sender = spawn(
      process.execPath,
      [path.resolve(import.meta.dirname, 'replay-sender.ts'), recording, platform.probeUrl, String(replayWarmup), String(SECONDS)],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    sender.stdout!.on('data', (d) => (out += d));
    const senderDone = new Promise<void>((r) => sender.once('exit', () => r()));
    await sleep((replayWarmup - pageWarmup) * 1000);
    const host = `${PAGE_COMPANY}.localhost:${platform.port}`;
    if (pageWarmup > 0)
      await loadPage(`http://127.0.0.1:${platform.port}/`, host, pageWarmup, Number(values.connections), PAGE_RATE, PAGE_LOAD);
    const t0 = Date.now();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const cpu = startCpuSplit(CPU_GROUPS, process.pid);
    const profiler = await startCpuProfile(values['cpu-prof']);
    const web = await loadPage(`http://127.0.0.1:${platform.port}/`, host, SECONDS, Number(values.connections), PAGE_RATE, PAGE_LOAD);
    await profiler.stop();
    const split = cpu.stop();
    loop.disable();
    const stored = await storedSince(platform.services, t0);
    const load = os.loadavg();
    await senderDone;
    const sent = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as {
      calls: number;
      sent: number;
      p50: number;
      p99: number;
      max: number;
      errors: number;
    };
    say(
      [
        `scenario replay (REPLAYED: the probes' own calls played back without the probes and targets on the box; ids and check times moved on each round): ${lines.length} calls of ${recorded} results recorded from 5 probes x ${perProbe} monitors at ${INTERVAL} s, ${platform.services.db.kind}, ${SECONDS} s of page load after ${replayWarmup} s (the page loaded for the last ${pageWarmup} s of it); ${storedWhere(platform)}; load ${load.map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`,
        `  recording           ${failed} of ${recorded} checks failed, probes' lag p99 up to ${probeLag} ms${failed > 0 || recorded < 5 * perProbe * 0.95 ? '   NOT VALID: the recording is not one interval of healthy checks (the box starved the targets or the probes); run again' : ''}`,
        `  ingest p99          ${sent.p99} ms (${sent.calls} delivery calls timed by the sender, a process doing nothing else; p50 ${sent.p50} ms, max ${sent.max} ms, errors ${sent.errors})   (target: <= 50 ms)`,
        `  platform stored     ${fmt(stored / SECONDS)} results/s during the page load   (target: ${fmt((5 * perProbe) / INTERVAL, 0)})`,
        `  status page         ${fmt(web.rps, 0)} req/s (${pageLoad()}), p99 ${web.p99} ms, errors ${web.errors + web.non2xx} in the same run   (target: >= 5,000 req/s)`,
        `  platform loop delay p50 ${fmt(loop.percentile(50) / 1e6, 0)} ms, p99 ${fmt(loop.percentile(99) / 1e6, 0)} ms, max ${fmt(loop.max / 1e6, 0)} ms during the page load`,
        cpuLine(split),
      ].join('\n'),
    );
  } finally {
    relay.close();
    targets.proc.kill('SIGTERM');
    await platform.close();
  }
}

async function scenarioDetect(): Promise<void> {
  const interval = Math.min(INTERVAL, 20);
  const confirmations = 2;
  const bound = interval * confirmations + 5;
  // Two targets: one healthy, one that fails (503); each location's own DNS server decides which one it reaches.
  const serve = (code: number) =>
    new Promise<http.Server>((r) => {
      const s = http.createServer((_q, res) => {
        res.writeHead(code, { 'content-length': '2' });
        res.end('ok');
      });
      s.listen(0, '127.0.0.1', () => r(s));
    });
  const healthy = await serve(200);
  const failing = await serve(503);
  // One port for both names: the failing target is reached through another loopback address.
  const relay = http.createServer((q, res) => {
    const to = (q.socket.localAddress === '127.0.0.3' ? failing : healthy).address() as AddressInfo;
    const up = http.request({ host: '127.0.0.1', port: to.port, path: q.url, method: q.method }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    q.pipe(up);
  });
  await new Promise<void>((r) => relay.listen(0, '0.0.0.0', r));
  const port = (relay.address() as AddressInfo).port;
  const dns: DnsZoneServer[] = [];
  for (let i = 0; i < 3; i++) {
    const z = await startDnsZoneServer();
    z.set('shop.bench.test', [{ type: 'A', value: '127.0.0.2' }]);
    dns.push(z);
  }
  const platform = await startPlatform('detect');
  try {
    const locs = await makeLocations(platform.services, 3);
    const [monitorId] = await seedMonitors(
      platform.services,
      1,
      () => `http://shop.bench.test:${port}/`,
      locs.map((l) => l.slug),
      {
        interval_seconds: interval,
        confirmations,
      },
    );
    const probes = locs.map((l, i) => startProbe(platform.probeUrl, l.token, `detect-${i + 1}`, { DNS_RESOLVERS: dns[i].server }));
    const monitor = () =>
      platform.services.db.k.selectFrom('monitors').select(['status', 'last_error']).where('id', '=', monitorId).executeTakeFirstOrThrow();
    const incidents = async () =>
      Number(
        (
          await platform.services.db.k
            .selectFrom('incidents')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('monitor_id', '=', monitorId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    await waitFor('the first verdict', async () => (await monitor()).status === 'operational', 120_000).catch((e: unknown) => {
      for (const p of probes) say(p.lines.join('\n'));
      throw e;
    });
    // One location failing alone, for four intervals.
    dns[0].set('shop.bench.test', [{ type: 'A', value: '127.0.0.3' }]);
    await waitFor('one location down', async () => (await monitor()).status === 'degraded', (interval * confirmations + 10) * 1000);
    await sleep(4 * interval * 1000);
    const aloneIncidents = await incidents();
    const aloneStatus = (await monitor()).status;
    // A second location fails too.
    dns[1].set('shop.bench.test', [{ type: 'A', value: '127.0.0.3' }]);
    const downIn = await waitFor('down', async () => (await monitor()).status === 'down', (bound + 30) * 1000);
    const opened = await incidents();
    // The bench's companies have no users to notify: the incident's own record says where.
    const incident = await platform.services.db.k
      .selectFrom('incidents')
      .select(['title', 'down_where'])
      .where('monitor_id', '=', monitorId)
      .executeTakeFirst();
    await Promise.all(probes.map((p) => p.stop()));
    say(
      [
        `scenario detect: 3 probes with their own DNS servers, 1 http monitor at ${interval} s, confirmations ${confirmations}, ${platform.services.db.kind}`,
        `  one location failing alone   ${4 * interval} s after it was confirmed: monitor ${aloneStatus}, ${aloneIncidents} incidents   (target: no incident)`,
        `  two of three failing         down ${fmt(downIn / 1000)} s after the second location's fault, ${opened} incident   (target: <= ${bound} s = interval x confirmations + 5 s)`,
        `  the incident says            ${incident ? `${incident.title}: ${JSON.parse(incident.down_where ?? '{}').text ?? '(no locations)'}` : '(none)'}`,
      ].join('\n'),
    );
  } finally {
    await platform.close();
    for (const z of dns) await z.close();
    for (const s of [healthy, failing, relay]) s.close();
  }
}

const run = values.scenario;
if (run === 'one' || run === 'all') await scenarioOne();
if (run === 'five' || run === 'all') await scenarioFive();
if (run === 'replay' || run === 'all') await scenarioReplay();
if (run === 'detect' || run === 'all') await scenarioDetect();
process.exit(0);
