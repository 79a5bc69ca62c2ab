// What one probe costs its host (docs/features/probe-locations.md, "Running a probe in
// production"): a real probe process (`node src/probe/main.ts`, what `npm run probe` starts)
// runs N http monitors of a public location against a loopback target (bench/engine/target.ts,
// its own process) and sends its results to the platform served by this process on SQLite
// (no engine, no jobs: it only takes the probe's calls). The probe's resident memory and CPU time
// are read from /proc every second; after a warm-up of one interval, the window's figures are
// printed: RSS (max and at the end), CPU as a share of one core, the checks stored per second
// from the location (next to the N / interval asked) and the lag p99 the probe reports.
// Usage: node bench/probes/resources.ts [--monitors 1000 --interval 60 --seconds 120]
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { monitorsRepo, newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { probeLocationsRepo } from '../../src/server/db/repositories/probe-locations-repo.ts';
import { hashSecret } from '../../src/server/domain/auth/tokens.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { seedCompany } from '../../tests/support/fixtures.ts';
import { startTestApp } from '../../tests/support/test-app.ts';

const { values } = parseArgs({
  options: {
    monitors: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '60' },
    seconds: { type: 'string', default: '120' },
  },
});
const MONITORS = Number(values.monitors);
const INTERVAL = Number(values.interval);
const SECONDS = Number(values.seconds);
const ROOT = path.join(import.meta.dirname, '../..');
const TICKS = 100; // clock ticks a second of /proc/PID/stat (USER_HZ on Linux)

/** The process's CPU seconds (user + system) and resident memory in bytes, from /proc. */
function usage(pid: number): { cpu: number; rss: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
  return { cpu: (Number(f[11]) + Number(f[12])) / TICKS, rss };
}

async function main(): Promise<void> {
  const target = spawn(process.execPath, [path.join(ROOT, 'bench/engine/target.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [targetHost] = await new Promise<string[]>((resolve) =>
    target.stdout!.once('data', (d: Buffer) => resolve(String(d).trim().split(' '))),
  );
  const t = await startTestApp({ db: 'sqlite', env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' } });
  const db = t.services.db;
  const now = Date.now();
  const company = await seedCompany(t.services, { plan: 'enterprise' });
  const locationId = newId();
  const num = await probeLocationsRepo(db).insert({
    id: locationId,
    slug: 'eu-west',
    name: 'Bench',
    company_id: null,
    created_at: now,
    created_by: null,
  });
  const token = `swp_${randomBytes(32).toString('base64url')}`;
  await probeLocationsRepo(db).insertToken({
    id: newId(),
    location_id: locationId,
    name: 'bench',
    token_hash: hashSecret(token),
    token_prefix: token.slice(0, 8),
    created_at: now,
    created_by: null,
    last_used_at: null,
    revoked_at: null,
  });
  for (let i = 0; i < MONITORS; i++)
    await monitorsRepo(db).insert({
      ...newMonitorRow({
        id: newId(),
        company_id: company.id,
        name: `bench ${i}`,
        type: 'http',
        config: JSON.stringify({
          url: `http://${targetHost}/m/${i}`,
          method: 'GET',
          accepted_status_codes: ['200-299'],
          follow_redirects: true,
        }),
        interval_seconds: INTERVAL,
        timeout_seconds: Math.min(5, INTERVAL),
        next_due_at: now,
        created_at: now,
      }),
      // checked from the bench's location only
      locations: '["eu-west"]',
      run_local: false,
    });

  const probe: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'src/probe/main.ts')], {
    env: {
      PATH: process.env.PATH ?? '',
      PROBE_URL: `http://localhost:${t.port}`,
      PROBE_TOKEN: token,
      PROBE_INSTANCE: 'bench-1',
      PROBE_BUFFER_DIR: mkdtempSync(path.join(os.tmpdir(), 'sw-bench-probe-buffer-')),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  probe.stdout!.on('data', () => {}); // its log lines: one per change of state
  const pid = probe.pid!;
  process.stdout.write(
    `probe ${pid}: ${MONITORS} http monitors at ${INTERVAL} s against ${targetHost}; warm-up ${INTERVAL} s, then ${SECONDS} s measured...\n`,
  );
  const samples: Array<{ at: number; cpu: number; rss: number }> = [];
  const sampler = setInterval(() => samples.push({ at: performance.now(), ...usage(pid) }), 1000);
  const stored = async () =>
    Number((await sql<{ n: number }>`select count(*) as n from check_results where location = ${num}`.execute(db.k)).rows[0].n);
  await new Promise((r) => setTimeout(r, INTERVAL * 1000));
  const from = { at: performance.now(), ...usage(pid), checks: await stored() };
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const to = { at: performance.now(), ...usage(pid), checks: await stored() };
  clearInterval(sampler);
  const lag = await db.k
    .selectFrom('probes')
    .select(['lag_ms', 'checks_per_second'])
    .where('location_id', '=', locationId)
    .executeTakeFirst();
  probe.kill('SIGTERM');
  await new Promise((r) => probe.once('exit', r));
  target.kill('SIGTERM');
  await t.close();

  const secs = (to.at - from.at) / 1000;
  const window = samples.filter((s) => s.at >= from.at);
  const mib = (b: number) => (b / 1048576).toFixed(0);
  const lines = [
    `probe resources: 1 probe, ${MONITORS} http monitors at ${INTERVAL} s (${(MONITORS / INTERVAL).toFixed(1)} checks/s asked) against loopback, ${secs.toFixed(0)} s measured`,
    `checks stored       ${((to.checks - from.checks) / secs).toFixed(1)}/s   (asked ${(MONITORS / INTERVAL).toFixed(1)}/s; the probe's own figures: ${lag?.checks_per_second ?? '–'}/s, lag p99 ${lag?.lag_ms ?? '–'} ms)`,
    `CPU                 ${(((to.cpu - from.cpu) / secs) * 100).toFixed(1)} % of one core   (user + system, /proc/${pid}/stat)`,
    `memory (RSS)        ${mib(Math.max(...window.map((s) => s.rss)))} MiB max, ${mib(to.rss)} MiB at the end`,
    `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores (the platform ran in this process beside it)`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
