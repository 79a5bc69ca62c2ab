// One cause, one notification, on both databases: a certificate monitor checks a real loopback
// TLS server whose certificate is self-signed and expires in 29 days, through the real engine,
// the TLS analysis and the notification pipeline (in-app notifications, a real SMTP sink for the
// e-mail channel and the users' personal mail, a loopback webhook receiver). The incident's one
// notification reaches each person and channel once; "Certificate … is invalid", the analysis's
// "TLS problem …" and "expires in 29 days" are in the incident's thread instead, whether the
// analysis runs after the incident opened or while the failure was still being confirmed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx, Services } from '../../../src/server/domain/context.ts';
import { createChannel } from '../../../src/server/domain/alerts/channels.ts';
import { getIncident, listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { listNotifications, putPreferences } from '../../../src/server/domain/notifications/service.ts';
import { analyseTlsTarget } from '../../../src/server/domain/security/ssl-analysis.ts';
import { tlsTarget } from '../../../src/server/domain/security/ssl-targets.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { startTlsTargets, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';
import { actorFor, ctxFor, seedUser } from '../../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { engineServices, manualClock, seedTenant, type Clock } from '../engine/support.ts';

const unfold = (raw: string) => raw.replace(/=\r?\n/g, '');

describe.each(DB_KINDS)('related signals merge into the incident on %s', (kind) => {
  let services: Services;
  let engine: Engine;
  let clock: Clock;
  let tls: TlsTargets;
  let smtp: SmtpSink;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    [tls, smtp, hooks] = await Promise.all([startTlsTargets(), startSmtpSink(), startWebhookReceiver()]);
    // The self-signed certificate was made now, valid for 30 days: 29 whole days are left.
    clock = manualClock(Date.now());
    services = await engineServices(kind, { SMTP_URL: smtp.url }, clock.now);
    // The test CA is trusted (the `expiring` server's certificate is valid); the self-signed one is not.
    services.monitoring = { extraCa: [tls.caPem] };
    engine = createEngine(services);
    services.monitoring.engine = engine;
  });
  afterAll(async () => {
    await Promise.all([tls?.close(), smtp?.close(), hooks?.close()]);
    for (const hook of services?.onShutdown ?? []) await hook();
    await services?.db.close();
  });

  /**
   * A company with an admin and a viewer (both want incidents and SSL warnings in-app and by
   * mail), a webhook and an e-mail channel taking both; and those the incident does not reach: a
   * viewer who wants SSL warnings but not incidents, and a webhook taking only SSL warnings.
   */
  async function company(name: string) {
    const t = await seedTenant(services);
    const sslOnly = await seedUser(services, { userType: 3, companyId: t.company.id });
    const sslOnlyCtx = ctxFor(services, actorFor(sslOnly)) as Ctx;
    await putPreferences(sslOnlyCtx, { monitor_incidents: false });
    await createChannel(t.adminCtx, {
      name: 'Certificates',
      type: 'webhook',
      config: { url: hooks.url(`/${name}-ssl`) },
      events: ['ssl_warning'],
    });
    await createChannel(t.adminCtx, {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: hooks.url(`/${name}`) },
      events: ['incident.opened', 'ssl_warning'],
    });
    await createChannel(t.adminCtx, {
      name: 'On-call mail',
      type: 'email',
      config: { to: [`oncall-${name}@example.com`] },
      events: ['incident.opened', 'ssl_warning'],
    });
    const monitor = await createMonitor(t.adminCtx, {
      name: 'TLS cert',
      type: 'ssl',
      host: 'localhost',
      port: tls.port.selfSigned,
      interval_seconds: 60,
      timeout_seconds: 5,
      is_public: true,
    } as never);
    return { ...t, name, monitor, sslOnly, sslOnlyCtx };
  }

  const check = async () => {
    clock.advance(60_000);
    await engine.runDueNow();
  };
  const analyse = async (ctx: Ctx, companyId: string, monitorId: string) => {
    const target = await tlsTarget(services.db, companyId, monitorId);
    expect(target).toBeDefined();
    const { opened } = await analyseTlsTarget(services, target!);
    expect(opened).toContain('tls.cert.untrusted');
    return ctx;
  };

  /** What each person and channel of the company got, and the incident's thread. */
  async function outcome(c: Awaited<ReturnType<typeof company>>) {
    await runDeliveries(services, { holder: 'test', random: () => 0.5 });
    const [incident] = await listIncidents(c.adminCtx, { status: 'open' });
    expect(incident).toMatchObject({ title: 'TLS cert is down', monitor_id: c.monitor.id });
    const mailsTo = (address: string) => smtp.mails.filter((m) => m.to.includes(address)).map((m) => unfold(m.raw));
    const subjects = (address: string) => mailsTo(address).map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1]);
    return {
      incident,
      inApp: {
        admin: (await listNotifications(c.adminCtx, {})).map((n) => n.title),
        viewer: (await listNotifications(c.viewerCtx, {})).map((n) => n.title),
      },
      sslOnly: {
        inApp: (await listNotifications(c.sslOnlyCtx, {})).map((n) => n.title),
        mail: subjects(c.sslOnly.email),
        webhook: hooks.received.filter((r) => r.path === `/${c.name}-ssl`).map((r) => JSON.parse(r.body).data.title as string),
      },
      webhook: hooks.received.filter((r) => r.path === `/${c.name}`).map((r) => JSON.parse(r.body).type as string),
      channelMail: subjects(`oncall-${c.name}@example.com`),
      personalMail: { admin: subjects(c.admin.email), viewer: subjects(c.viewer.email) },
      thread: (await getIncident(c.adminCtx, incident.id)).signals,
    };
  }

  function expectOneNotificationEach(got: Awaited<ReturnType<typeof outcome>>, companyName: string, firstSignal: RegExp) {
    expect(got.inApp).toEqual({ admin: ['TLS cert is down'], viewer: ['TLS cert is down'] });
    expect(got.webhook).toEqual(['incident.opened']);
    expect(got.channelMail).toEqual([`[${companyName}] TLS cert is down`]);
    expect(got.personalMail).toEqual({ admin: [`[${companyName}] TLS cert is down`], viewer: [`[${companyName}] TLS cert is down`] });
    // Those the incident did not reach get the thread's first signal, once.
    expect(got.sslOnly.inApp).toHaveLength(1);
    expect(got.sslOnly.inApp[0]).toMatch(firstSignal);
    expect(got.sslOnly.mail).toEqual([`[${companyName}] ${got.sslOnly.inApp[0]}`]);
    expect(got.sslOnly.webhook).toEqual(got.sslOnly.inApp);
    const titles = got.thread.map((s) => s.title);
    expect(titles).toContain('Certificate of TLS cert is invalid');
    expect(titles).toContain('Certificate of TLS cert expires in 29 days');
    expect(
      titles.some((t) => t === 'TLS problem on TLS cert: The certificate is self-signed' || /^\d+ new TLS problems on TLS cert$/.test(t)),
    ).toBe(true);
    expect(got.thread).toHaveLength(3);
    const problems = got.thread.find((s) => s.title.includes('TLS problem'))!;
    expect(problems).toMatchObject({ type: 'ssl_warning' });
    expect(problems.message).toContain('The certificate is self-signed');
  }

  it('the analysis after the incident opened: its problem and expiry warning join the thread, nobody is told twice', async () => {
    const c = await company('after');
    await engine.runDueNow();
    await check(); // the second failing check confirms the failure: the incident opens
    clock.advance(30_000);
    await analyse(c.adminCtx, c.company.id, c.monitor.id);
    const got = await outcome(c);
    expectOneNotificationEach(got, `Company ${c.company.subdomain}`, /^Certificate of TLS cert is invalid$/);
    expect(got.thread.map((s) => s.title)[0]).toBe('Certificate of TLS cert is invalid');
  });

  it('an https monitor refused the certificate: the analysis of it joins the thread too', async () => {
    const t = await seedTenant(services);
    const m = await createMonitor(t.adminCtx, {
      name: 'Shop',
      type: 'http',
      url: `https://localhost:${tls.port.selfSigned}/`,
      interval_seconds: 60,
      timeout_seconds: 5,
      confirmations: 1,
    } as never);
    await engine.runDueNow();
    const [incident] = await listIncidents(t.adminCtx, { status: 'open', monitor_id: m.id });
    expect(incident).toMatchObject({ title: 'Shop is down' });
    clock.advance(30_000);
    await analyse(t.adminCtx, t.company.id, m.id);
    expect((await listNotifications(t.viewerCtx, {})).map((n) => n.message)).toEqual(['Shop is down: Self-signed certificate']);
    const thread = (await getIncident(t.adminCtx, incident.id)).signals.map((s) => s.title);
    expect(thread).toHaveLength(2);
    expect(thread).toContain('Certificate of Shop expires in 29 days');
    expect(thread.some((x) => /^(TLS problem on Shop: The certificate is self-signed|\d+ new TLS problems on Shop)$/.test(x))).toBe(true);
  });

  it('a warning about another cause is sent: an expiring certificate while the page fails its keyword', async () => {
    const t = await seedTenant(services);
    const m = await createMonitor(t.adminCtx, {
      name: 'Store',
      type: 'http',
      url: `https://localhost:${tls.port.expiring}/`,
      keyword: 'never in the page',
      interval_seconds: 60,
      timeout_seconds: 5,
      confirmations: 1,
    } as never);
    await engine.runDueNow();
    const [incident] = await listIncidents(t.adminCtx, { status: 'open', monitor_id: m.id });
    expect(incident).toMatchObject({ title: 'Store is down' });
    clock.advance(30_000);
    const target = await tlsTarget(services.db, t.company.id, m.id);
    await analyseTlsTarget(services, target!);
    expect((await listNotifications(t.viewerCtx, {})).map((n) => n.title).sort()).toEqual([
      'Certificate of Store expires in 10 days',
      'Store is down',
      'TLS problem on Store: CBC cipher suites with SHA-1 are accepted',
    ]);
    expect((await getIncident(t.adminCtx, incident.id)).signals).toEqual([]);
  });

  it('the analysis while the failure is being confirmed: its signals are held, and the incident takes them in', async () => {
    const c = await company('before');
    await engine.runDueNow(); // the first failing check: not confirmed, no incident yet
    expect(await listIncidents(c.adminCtx, { status: 'open' })).toEqual([]);
    await analyse(c.adminCtx, c.company.id, c.monitor.id);
    await runDeliveries(services, { holder: 'test', random: () => 0.5 });
    expect(await listNotifications(c.adminCtx, {})).toEqual([]);
    expect(await listNotifications(c.sslOnlyCtx, {})).toEqual([]);
    await check();
    // The first held signal is one of the analysis's (both came at the same moment).
    expectOneNotificationEach(
      await outcome(c),
      `Company ${c.company.subdomain}`,
      /^(Certificate of TLS cert expires in 29 days|TLS problem on TLS cert: .*|\d+ new TLS problems on TLS cert)$/,
    );
  });
});
