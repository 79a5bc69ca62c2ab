// Alerts benchmark (issue 14 targets). The server's parts wired as src/server/main.ts wires them
// (engine, jobs runner with the 1 s alert-delivery job, sending right after commit) minus HTTP,
// so the engine's own scheduling lag can be read; the loopback receivers and the SMTP sink run
// in a child process (receivers.ts) so their CPU is not counted against the server.
//   1. Latency: LATENCY_COMPANIES companies with one monitor each that goes down and up every
//      25 s, each company with a webhook and an e-mail channel: from the commit of the state
//      change (the delivery's write time, at most the commit) to the webhook received, and to the
//      mail accepted by the SMTP sink, p50/p99.
//   2. Storm: one company with STORM monitors and 3 channels (webhook, Slack, e-mail) all going
//      down together: time until every delivery is delivered or grouped, messages each receiver
//      got, the most Slack messages within any 1 s, and the engine's scheduling lag meanwhile.
// Usage: npm run bench:alerts [-- --storm 1000 --latency-companies 100 --seconds 40] [--pg]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { alertChannelsRepo } from '../../src/server/db/repositories/alert-channels-repo.ts';
import { companiesRepo } from '../../src/server/db/repositories/companies-repo.ts';
import { monitorsRepo, newMonitorRow } from '../../src/server/db/repositories/monitors-repo.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { createEngine } from '../../src/server/engine/scheduler.ts';
import { startDeliveryWaker } from '../../src/server/jobs/alert-delivery.ts';
import { startJobs } from '../../src/server/jobs/runner.ts';
import { createServices } from '../../src/server/services.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';

const { values } = parseArgs({
  options: {
    storm: { type: 'string', default: '1000' },
    'latency-companies': { type: 'string', default: '100' },
    seconds: { type: 'string', default: '40' },
    pg: { type: 'boolean', default: false },
  },
});
const STORM = Number(values.storm);
const LATENCY_COMPANIES = Number(values['latency-companies']);
const SECONDS = Number(values.seconds);
// 1,000 monitors at 6 s load the engine like 10,000 at 60 s (as bench/engine).
const STORM_INTERVAL_S = 6;
const LATENCY_INTERVAL_S = 5;

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Received {
  kind: string;
  id: string;
  at: number;
}

async function main(): Promise<void> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'receivers.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const received: Received[] = [];
  const ports = await new Promise<{ target: number; webhook: number; slack: number; smtp: number }>((resolve) => {
    lines.once('line', (l) => {
      resolve(JSON.parse(l));
      lines.on('line', (m) => received.push(JSON.parse(m) as Received));
    });
  });

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-alerts-'));
  const cluster = values.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const url = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, 'bench_alerts') : undefined);
  const config = parseConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ALLOW_PRIVATE_TARGETS: 'true',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
    ...(url ? { DATABASE_URL: url } : {}),
  });
  const db = url ? openDb({ kind: 'postgres', url, max: 10 }) : openDb({ kind: 'sqlite', file: config.sqlitePath });
  const services = await createServices(config, { db });
  const now = Date.now();

  const company = async (name: string) => {
    const id = newId();
    const sub = `${name}-${id.slice(0, 6)}`;
    await companiesRepo(db).insert({
      id,
      name,
      email: `${sub}@bench.test`,
      subdomain: sub,
      slug: sub,
      plan: 'enterprise',
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  const channel = async (companyId: string, type: string, cfg: unknown) => {
    const id = newId();
    await alertChannelsRepo(db).insert({
      id,
      company_id: companyId,
      name: `${type} channel`,
      type,
      config: JSON.stringify(cfg),
      secret: type === 'webhook' ? `whsec_${randomBytes(32).toString('base64')}` : null,
      events: JSON.stringify(['incident.opened', 'incident.resolved']),
      monitor_ids: null,
      min_severity: 'info',
      enabled: true,
      next_send_at: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  const monitor = async (companyId: string, name: string, target: string, interval: number, dueAt: number) => {
    await monitorsRepo(db).insert(
      newMonitorRow({
        id: newId(),
        company_id: companyId,
        name,
        type: 'http',
        config: JSON.stringify({ url: target, method: 'GET', accepted_status_codes: ['200-299'], follow_redirects: false }),
        is_public: false,
        interval_seconds: interval,
        timeout_seconds: 2,
        confirmations: 1,
        next_due_at: dueAt,
        created_at: now,
      }),
    );
  };
  const hook = `http://127.0.0.1:${ports.webhook}/hook`;
  const latencyChannels = new Set<string>();
  for (let c = 0; c < LATENCY_COMPANIES; c++) {
    const id = await company(`latency${c}`);
    latencyChannels.add(await channel(id, 'webhook', { url: hook }));
    latencyChannels.add(await channel(id, 'email', { to: [`oncall${c}@bench.test`] }));
    await monitor(id, `flapping ${c}`, `http://127.0.0.1:${ports.target}/l/${c}`, LATENCY_INTERVAL_S, now);
  }
  const stormCompany = await company('storm');
  const stormChannels = {
    webhook: await channel(stormCompany, 'webhook', { url: hook }),
    slack: await channel(stormCompany, 'slack', { url: `http://127.0.0.1:${ports.slack}/services/T0/B0/X` }),
    email: await channel(stormCompany, 'email', { to: ['storm@bench.test'] }),
  };
  for (let i = 0; i < STORM; i++)
    await monitor(
      stormCompany,
      `storm ${i}`,
      `http://127.0.0.1:${ports.target}/s/${i}`,
      STORM_INTERVAL_S,
      now + Math.floor((i / STORM) * STORM_INTERVAL_S * 1000),
    );

  // Baseline side by side (as bench/engine): how late an idle 20 ms timer fires on this machine
  // now, to tell other load on the machine from the engine's own lag.
  const idleLate: number[] = [];
  for (const end = Date.now() + 5000; Date.now() < end; ) {
    const due = Date.now() + 20;
    await sleep(20);
    idleLate.push(Date.now() - due);
  }

  // As main.ts: the engine, the jobs (alert-delivery every 1 s) and sending right after commit.
  const engine = createEngine(services);
  services.monitoring = { engine };
  engine.start();
  startJobs(services);
  startDeliveryWaker(services);

  process.stdout.write(`phase 1: ${LATENCY_COMPANIES} flapping monitors (webhook + e-mail each) for ${SECONDS} s on ${db.kind}...\n`);
  await sleep(3000); // first checks: up
  const t1 = Date.now();
  engine.stats.lagMs.length = 0;
  await sleep(SECONDS * 1000);
  const latency = await latencies(services.db, received, latencyChannels, t1);
  const calmLags = [...engine.stats.lagMs];

  process.stdout.write(`phase 2: ${STORM} monitors with 3 channels go down together...\n`);
  engine.stats.lagMs.length = 0;
  const received0 = received.length;
  const stormAt = Date.now();
  child.stdin!.write('storm\n');
  const storm = await waitForStorm(services.db, stormChannels, STORM, stormAt);
  const lags = [...engine.stats.lagMs];
  const stormMsgs = received.slice(received0);
  const slackTimes = stormMsgs.filter((r) => r.kind === 'slack').map((r) => r.at);
  let slackPerSecond = 0;
  for (const t of slackTimes) slackPerSecond = Math.max(slackPerSecond, slackTimes.filter((u) => u >= t && u < t + 1000).length);
  const stormIds = new Set(storm.ids);
  const stormHooks = stormMsgs.filter((r) => r.kind === 'webhook' && stormIds.has(r.id)).length;
  const stormMails = stormMsgs.filter((r) => r.kind === 'smtp' && stormIds.has(r.id)).length;

  const out = [
    `alerts benchmark on ${db.kind}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    `commit -> webhook received   p50 ${fmt(pct(latency.webhook, 50))} ms  p99 ${fmt(pct(latency.webhook, 99))} ms  (${latency.webhook.length} alerts; target p99 <= 1000 ms)`,
    `commit -> mail accepted      p50 ${fmt(pct(latency.mail, 50))} ms  p99 ${fmt(pct(latency.mail, 99))} ms  (${latency.mail.length} alerts; target p99 <= 2000 ms)`,
    `storm: ${STORM} monitors x 3 channels = ${storm.total} deliveries; all delivered or grouped after ${fmt(storm.doneMs / 1000, 1)} s  (target <= 30 s)${storm.pending ? `; ${storm.pending} NOT DONE` : ''}`,
    `storm: longest from a delivery's write to its send or grouping ${fmt(storm.longestMs / 1000, 1)} s (chat held for the ${config.alertGrouping.windowMs / 1000} s grouping window)`,
    `storm: messages received  webhook ${stormHooks}  Slack ${slackTimes.length}  e-mail ${stormMails}  (grouped: ${storm.grouped})`,
    `storm: most Slack messages within 1 s  ${slackPerSecond}  (limit 1 per second per webhook)`,
    `engine scheduling lag before the storm  p50 ${fmt(pct(calmLags, 50), 1)} ms  p99 ${fmt(pct(calmLags, 99), 1)} ms  (baseline: an idle timer fires ${fmt(pct(idleLate, 99), 1)} ms late at p99)`,
    `engine scheduling lag during the storm  p50 ${fmt(pct(lags, 50), 1)} ms  p99 ${fmt(pct(lags, 99), 1)} ms  (${lags.length} checks; target p99 <= 50 ms)`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  await engine.stop();
  for (const h of services.onShutdown ?? []) await h();
  child.kill('SIGTERM');
  await services.db.close();
  cluster?.stop();
}

/** Webhook and e-mail latency of phase 1: message received minus the delivery's write time. */
async function latencies(db: { k: ReturnType<typeof openDb>['k'] }, received: Received[], channels: Set<string>, since: number) {
  const rows = await db.k
    .selectFrom('alert_deliveries')
    .select(['id', 'channel_id', 'created_at'])
    .where('created_at', '>=', since)
    .execute();
  const written = new Map(rows.filter((r) => r.channel_id !== null && channels.has(r.channel_id)).map((r) => [r.id, Number(r.created_at)]));
  const webhook: number[] = [];
  const mail: number[] = [];
  const seen = new Set<string>();
  for (const r of received) {
    const at = written.get(r.id);
    if (at === undefined || seen.has(r.id)) continue;
    seen.add(r.id);
    (r.kind === 'webhook' ? webhook : mail).push(r.at - at);
  }
  return { webhook, mail };
}

/** Polls until every delivery of the storm's channels is delivered or grouped (or 90 s). */
async function waitForStorm(db: { k: ReturnType<typeof openDb>['k'] }, channels: Record<string, string>, monitors: number, since: number) {
  const ids = Object.values(channels);
  const deadline = since + 90_000;
  for (;;) {
    const rows = await db.k
      .selectFrom('alert_deliveries')
      .select(['id', 'state', 'created_at', 'updated_at'])
      .where('channel_id', 'in', ids)
      .where('event', '=', 'incident.opened')
      .execute();
    const open = rows.filter((r) => r.state !== 'delivered' && r.state !== 'grouped');
    if ((rows.length >= monitors * ids.length && open.length === 0) || Date.now() > deadline) {
      const done = rows.map((r) => Number(r.updated_at));
      return {
        total: rows.length,
        pending: open.length + Math.max(0, monitors * ids.length - rows.length),
        grouped: rows.filter((r) => r.state === 'grouped').length,
        doneMs: Math.max(...done) - since,
        longestMs: Math.max(...rows.map((r) => Number(r.updated_at) - Number(r.created_at))),
        ids: rows.map((r) => r.id),
      };
    }
    await sleep(250);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
