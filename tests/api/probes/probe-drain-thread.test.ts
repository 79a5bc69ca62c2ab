// The probe drain thread (jobs/probe-drain.ts): on PostgreSQL a real probe process's results are
// stored by a thread of the platform's own, started only once results come; what the main thread
// keeps in memory still sees them (checks_total, the alert sender woken when the thread commits a
// delivery: no timed job runs here, so the webhook arrives only through that wake-up); the sweep
// hands left rows to the thread; a thread that dies hands the work back to the main thread; a
// stopping thread finishes the row under way and leaves the rest to the sweep. On SQLite the main thread keeps storing (one writer).
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeInboxRepo } from '../../../src/server/db/repositories/probe-inbox-repo.ts';
import { inboxDrained, inboxRows, kickInbox, sweepInbox } from '../../../src/server/domain/probes/inbox.ts';
import { startDeliveryWaker } from '../../../src/server/jobs/alert-delivery.ts';
import { type ProbeDrainThread, drainProbeInboxInThread } from '../../../src/server/jobs/probe-drain.ts';
import { platformRegistry } from '../../../src/server/metrics/platform.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import {
  ACME,
  type ProbeProcess,
  type ProbeWorld,
  said,
  seedLocatedMonitor,
  seedProbeWorld,
  startProbeProcess,
} from '../../support/probe-fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS, tempDir } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';

const LONG = { timeoutMs: 60_000 };

/** The names of this process's threads (Node names a worker's thread after its `name`) */
const threadNames = () =>
  readdirSync('/proc/self/task').map((tid) => {
    try {
      return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
    } catch {
      return '';
    }
  });

/** checks_total of eu-west's results with `status`, as /metrics (the main thread's registry) shows it */
async function counted(status: string): Promise<number> {
  const text = await platformRegistry.getSingleMetricAsString('statuswatch_checks_total');
  const line = text.split('\n').find((l) => l.includes('location="eu-west"') && l.includes(`status="${status}"`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('the probe drain thread on sqlite', () => {
  it('is not used: the main thread stays the database’s one writer', async () => {
    const t = await startTestApp({ db: 'sqlite' });
    try {
      expect(drainProbeInboxInThread(t.services, { log: () => {} })).toBeNull();
      expect(t.services.probeInboxDrainer).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe.runIf(DB_KINDS.includes('postgres'))('the probe drain thread on postgres', () => {
  let t: TestApp;
  let w: ProbeWorld;
  let drain: ProbeDrainThread;
  let hook: WebhookReceiver;
  let stopWaker: () => Promise<void>;
  let target: http.Server;
  let probe: ProbeProcess | undefined;
  let monitorId: string;
  let failing = false;
  const logged: string[] = [];

  beforeAll(async () => {
    target = http.createServer((_req, res) => {
      res.statusCode = failing ? 503 : 200;
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    hook = await startWebhookReceiver();
    t = await startTestApp({ db: 'postgres', env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' } });
    stopWaker = startDeliveryWaker(t.services);
    drain = drainProbeInboxInThread(t.services, { log: (m) => logged.push(m) })!;
    w = await seedProbeWorld(t);
    const channel = await w.acmeAdmin.post(
      '/api/v1/alert-channels',
      { name: 'Ops hook', type: 'webhook', config: { url: hook.url('/ops') } },
      ACME,
    );
    expect(channel.status, channel.text).toBe(201);
    const url = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/health`;
    monitorId = await seedLocatedMonitor(
      t,
      w.acmeAdmin,
      ACME,
      { name: 'Checkout', url, interval_seconds: 1, timeout_seconds: 5, confirmations: 1 },
      ['eu-west'],
    );
  }, 60_000);
  afterAll(async () => {
    probe?.child.kill('SIGKILL');
    await stopWaker?.();
    await t?.close();
    await hook?.close();
    await new Promise((r) => target?.close(r));
  });

  const results = () => t.services.db.k.selectFrom('check_results').select(['status']).where('monitor_id', '=', monitorId).execute();
  const monitorStatus = async () =>
    (await t.services.db.k.selectFrom('monitors').select('status').where('id', '=', monitorId).executeTakeFirstOrThrow()).status;
  const inboxSeqs = async () => (await t.services.db.k.selectFrom('probe_result_inbox').select('seq').execute()).map((r) => Number(r.seq));

  it('starts with the first results and stores them there; the monitor turns operational and /metrics counts them', async () => {
    expect(drain.worker()).toBeNull();
    expect(threadNames()).not.toContain('probe-drain');
    const countedBefore = await counted('operational');
    probe = startProbeProcess({
      PROBE_URL: `http://localhost:${t.port}`,
      PROBE_TOKEN: w.euWest.token,
      PROBE_INSTANCE: 'drained-elsewhere',
      PROBE_BUFFER_DIR: tempDir('probe-buffer-'),
      ALLOW_PRIVATE_TARGETS: 'true',
    });
    await waitFor(() => said(probe!, 'assignments: 1 monitors'), { ...LONG, what: 'the probe to connect' });
    await waitFor(async () => (await results()).length >= 3, { ...LONG, what: 'results stored' });
    expect(drain.worker()).not.toBeNull();
    expect(threadNames()).toContain('probe-drain');
    expect((await results()).every((r) => r.status === 'operational')).toBe(true);
    await waitFor(async () => (await monitorStatus()) === 'operational', { ...LONG, what: 'the monitor to turn operational' });
    await waitFor(async () => (await counted('operational')) - countedBefore >= 3, { ...LONG, what: 'checks_total to count them' });
    // drained() waits for the thread: afterwards nothing landed before it waits in the inbox
    await inboxDrained(t.services);
    expect(logged).toEqual([]);
  }, 90_000);

  it('a failure stored there opens the incident, and the main thread’s alert sender sends the webhook at once', async () => {
    failing = true;
    await waitFor(async () => (await monitorStatus()) === 'down', { ...LONG, what: 'the monitor down' });
    const sent = await waitFor(() => hook.received.find((r) => r.path === '/ops'), { ...LONG, what: 'the webhook' });
    expect(sent.body).toContain('Checkout');
    expect(await counted('down')).toBeGreaterThan(0);
    failing = false;
    await waitFor(async () => (await monitorStatus()) === 'operational', { ...LONG, what: 'the monitor back up' });
  }, 90_000);

  it('the sweep hands rows left in the inbox to the thread', async () => {
    // deliveries land without a kick, as after a process stopped before storing them
    t.services.probeInboxLanded = () => {};
    try {
      await waitFor(async () => (await inboxSeqs()).length >= 2, { ...LONG, what: 'rows left in the inbox' });
      const left = await inboxSeqs();
      const before = (await results()).length;
      await sweepInbox(t.services);
      // each row left is stored (a result at least) and gone once the sweep answers
      expect((await inboxSeqs()).filter((seq) => left.includes(seq))).toEqual([]);
      expect((await results()).length).toBeGreaterThanOrEqual(before + left.length);
    } finally {
      delete t.services.probeInboxLanded;
    }
    expect(logged).toEqual([]);
  }, 90_000);

  it('a thread that dies hands the storing back to the main thread', async () => {
    await drain.worker()!.terminate();
    await waitFor(() => logged.some((l) => /probe drain thread ended .*the main thread stores/.test(l)), { ...LONG, what: 'the fallback' });
    expect(t.services.probeInboxDrainer).toBeUndefined();
    const before = (await results()).length;
    await waitFor(async () => (await results()).length >= before + 3, { ...LONG, what: 'results stored by the main thread' });
    expect(await monitorStatus()).toBe('operational');
  }, 90_000);

  it('stops after the row under way: the rest waits in the inbox for the sweep, nothing lost or doubled', async () => {
    probe?.child.kill('SIGKILL');
    await probe?.exited;
    await sweepInbox(t.services); // what the probe sent last, stored by the main thread
    const again = drainProbeInboxInThread(t.services, { log: (m) => logged.push(m) })!;
    const { num } = await t.services.db.k
      .selectFrom('probe_locations')
      .select('num')
      .where('id', '=', w.euWest.id)
      .executeTakeFirstOrThrow();
    const { company_id } = await t.services.db.k
      .selectFrom('monitors')
      .select('company_id')
      .where('id', '=', monitorId)
      .executeTakeFirstOrThrow();
    const before = (await results()).length;
    // a backlog of 30 rows of 500 results, as after a burst of deliveries
    const from = Date.now();
    const backlog = Array.from({ length: 15_000 }, (_, i) => ({
      monitorId,
      companyId: company_id,
      checkedAt: from + i,
      kind: 'http',
      outcome: {
        status: 'operational' as const,
        responseTimeMs: 3,
        httpCode: 200,
        error: null,
        timings: null,
        certExpiresAt: null,
        certIssuer: null,
        certSubject: null,
      },
    }));
    await probeInboxRepo(t.services.db).add(inboxRows('postgres', Number(num), 'eu-west', backlog, from));
    const rows = (await inboxSeqs()).length;
    expect(rows).toBe(30);
    kickInbox(t.services);
    await waitFor(async () => (await inboxSeqs()).length < rows, { ...LONG, what: 'the thread to store its first row' });
    await again.stop();
    expect(t.services.probeInboxDrainer).toBeUndefined();
    const left = (await inboxSeqs()).length;
    expect(left).toBeGreaterThan(0);
    // each row stored whole, once
    expect((await results()).length - before).toBe((rows - left) * 500);
    await sweepInbox(t.services);
    expect(await inboxSeqs()).toEqual([]);
    expect((await results()).length - before).toBe(15_000);
  }, 120_000);
});
