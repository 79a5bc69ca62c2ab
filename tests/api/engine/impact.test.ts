// Honest status (issue 25 item 1), with the real engine on both databases: five public monitors
// (two HTTP, a TCP, a push and one "Certificate" monitor whose target refuses connections).
// One of five down once painted the whole page "Major Service Outage" because every automatic
// incident opened as critical; now it is a partial outage on every surface (headline, badge,
// status.json/summary.json, feed, the public call, the alert), every monitor down is a major
// outage, a monitor its admin marks critical makes its outage alone major, and an admin changes
// an incident's impact (older clients through its severity). Item 2: the branded sign-in list
// gives the state of monitors without an HTTP code.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { manualClock, type Clock } from './support.ts';

/** A loopback port nothing listens on: bound, then closed (connecting to it is refused). */
async function refusingPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe.each(DB_KINDS)('the impact of an outage on %s', (kind) => {
  let t: TestApp;
  let engine: Engine;
  let http: HttpTargets;
  let tcp: net.Server;
  let tcpPort: number;
  let receiver: WebhookReceiver;
  let clock: Clock;

  beforeAll(async () => {
    http = await startHttpTargets();
    receiver = await startWebhookReceiver();
    tcp = net.createServer((s) => s.end());
    await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
    tcpPort = (tcp.address() as net.AddressInfo).port;
    clock = manualClock(Date.UTC(2026, 10, 29, 6, 0, 30));
    t = await startTestApp({
      db: kind,
      now: clock.now,
      withPages: true,
      env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' },
    });
    engine = createEngine(t.services);
  });
  afterAll(async () => {
    await engine?.stop();
    await t?.close();
    await Promise.all([http?.close(), receiver?.close(), new Promise((r) => tcp?.close(r))]);
  });

  /** A company with its signed-in admin and a webhook channel for incident alerts. */
  async function company(name: string) {
    const co = await seedCompany(t.services, { name, plan: 'enterprise' });
    const host = `${co.subdomain}.${t.config.productDomain}`;
    const admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: co.id }));
    const hook = await admin.post('/api/v1/alert-channels', {
      name: 'Ops hook',
      type: 'webhook',
      config: { url: receiver.url(`/${co.subdomain}`) },
      events: ['incident.opened'],
    });
    expect(hook.status, hook.text).toBe(201);
    const monitor = async (body: Record<string, unknown>) => {
      const r = await admin.post('/api/v1/monitors', {
        interval_seconds: 60,
        timeout_seconds: 2,
        confirmations: 1,
        is_public: true,
        ...body,
      });
      expect(r.status, r.text).toBe(201);
      return r.body as { id: string; push_url: string | null; is_critical: boolean };
    };
    return { co, host, admin, monitor };
  }

  /** Two rounds of checks a minute apart (a new monitor is checked at once, then at its interval). */
  async function checkAll() {
    await engine.runDueNow();
    clock.advance(60_000);
    await engine.runDueNow();
  }

  /** What every surface says about the page (past the snapshot's one-second revalidation). */
  async function surfaces(subdomain: string, host: string) {
    clock.advance(1500);
    const c = t.client();
    const [html, status, summary, badge, spec, rss] = await Promise.all([
      c.get('/', { host }),
      c.get('/api/v2/status.json', { host }),
      c.get('/api/v2/summary.json', { host }),
      c.get('/badges/status.json', { host }),
      c.get(`/api/v1/public/public-status/${subdomain}`),
      c.get('/history.rss', { host }),
    ]);
    for (const r of [html, status, summary, badge, spec, rss]) expect(r.status, r.text).toBe(200);
    return {
      headline: /<h2 id="overall-text">([^<]*)<\/h2>/.exec(html.text)?.[1],
      page: /data-overall="([a-z]+)"/.exec(html.text)?.[1],
      status: status.body.status,
      summary: summary.body.status,
      badge: badge.body.message,
      overall: [spec.body.overall_status, spec.body.overall_description],
      feed: /<description>Incidents affecting [^<]*Current status: ([^<]*)<\/description>/.exec(rss.text)?.[1],
      components: Object.fromEntries(summary.body.components.map((x: { name: string; status: string }) => [x.name, x.status])),
      incidents: summary.body.incidents.map((i: { name: string; impact: string }) => [i.name, i.impact]),
    };
  }

  /** The alerts the company's webhook received: what each says of severity and impact. */
  async function alerts(subdomain: string) {
    await runDeliveries(t.services, { holder: 'test' });
    return receiver.received
      .filter((r) => r.path === `/${subdomain}`)
      .map((r) => JSON.parse(r.body).data)
      .map((d: { title: string; severity: string; incident: { impact: string } }) => [d.title, d.severity, d.incident.impact]);
  }

  const PARTIAL = { indicator: 'major', description: 'Partial System Outage' };
  const MAJOR = { indicator: 'critical', description: 'Major Service Outage' };

  it('one of five monitors down is a partial outage on every surface and in its alert; the sign-in list gives each kind its badge', async () => {
    const { co, host, admin, monitor } = await company('Five Services');
    await monitor({ name: 'Website', type: 'http', url: http.url('/ok') });
    await monitor({ name: 'API', type: 'http', url: http.url('/ok') });
    await monitor({ name: 'Database', type: 'tcp', host: '127.0.0.1', port: tcpPort });
    const backups = await monitor({ name: 'Backups', type: 'push', interval_seconds: 3600 });
    const cert = await monitor({ name: 'Certificate', type: 'http', url: `https://127.0.0.1:${await refusingPort()}/` });
    expect(cert.is_critical).toBe(false); // the default
    expect((await t.client().get(`/api/v1/push/${backups.push_url!.split('/').pop()}`)).status).toBe(200);
    await checkAll();

    const listed = await admin.get('/api/v1/incidents?status=open');
    expect(
      listed.body.map((i: { title: string; automatic: boolean; severity: string; impact: string }) => [
        i.title,
        i.automatic,
        i.severity,
        i.impact,
      ]),
    ).toEqual([['Certificate is down', true, 'high', 'major']]);
    expect(await surfaces(co.subdomain, host)).toEqual({
      headline: 'Partial System Outage',
      page: 'degraded',
      status: PARTIAL,
      summary: PARTIAL,
      badge: 'partial system outage',
      overall: ['degraded', 'Partial System Outage'],
      feed: 'Partial System Outage',
      components: {
        Website: 'operational',
        API: 'operational',
        Database: 'operational',
        Backups: 'operational',
        Certificate: 'partial_outage',
      },
      incidents: [['Certificate is down', 'major']],
    });
    expect(await alerts(co.subdomain)).toEqual([['Certificate is down', 'high', 'major']]);
    const notices = await admin.get('/api/v1/notifications');
    expect(notices.body.map((n: { title: string; severity: string }) => [n.title, n.severity])).toContainEqual([
      'Certificate is down',
      'high',
    ]);

    // item 2: the HTTP monitor keeps the spec's code; TCP and push give their state
    const login = await t.client().get(`/api/v1/public/public-status/${co.subdomain}`);
    const byName = Object.fromEntries(
      login.body.public_monitors.map((m: { domain: string; status: number | null; current_status: string; reports_http_code: boolean }) => [
        m.domain,
        [m.reports_http_code, m.status, m.current_status],
      ]),
    );
    expect(byName).toEqual({
      Website: [true, 200, 'operational'],
      API: [true, 200, 'operational'],
      Database: [false, null, 'operational'],
      Backups: [false, null, 'operational'],
      Certificate: [true, null, 'down'],
    });
  });

  it('an admin changes the impact (older clients by the severity): the page follows; viewers and bad values are refused', async () => {
    const { co, host, admin, monitor } = await company('Impact Co');
    for (const name of ['Website', 'API', 'Docs', 'Shop']) await monitor({ name, type: 'http', url: http.url('/ok') });
    await monitor({ name: 'Certificate', type: 'tcp', host: '127.0.0.1', port: await refusingPort() });
    await checkAll();
    const [incident] = (await admin.get('/api/v1/incidents?status=open')).body as Array<{ id: string }>;
    expect((await surfaces(co.subdomain, host)).headline).toBe('Partial System Outage');

    const raised = await admin.patch(`/api/v1/incidents/${incident.id}`, { impact: 'critical' });
    expect(raised.status, raised.text).toBe(200);
    expect([raised.body.impact, raised.body.severity]).toEqual(['critical', 'critical']);
    expect(await surfaces(co.subdomain, host)).toMatchObject({
      headline: 'Major Service Outage',
      page: 'down',
      status: MAJOR,
      summary: MAJOR,
      badge: 'major service outage',
      overall: ['down', 'Major Service Outage'],
      feed: 'Major Service Outage',
      components: { Certificate: 'major_outage' },
      incidents: [['Certificate is down', 'critical']],
    });

    // an older client sends the severity: medium reads minor, the monitor's outage a degradation
    const lowered = await admin.patch(`/api/v1/incidents/${incident.id}`, { severity: 'medium' });
    expect([lowered.body.impact, lowered.body.severity]).toEqual(['minor', 'medium']);
    expect(await surfaces(co.subdomain, host)).toMatchObject({
      headline: 'Some Systems Degraded',
      summary: { indicator: 'minor', description: 'Some Systems Degraded' },
      overall: ['degraded', 'Some Systems Degraded'],
      components: { Certificate: 'degraded_performance' },
      incidents: [['Certificate is down', 'minor']],
    });

    const bad = await admin.patch(`/api/v1/incidents/${incident.id}`, { impact: 'apocalyptic' });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toMatch(/application\/problem\+json/);
    const viewer = new ApiClient(t.baseUrl, host);
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: co.id }));
    expect((await viewer.patch(`/api/v1/incidents/${incident.id}`, { impact: 'critical' })).status).toBe(403);
    // a manual incident is written with an impact (or a severity, as before)
    const manual = await admin.post('/api/v1/incidents', { title: 'Slow search', impact: 'minor', message: 'Looking into it' });
    expect(manual.status, manual.text).toBe(201);
    expect([manual.body.impact, manual.body.severity]).toEqual(['minor', 'medium']);
    const neither = await admin.post('/api/v1/incidents', { title: 'No impact', message: 'x' });
    expect(neither.status).toBe(400);
    expect(neither.body.errors).toEqual({ impact: 'Impact is required' });
    expect((await admin.get(`/api/v1/incidents/${incident.id}`)).body.impact).toBe('minor');
  });

  it('a monitor marked critical makes its outage alone a major outage; every monitor down is one too', async () => {
    const { co, host, admin, monitor } = await company('Critical Co');
    for (const name of ['Website', 'API', 'Docs', 'Shop']) await monitor({ name, type: 'http', url: http.url('/ok') });
    const payments = await monitor({ name: 'Payments', type: 'tcp', host: '127.0.0.1', port: await refusingPort(), is_critical: true });
    expect(payments.is_critical).toBe(true);
    await checkAll();
    expect(await surfaces(co.subdomain, host)).toMatchObject({
      headline: 'Major Service Outage',
      status: MAJOR,
      badge: 'major service outage',
      overall: ['down', 'Major Service Outage'],
      components: { Payments: 'major_outage', Website: 'operational' },
      incidents: [['Payments is down', 'critical']],
    });
    expect(await alerts(co.subdomain)).toEqual([['Payments is down', 'critical', 'critical']]);
    // no longer critical: its open incident is regraded with it, and the page reads a partial outage
    const unmarked = await admin.put(`/api/v1/monitors/${payments.id}`, { is_critical: false });
    expect(unmarked.body.is_critical).toBe(false);
    expect(await surfaces(co.subdomain, host)).toMatchObject({
      headline: 'Partial System Outage',
      incidents: [['Payments is down', 'major']],
    });
    expect((await admin.put(`/api/v1/monitors/${payments.id}`, { is_critical: true })).body.is_critical).toBe(true);
    expect((await surfaces(co.subdomain, host)).headline).toBe('Major Service Outage');

    const all = await company('All Down');
    for (const name of ['Website', 'API', 'Docs']) await all.monitor({ name, type: 'tcp', host: '127.0.0.1', port: await refusingPort() });
    await checkAll();
    expect(await surfaces(all.co.subdomain, all.host)).toMatchObject({
      headline: 'Major Service Outage',
      page: 'down',
      status: MAJOR,
      summary: MAJOR,
      badge: 'major service outage',
      overall: ['down', 'Major Service Outage'],
      feed: 'Major Service Outage',
      components: { Website: 'partial_outage', API: 'partial_outage', Docs: 'partial_outage' },
    });
  });
});
