// The checker canary on both databases, with real loopback servers: an HTTP and a TCP canary
// target the test opens and closes, a monitored HTTP target and a webhook receiver. While a
// canary target answers, a monitor going down alerts as usual; when every canary target fails
// (the servers closed), down verdicts are held (no state change, no incident, no delivery, no
// downtime counted) and the super admins get one `system` notice; once a target answers again,
// they are told and monitors go down and alert as before.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/server/config.ts';
import { openDb } from '../../../src/server/db/connect.ts';
import type { Ctx, Services } from '../../../src/server/domain/context.ts';
import { getHealthFor } from '../../../src/server/domain/system/health.ts';
import { createServices } from '../../../src/server/services.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries } from '../../../src/server/domain/alerts/deliveries.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { listNotifications } from '../../../src/server/domain/notifications/service.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { actorFor, ctxFor, seedUser } from '../../support/fixtures.ts';
import { DB_KINDS, newDatabaseLocation, tempDir } from '../../support/test-db.ts';
import { manualClock, seedTenant, type Clock } from './support.ts';
import { waitFor } from '../../support/wait-for.ts';

/** A process's services on a shared database location (the engine's and the web's). */
async function servicesOn(loc: { file?: string; url?: string }, env: Record<string, string>, now?: () => number): Promise<Services> {
  const db = loc.file ? openDb({ kind: 'sqlite', file: loc.file }) : openDb({ kind: 'postgres', url: loc.url!, max: 5 });
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: tempDir(),
    LOG_LEVEL: 'silent',
    ALLOW_PRIVATE_TARGETS: 'true',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    ...env,
  });
  return createServices(config, { db, now });
}

/** A canary target the test can take down and bring back on the same port. */
async function canaryServer(kind: 'http' | 'tcp', port = 0) {
  const server = kind === 'http' ? http.createServer((_req, res) => res.end('pong')) : net.createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        if (server instanceof http.Server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(DB_KINDS)('checker canary on %s', (kind) => {
  let services: Services;
  let web: Services;
  let engine: Engine;
  let targets: HttpTargets;
  let receiver: WebhookReceiver;
  let clock: Clock;
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let superCtx: Ctx;
  let canaries: Array<Awaited<ReturnType<typeof canaryServer>>>;
  const ports: number[] = [];

  beforeAll(async () => {
    targets = await startHttpTargets();
    receiver = await startWebhookReceiver();
    canaries = [await canaryServer('http'), await canaryServer('tcp')];
    ports.push(...canaries.map((c) => c.port));
    clock = manualClock();
    const location = await newDatabaseLocation(kind);
    services = await servicesOn(location, { CANARY_TARGETS: `http://127.0.0.1:${ports[0]}/ping,127.0.0.1:${ports[1]}` }, clock.now);
    // The web process of a deployment whose checks run in workers: no engine, no canary of its own.
    web = await servicesOn(location, { RUN_ENGINE: 'false' });
    engine = createEngine(services);
    services.monitoring = { engine };
    t = await seedTenant(services);
    const superAdmin = await seedUser(services, { userType: 1 });
    superCtx = ctxFor(services, actorFor({ ...superAdmin, userType: 1, companyId: null })) as Ctx;
  });
  afterAll(async () => {
    await Promise.all([targets?.close(), receiver?.close(), ...(canaries ?? []).map((c) => c.close())]);
    await engine?.stop();
    await services?.db.close();
    await web?.db.close();
  });

  const rounds = async (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.advance(60_000);
      await engine.runDueNow();
    }
  };
  const monitorIncidents = (monitorId: string) =>
    services.db.k.selectFrom('incidents').select(['id', 'status']).where('monitor_id', '=', monitorId).orderBy('started_at').execute();
  const downChecks = async (monitorId: string) =>
    (await services.db.k.selectFrom('check_results').select('status').where('monitor_id', '=', monitorId).execute()).filter(
      (r) => r.status === 'down',
    ).length;
  const statusOf = async (monitorId: string) =>
    (await services.db.k.selectFrom('monitors').select('status').where('id', '=', monitorId).executeTakeFirstOrThrow()).status;
  const systemNotices = async (ctx: Ctx) => (await listNotifications(ctx, {})).filter((n) => n.type === 'system');
  /** The health call's checks, as a super admin of the web process reads them */
  const webChecks = async () => ((await getHealthFor(ctxFor(web, superCtx.actor) as Ctx)) as { checks: { status: string } }).checks;

  it('alerts as usual while a canary answers, holds down verdicts while none does, and resumes when one answers again', async () => {
    targets.setUp(true);
    const m = await createMonitor(t.adminCtx, {
      name: 'Shop',
      type: 'http',
      url: targets.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
    } as never);
    const channel = await createChannel(t.adminCtx, {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: receiver.url('/ops') },
      events: ['incident.opened', 'incident.resolved'],
      monitor_ids: null,
    });
    const deliveries = async () => (await listDeliveries(t.adminCtx, { channel_id: channel.id })).map((d) => d.event).sort();
    await engine.runDueNow();

    // 1. A canary answers: the target's outage opens an incident and alerts, as without a canary.
    targets.setUp(false);
    await rounds(3);
    expect(await statusOf(m.id)).toBe('down');
    expect((await monitorIncidents(m.id)).map((i) => i.status)).toEqual(['open']);
    targets.setUp(true);
    await rounds(2);
    expect(await deliveries()).toEqual(['incident.opened', 'incident.resolved']);
    await runDeliveries(services, { holder: 'test' });
    expect(receiver.received.filter((r) => r.path === '/ops')).toHaveLength(2);
    expect(await systemNotices(superCtx)).toHaveLength(0);
    expect(await webChecks()).toEqual({ status: 'running', since: null });
    const downBefore = await downChecks(m.id);

    // 2. Every canary target fails (this server is "offline"), and so does the monitor's target:
    // the down verdicts are held. The canary was last seen answering, so the first failure made
    // the engine probe it again before committing anything.
    await Promise.all(canaries.map((c) => c.close()));
    targets.setUp(false);
    const pausedAt = clock.now() + 60_000; // the first of these rounds
    await rounds(4);
    expect(await statusOf(m.id)).toBe('operational');
    expect((await monitorIncidents(m.id)).map((i) => i.status)).toEqual(['resolved']);
    expect(await deliveries()).toEqual(['incident.opened', 'incident.resolved']);
    expect(await downChecks(m.id)).toBe(downBefore); // no downtime counted for what the engine could not see
    const paused = await systemNotices(superCtx);
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ title: 'Checks are paused: this server cannot reach its canary targets', severity: 'critical' });
    expect(paused[0].details).toContain(`127.0.0.1:${ports[1]}`);
    expect(await webChecks()).toEqual({ status: 'paused', since: new Date(pausedAt).toISOString() });
    // The company's users hear nothing about it (neither the notice nor the outage).
    const companyTitles = (await listNotifications(t.adminCtx, {})).map((n) => n.title);
    expect(companyTitles.filter((title) => title === 'Shop is down')).toHaveLength(1); // step 1's
    expect(companyTitles.filter((title) => title.startsWith('Checks'))).toEqual([]);
    // Probing again while it still fails announces nothing new.
    await engine.probeCanary!();
    expect(await systemNotices(superCtx)).toHaveLength(1);

    // 3. One canary target answers again: the super admins are told, and the still-failing
    // monitor now goes down, opens an incident and alerts.
    canaries[1] = await canaryServer('tcp', ports[1]);
    await engine.probeCanary!();
    const notices = await systemNotices(superCtx);
    expect(notices.map((n) => n.title)).toContain('Checks resumed: the canary targets answer again');
    expect(await webChecks()).toEqual({ status: 'running', since: null });
    await rounds(3);
    expect(await statusOf(m.id)).toBe('down');
    expect((await monitorIncidents(m.id)).map((i) => i.status)).toEqual(['resolved', 'open']);
    expect(await deliveries()).toEqual(['incident.opened', 'incident.opened', 'incident.resolved']);
    expect(await downChecks(m.id)).toBeGreaterThan(downBefore);
  });

  it('a started engine probes on its own: with no monitor failing, it notices every canary target failing and pauses checks', async () => {
    await canaries[1].close(); // canaries[0] is still closed from the first test
    const worker = createEngine(services, { owner: 'worker-b' });
    worker.start();
    try {
      await waitFor(async () => (await webChecks()).status === 'paused', { intervalMs: 50, what: 'the web checks paused' }).catch(
        () => undefined,
      );
      expect((await webChecks()).status).toBe('paused');
      expect((await systemNotices(superCtx)).filter((n) => n.title.startsWith('Checks are paused'))).toHaveLength(2); // one per pause
    } finally {
      await worker.stop();
    }
  });
});
