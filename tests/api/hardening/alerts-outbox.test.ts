// The alerts outbox end to end on both databases: a monitor going down and up writes deliveries in
// the transaction of the change, the delivery runner sends them to a real loopback receiver
// (Standard Webhooks signature checked with the standardwebhooks package) and a real SMTP sink,
// retries with the same webhook-id, honours 429 + Retry-After, gives up after 24 h with a
// `system` notification to the admins, and two runners on one PostgreSQL never send one twice.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { components } from '../../../src/api/schema.d.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Services } from '../../../src/server/domain/context.ts';
import { createChannel, testChannel } from '../../../src/server/domain/alerts/channels.ts';
import { listDeliveries } from '../../../src/server/domain/alerts/deliveries.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { listNotifications } from '../../../src/server/domain/notifications/service.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { DELIVERY_LEASE_MS, runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { retryAfterMs, sendHttp } from '../../../src/server/notify/outbox/send-http.ts';
import { alertDeliveriesRepo } from '../../../src/server/db/repositories/alert-deliveries-repo.ts';
import { JOBS } from '../../../src/server/jobs/registry.ts';
import { createJobRunner } from '../../../src/server/jobs/runner.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';
import { servicesOn } from '../../support/alert-services.ts';
import { manualClock, seedTenant, type Clock } from '../engine/support.ts';

const HOUR = 3_600_000;
const fixedJitter = { random: () => 0.5 }; // backoff exactly 10 s, 20 s, 40 s, …

describe.each(DB_KINDS)('alerts outbox on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let targets: HttpTargets;
  let receiver: WebhookReceiver;
  let smtp: SmtpSink;
  let clock: Clock;
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let location: { file?: string; url?: string };
  const run = (holder = 'runner-a') => runDeliveries(services, { holder, ...fixedJitter });

  beforeAll(async () => {
    targets = await startHttpTargets();
    receiver = await startWebhookReceiver();
    smtp = await startSmtpSink();
    clock = manualClock();
    location = await newDatabaseLocation(kind);
    services = await servicesOn(location, clock.now, { SMTP_URL: smtp.url });
    engine = createEngine(services);
    services.monitoring = { engine };
    t = await seedTenant(services);
  });
  afterAll(async () => {
    await Promise.all([targets?.close(), receiver?.close(), smtp?.close()]);
    for (const hook of services?.onShutdown ?? []) await hook();
    await services?.db.close();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.always(null);
    receiver.script();
  });

  const deliveriesOf = async (channelId: string) => listDeliveries(t.adminCtx, { channel_id: channelId });

  it('a monitor going down and up: one opened and one resolved delivery per matching channel, signed; none for excluded channels', async () => {
    targets.setUp(true);
    const m = await createMonitor(t.adminCtx, {
      name: 'Checkout API',
      type: 'http',
      url: targets.url('/flaky'),
      interval_seconds: 60,
      timeout_seconds: 2,
      is_public: true,
      // its outage alone is a major outage: critical, as the on-call mail channel asks
      is_critical: true,
    } as never);
    const other = await createMonitor(t.adminCtx, { name: 'Other', type: 'http', url: targets.url('/ok'), interval_seconds: 60 } as never);
    const all = await createChannel(t.adminCtx, {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: receiver.url('/all') },
      events: ['incident.opened', 'incident.resolved'],
      monitor_ids: null,
    });
    const onlyOther = await createChannel(t.adminCtx, {
      name: 'Other only',
      type: 'webhook',
      config: { url: receiver.url('/other') },
      events: ['incident.opened', 'incident.resolved'],
      monitor_ids: [other.id],
    });
    const sslOnly = await createChannel(t.adminCtx, {
      name: 'SSL',
      type: 'webhook',
      config: { url: receiver.url('/ssl') },
      events: ['ssl_warning'],
    });
    const mail = await createChannel(t.adminCtx, {
      name: 'On-call mail',
      type: 'email',
      config: { to: ['oncall@example.com'] },
      events: ['incident.opened', 'incident.resolved'],
      min_severity: 'critical',
    });
    expect(all.secret).toMatch(/^whsec_/);

    await engine.runDueNow();
    targets.setUp(false);
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await engine.runDueNow();
    }
    targets.setUp(true);
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await engine.runDueNow();
    }
    await run();

    const byPath = (p: string) => receiver.received.filter((r) => r.path === p);
    expect(byPath('/other')).toHaveLength(0);
    expect(byPath('/ssl')).toHaveLength(0);
    const got = byPath('/all');
    expect(got).toHaveLength(2);
    const verifier = new Webhook(all.secret!);
    const events = got.map((r) => {
      const payload = verifier.verify(r.body, r.headers as Record<string, string>) as components['schemas']['AlertWebhookPayload'];
      expect(r.headers['webhook-id']).toBe(payload.data.delivery_id);
      expect(payload.data.monitor).toMatchObject({ id: m.id, name: 'Checkout API' });
      expect(payload.data.company).toMatchObject({ id: t.company.id });
      return payload.type;
    });
    expect(events.sort()).toEqual(['incident.opened', 'incident.resolved']);
    // A signature made with another secret is refused by the receiver.
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(got[0].body, got[0].headers as Record<string, string>),
    ).toThrow();

    // The company's users also get their personal e-mail (their preferences' defaults): only the channel's are counted here.
    const channelMails = smtp.mails.filter((x) => x.to.includes('oncall@example.com'));
    expect(channelMails).toHaveLength(2);
    const mailDeliveries = await deliveriesOf(mail.id);
    for (const d of mailDeliveries) {
      expect(d.state).toBe('delivered');
      expect(channelMails.some((x) => x.raw.includes(`Message-ID: <${d.id}@localhost>`))).toBe(true);
    }
    // Branded: the company's name in the subject and its colour in the HTML (quoted-printable unfolded).
    const unfolded = channelMails[0].raw.replace(/=\r?\n/g, '');
    expect(unfolded).toContain(`Subject: [Company ${t.company.subdomain}] Checkout API is`);
    expect(unfolded).toContain('background:#007bff');
    expect(channelMails[0].to).toEqual(['oncall@example.com']);
    expect(channelMails[0].raw).toMatch(/Content-Type: text\/html/);
    expect(channelMails[0].raw).toMatch(/Content-Type: text\/plain/);
    expect((await deliveriesOf(onlyOther.id)).length).toBe(0);
    expect((await deliveriesOf(sslOnly.id)).length).toBe(0);
    expect((await deliveriesOf(all.id)).map((d) => d.state)).toEqual(['delivered', 'delivered']);
    // Running again sends nothing more.
    clock.advance(HOUR);
    expect(await run()).toBe(0);
  });

  it('a receiver answering 500 twice then 200 gets the alert on the 3rd attempt with the same webhook-id; its body is never stored', async () => {
    const ch = await createChannel(t.adminCtx, {
      name: 'Flaky receiver',
      type: 'webhook',
      config: { url: receiver.url('/flaky') },
      events: ['incident.opened'],
    });
    receiver.script({ status: 500 }, { status: 500 }, { status: 200 });
    const { delivery_id } = await testChannel(t.adminCtx, ch.id);
    await run();
    expect(await run()).toBe(0); // not due yet
    clock.advance(10_000);
    await run();
    clock.advance(19_000);
    expect(await run()).toBe(0);
    clock.advance(1_000);
    await run();
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery_id, delivery_id, delivery_id]);
    const [d] = await deliveriesOf(ch.id);
    expect(d).toMatchObject({ id: delivery_id, state: 'delivered', attempts: 3, last_error: null });
    expect(d.attempt_log.map((a) => a.status_code)).toEqual([500, 500, 200]);
    expect(JSON.stringify(d)).not.toContain('receiver secret detail');
    expect(d.attempt_log[0].error).toBe('HTTP 500: the receiver did not accept the alert');
  });

  it('429 with Retry-After is honoured', async () => {
    const ch = await createChannel(t.adminCtx, {
      name: 'Busy receiver',
      type: 'webhook',
      config: { url: receiver.url('/busy') },
      events: ['incident.opened'],
    });
    receiver.script({ status: 429, headers: { 'retry-after': '120' } });
    await testChannel(t.adminCtx, ch.id);
    await run();
    clock.advance(60_000); // past the 10 s backoff, before the receiver's 120 s
    expect(await run()).toBe(0);
    clock.advance(60_000);
    expect(await run()).toBe(1);
    expect(receiver.received).toHaveLength(2);
    const [d] = await deliveriesOf(ch.id);
    expect(d.state).toBe('delivered');
    expect(d.attempt_log[0]).toMatchObject({ status_code: 429, error: 'HTTP 429: the receiver asked to slow down' });
  });

  it('past the 24 h retry window the delivery fails and the admins get a system notification naming the channel', async () => {
    const ch = await createChannel(t.adminCtx, {
      name: 'Dead receiver',
      type: 'webhook',
      config: { url: receiver.url('/dead') },
      events: ['incident.opened'],
    });
    receiver.always(503);
    const started = clock.now();
    await testChannel(t.adminCtx, ch.id);
    let d = (await deliveriesOf(ch.id))[0];
    for (let i = 0; i < 100 && d.state !== 'failed'; i++) {
      clock.advance(HOUR / 2);
      await run();
      d = (await deliveriesOf(ch.id))[0];
    }
    expect(d.state).toBe('failed');
    expect(clock.now() - started).toBeGreaterThan(23 * HOUR);
    expect(clock.now() - started).toBeLessThanOrEqual(25 * HOUR);
    expect(d.attempts).toBeGreaterThan(10);
    expect(d.last_error).toBe('HTTP 503: the receiver did not accept the alert');
    const adminNotes = await listNotifications(t.adminCtx, { notification_type: 'system' });
    expect(adminNotes.map((n) => n.title)).toContain('Alert channel "Dead receiver" failed');
    expect(adminNotes.find((n) => n.title.includes('Dead receiver'))!.message).toContain('HTTP 503');
    const viewerNotes = await listNotifications(t.viewerCtx, { notification_type: 'system' });
    expect(viewerNotes.some((n) => n.title.includes('Dead receiver'))).toBe(false);
    clock.advance(HOUR);
    const before = receiver.received.length;
    await run();
    expect(receiver.received.length).toBe(before); // failed: no more sends
  });

  it('the alert-delivery job of the jobs runner sends due deliveries', async () => {
    const ch = await createChannel(t.adminCtx, {
      name: 'Job',
      type: 'webhook',
      config: { url: receiver.url('/job') },
      events: ['incident.opened'],
    });
    const { delivery_id } = await testChannel(t.adminCtx, ch.id);
    const job = JOBS.find((j) => j.name === 'alert-delivery')!;
    const lines: string[] = [];
    expect(await createJobRunner(services, { jobs: [job], log: (l) => void lines.push(l) }).runDue()).toEqual(['alert-delivery']);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery_id]);
    expect(lines).toEqual(['jobs: alert-delivery: 1 alert deliveries attempted']);
  });

  it('a delivery leased by a process that died is sent by another once the lease runs out, with the same webhook-id', async () => {
    const ch = await createChannel(t.adminCtx, {
      name: 'Crash',
      type: 'webhook',
      config: { url: receiver.url('/crash') },
      events: ['incident.opened'],
    });
    const { delivery_id } = await testChannel(t.adminCtx, ch.id);
    // The dead process took the lease and never finished.
    const taken = await alertDeliveriesRepo(services.db).lease('dead-process', clock.now(), clock.now() + DELIVERY_LEASE_MS, 100);
    expect(taken.map((d) => d.id)).toEqual([delivery_id]);
    expect(await run('survivor')).toBe(0);
    clock.advance(DELIVERY_LEASE_MS);
    expect(await run('survivor')).toBe(1);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery_id]);
    expect((await deliveriesOf(ch.id))[0].state).toBe('delivered');
  });

  it('a send is cut at its deadline, follows no redirect, and reads no more than a capped answer', async () => {
    const hang = http.createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
    const env = { allowPrivateTargets: true, resolve: async () => [], now: clock.now };
    const req = (url: string) => ({ url, method: 'POST' as const, headers: {}, body: '{}' });
    try {
      const started = performance.now();
      const r = await sendHttp(req(`http://127.0.0.1:${(hang.address() as AddressInfo).port}/`), { ...env, timeoutMs: 300 });
      expect(r).toEqual({ statusCode: null, error: 'Timed out after 0.3 s', retryAfterMs: null });
      expect(performance.now() - started).toBeLessThan(3000);
    } finally {
      hang.closeAllConnections();
      hang.close();
    }
    receiver.script({ status: 302, headers: { location: receiver.url('/elsewhere') } });
    const moved = await sendHttp(req(receiver.url('/moved')), env);
    expect(moved.statusCode).toBe(302);
    expect(moved.error).toBe('HTTP 302: the receiver did not accept the alert');
    expect(receiver.received.map((r) => r.path)).toEqual(['/moved']);
    expect(retryAfterMs('Wed, 01 Jun 2033 12:00:00 GMT', Date.UTC(2033, 5, 1, 11, 59, 0))).toBe(60_000);
  });

  it.runIf(kind === 'postgres')('two delivery runners on one PostgreSQL database never send one delivery twice', async () => {
    const ch = await createChannel(t.adminCtx, {
      name: 'Race',
      type: 'webhook',
      config: { url: receiver.url('/race') },
      events: ['incident.opened'],
    });
    const ids = new Set<string>();
    for (let i = 0; i < 60; i++) ids.add((await testChannel(t.adminCtx, ch.id)).delivery_id);
    // A second process: its own pool on the same database.
    const second = await servicesOn(location, clock.now, { SMTP_URL: smtp.url });
    try {
      await Promise.all([
        runDeliveries(services, { holder: 'proc-a' }),
        runDeliveries(second, { holder: 'proc-b' }),
        runDeliveries(services, { holder: 'proc-c' }),
        runDeliveries(second, { holder: 'proc-d' }),
      ]);
      await Promise.all([runDeliveries(services, { holder: 'proc-a' }), runDeliveries(second, { holder: 'proc-b' })]);
    } finally {
      await second.db.close();
    }
    const seen = receiver.received.filter((r) => r.path === '/race').map((r) => String(r.headers['webhook-id']));
    expect(seen.length).toBe(60);
    expect(new Set(seen)).toEqual(ids);
  });
});
