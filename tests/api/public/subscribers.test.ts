// Status-page subscribers over HTTP on both databases, with a real SMTP sink and a real loopback
// webhook receiver: double opt-in with an expiring single-use link, notices of public incidents
// through the outbox (branded, one-click List-Unsubscribe headers that work), no answer that
// tells a subscribed address from a new one, throttles with Retry-After, internal incidents and
// private monitors never reaching subscribers, component choice, the ENABLE_NOTIFICATIONS flag,
// signed webhook subscribers and the SSRF guard, and the admins' list.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDeliveries } from '../../../src/server/notify/outbox/deliver.ts';
import { flagsRepo } from '../../../src/server/db/repositories/flags-repo.ts';
import { maintenanceNotices } from '../../../src/server/jobs/maintenance-notices.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/alerts/webhook-receiver.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startSmtpSink, type Mail, type SmtpSink } from '../../support/smtp-sink.ts';
import { rawRequest, startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { seedMonitor } from './fixtures.ts';
import { waitFor } from '../../support/wait-for.ts';

const HOUR = 3_600_000;
const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DB_KINDS)('status-page subscribers on %s', (kind) => {
  let t: TestApp;
  let strict: TestApp;
  let smtp: SmtpSink;
  let receiver: WebhookReceiver;
  let clock = Date.UTC(2026, 10, 24, 9, 0, 0);
  let admin: ApiClient;
  let viewer: ApiClient;
  let root: ApiClient;
  let visitor: ApiClient;
  let acme: { id: string; subdomain: string };
  let api: { id: string; name: string };
  let web: { id: string; name: string };
  let secret: { id: string; name: string };
  let ipSeq = 0;
  const ACME = 'acme.localhost';

  beforeAll(async () => {
    smtp = await startSmtpSink();
    receiver = await startWebhookReceiver();
    const env = { SMTP_URL: smtp.url, TRUST_PROXY: 'true' };
    t = await startTestApp({ db: kind, now: () => clock, env: { ...env, ALLOW_PRIVATE_TARGETS: 'true' } });
    strict = await startTestApp({ db: kind, now: () => clock, env });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    await seedCompany(strict.services, { name: 'Acme', subdomain: 'acme' });
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'Public API' });
    web = await seedMonitor(t.services.db, acme.id, clock, { name: 'Website' });
    secret = await seedMonitor(t.services.db, acme.id, clock, { name: 'db-primary-10.0.0.7', isPublic: false });
    users = {
      admin: await seedUser(t.services, { userType: 2, companyId: acme.id }),
      viewer: await seedUser(t.services, { userType: 3, companyId: acme.id }),
      root: await seedUser(t.services, { userType: 1 }),
      other: await seedUser(t.services, { userType: 2, companyId: globex.id }),
    };
    await signInAll();
    visitor = t.client();
  });
  /** Sessions follow the test clock: after moving it by hours, sign in again. */
  let users: Record<'admin' | 'viewer' | 'root' | 'other', { email: string; password: string }>;
  let otherAdmin: ApiClient;
  async function signInAll() {
    admin = t.client();
    await signIn(admin, users.admin, ACME);
    viewer = t.client();
    await signIn(viewer, users.viewer, ACME);
    root = t.client();
    await signIn(root, users.root);
    otherAdmin = t.client();
    await signIn(otherAdmin, users.other, 'globex.localhost');
  }
  afterAll(async () => {
    await t?.close();
    await strict?.close();
    await smtp?.close();
    await receiver?.close();
  });

  /** Each call from its own client address unless told (the per-IP throttle is tested apart). */
  const subscribe = (body: unknown, ip = `198.51.100.${++ipSeq % 250}`, app = t) => {
    clock += 2000; // past the status page snapshot's recheck
    return (app === t ? visitor : app.client()).post('/api/v1/public/subscribers/acme', body, {
      host: ACME,
      headers: { 'x-forwarded-for': ip },
    });
  };
  const mailsTo = (addr: string) => smtp.mails.filter((m) => m.to.includes(addr));
  const mailTo = (addr: string, n = 1) => waitFor(() => (mailsTo(addr).length >= n ? mailsTo(addr)[n - 1] : undefined));
  const tokenIn = (m: Mail) => unQp(m.raw).match(/http:\/\/acme\.localhost:\d+\/subscribe\/confirm\/([A-Za-z0-9_-]{43})/)![1];
  // nodemailer folds the long header onto a second line
  const unsubscribeUrlIn = (m: Mail) => unQp(m.raw).match(/^List-Unsubscribe:\s+<(http:\/\/acme\.localhost:\d+\/unsubscribe\/[^>]+)>/m)![1];
  /** A request as a browser or mail provider sends it to a link on the company host. */
  const post = (path: string, body: string, headers: Record<string, string> = {}, host = ACME) =>
    rawRequest(
      `${t.baseUrl}${path}`,
      'POST',
      { host: `${host}:${t.port}`, 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    );
  const confirm = (token: string) => post(`/subscribe/confirm/${token}`, '', { origin: `http://${ACME}:${t.port}` });
  const oneClick = (url: string, headers: Record<string, string> = {}) => {
    const u = new URL(url);
    return post(u.pathname, 'List-Unsubscribe=One-Click', headers, u.hostname);
  };
  const deliver = () => runDeliveries(t.services, { holder: 'test', random: () => 0.5 });
  const incident = async (over: Record<string, unknown> = {}) => {
    const r = await admin.post(
      '/api/v1/incidents',
      { title: 'Checkout errors', severity: 'high', message: 'We are investigating failed payments.', ...over },
      { host: ACME },
    );
    expect(r.status).toBe(201);
    if (over.monitor_id) openOnMonitors.push(r.body.id);
    return r.body.id as string;
  };
  /** A monitor holds one open incident: resolve those of earlier tests (and send their notices) first. */
  let openOnMonitors: string[] = [];
  const settle = async () => {
    for (const id of openOnMonitors)
      await admin.post(`/api/v1/incidents/${id}/updates`, { status: 'resolved', message: 'Fixed.' }, { host: ACME });
    openOnMonitors = [];
    await deliver();
  };
  const subscribed = async (email: string, component_ids?: string[] | null) => {
    const before = mailsTo(email).length;
    expect((await subscribe({ email, component_ids })).status).toBe(202);
    const r = await confirm(tokenIn(await mailTo(email, before + 1)));
    expect(r.headers.get('location')).toBe('/subscribe/confirmed');
  };

  it('a subscriber confirms, receives an incident update, and unsubscribes with one click', async () => {
    const r = await subscribe({ email: 'Reader@Example.com' });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ status: 'pending' });
    const confirmation = await mailTo('reader@example.com');
    expect(confirmation.raw).toMatch(/^Subject: \[Acme\] Confirm your status updates subscription/m);
    expect(confirmation.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

    // Nothing before confirmation.
    const early = await incident();
    await deliver();
    expect(mailsTo('reader@example.com')).toHaveLength(1);

    const done = await confirm(tokenIn(confirmation));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/subscribe/confirmed');

    const u = await admin.post(
      `/api/v1/incidents/${early}/updates`,
      { status: 'identified', message: 'A payment provider is failing; we are switching over.' },
      { host: ACME },
    );
    expect(u.status).toBe(201);
    await deliver();
    const notice = unQp((await mailTo('reader@example.com', 2)).raw);
    expect(notice).toMatch(/^Subject: \[Acme\] Incident update: Checkout errors/m);
    expect(notice).toContain('A payment provider is failing; we are switching over.');
    expect(notice).toContain('Identified');
    expect(notice).toMatch(/^Content-Type: text\/html/m);
    expect(notice).toMatch(/^Content-Type: text\/plain/m);
    expect(notice).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);

    // The provider's one-click POST: no cookie, no Origin, the body RFC 8058 prescribes.
    const gone = await oneClick(unsubscribeUrlIn(await mailTo('reader@example.com', 2)));
    expect(gone.status).toBe(200);
    await admin.post(`/api/v1/incidents/${early}/updates`, { status: 'resolved', message: 'Payments work again.' }, { host: ACME });
    await deliver();
    expect(mailsTo('reader@example.com')).toHaveLength(2);
  });

  it('confirmation links expire after 24 hours, work once, and forged links do nothing', async () => {
    await subscribe({ email: 'late@example.com' });
    const token = tokenIn(await mailTo('late@example.com'));
    clock += 24 * HOUR + 1000;
    await signInAll();
    const late = await confirm(token);
    expect(late.headers.get('location')).toBe(`/subscribe/confirm/${token}`);

    await subscribe({ email: 'once@example.com' });
    const once = tokenIn(await mailTo('once@example.com'));
    expect((await confirm(once)).headers.get('location')).toBe('/subscribe/confirmed');
    expect((await confirm(once)).headers.get('location')).toBe(`/subscribe/confirm/${once}`);

    const forged = 'A'.repeat(43);
    expect((await confirm(forged)).headers.get('location')).toBe(`/subscribe/confirm/${forged}`);

    const list = await admin.get('/api/v1/subscribers', { host: ACME });
    const state = (email: string) => list.body.subscribers.find((s: { email: string }) => s.email === email)?.state;
    expect(state('late@example.com')).toBe('pending');
    expect(state('once@example.com')).toBe('confirmed');

    // An unsubscribe link with another signature, or used on another company's host, does nothing.
    const real = unsubscribeUrlIn(await mailTo('once@example.com'));
    const tampered = real.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await oneClick(tampered)).status).toBe(404);
    expect((await post(new URL(real).pathname, 'List-Unsubscribe=One-Click', {}, 'globex.localhost')).status).toBe(404);
    const after = await admin.get('/api/v1/subscribers', { host: ACME });
    expect(after.body.subscribers.find((s: { email: string }) => s.email === 'once@example.com').state).toBe('confirmed');
  });

  it('answers the same for a new, a pending and a confirmed address, and mails only those not yet confirmed', async () => {
    await subscribed('known@example.com');
    const mailsBefore = mailsTo('known@example.com').length;
    const known = await subscribe({ email: 'known@example.com' });
    const fresh = await subscribe({ email: 'fresh@example.com' });
    expect(known.status).toBe(fresh.status);
    expect(known.body).toEqual(fresh.body);
    await mailTo('fresh@example.com'); // asked after the known one: a mail to that would be in by now
    expect(mailsTo('known@example.com')).toHaveLength(mailsBefore);

    // Pending: asking again sends a new link and the old one stops working.
    const first = tokenIn(await mailTo('fresh@example.com'));
    await subscribe({ email: 'fresh@example.com' });
    const second = tokenIn(await mailTo('fresh@example.com', 2));
    expect(second).not.toBe(first);
    expect((await confirm(first)).headers.get('location')).toBe(`/subscribe/confirm/${first}`);
    expect((await confirm(second)).headers.get('location')).toBe('/subscribe/confirmed');
  });

  it('throttles per address (3 mails an hour) and per client IP (20 requests an hour) with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await subscribe({ email: 'flood@example.com' })).status).toBe(202);
    const fourth = await subscribe({ email: 'flood@example.com' });
    expect(fourth.status).toBe(429);
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0);
    await mailTo('flood@example.com', 3);
    expect(mailsTo('flood@example.com')).toHaveLength(3);

    const ip = '203.0.113.99';
    for (let i = 0; i < 20; i++) expect((await subscribe({ email: `ip${i}@example.com` }, ip)).status).toBe(202);
    const over = await subscribe({ email: 'ip-last@example.com' }, ip);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('sends nothing about internal incidents or private monitors, and uses the public texts only', async () => {
    await subscribed('careful@example.com');
    const n = mailsTo('careful@example.com').length;
    await incident({ title: 'Internal: rotate db creds', is_public: false });
    await incident({ title: 'Replica lag', monitor_id: secret.id });
    await deliver();
    expect(mailsTo('careful@example.com')).toHaveLength(n);

    await incident({ title: 'Slow API', monitor_id: api.id, message: 'Responses are slow.' });
    await deliver();
    const mail = unQp((await mailTo('careful@example.com', n + 1)).raw);
    expect(mail).toContain('Slow API');
    expect(mail).toContain('Public API');
    expect(mail).not.toContain('db-primary');
    expect(mail).not.toContain('example.com/health'); // the monitor's target
  });

  it('sends a subscriber only the components they chose (company-wide incidents to everyone)', async () => {
    await subscribed('web-only@example.com', [web.id]);
    await settle();
    const n = mailsTo('web-only@example.com').length;
    await incident({ title: 'API errors', monitor_id: api.id });
    await deliver();
    expect(mailsTo('web-only@example.com')).toHaveLength(n);
    await incident({ title: 'Website slow', monitor_id: web.id });
    await incident({ title: 'Everything is slow' });
    await deliver();
    const subjects = mailsTo('web-only@example.com')
      .slice(n)
      .map((m) => unQp(m.raw).match(/^Subject: (.*)$/m)![1]);
    expect(subjects.sort()).toEqual(['[Acme] New incident: Everything is slow', '[Acme] New incident: Website slow']);

    const bad = await subscribe({ email: 'bad@example.com', component_ids: [secret.id] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('component_ids');
  });

  it('registers a webhook subscriber at once with a whsec_ secret, signs its notices, and refuses private addresses unless allowed', async () => {
    const refused = await subscribe({ webhook_url: 'http://127.0.0.1:9/hook' }, undefined, strict);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveProperty('webhook_url');
    for (const url of ['http://10.0.0.5/x', 'http://169.254.169.254/latest', 'http://localhost/x']) {
      expect((await subscribe({ webhook_url: url }, undefined, strict)).status, url).toBe(400);
    }

    const r = await subscribe({ webhook_url: receiver.url('/status'), component_ids: [api.id] });
    expect(r.status).toBe(202);
    expect(r.body.status).toBe('confirmed');
    expect(r.body.secret).toMatch(/^whsec_/);
    await settle();
    receiver.received.length = 0;
    await incident({ title: 'API down', monitor_id: api.id, message: 'The API answers 503.' });
    await deliver();
    const got = receiver.received.filter((x) => x.path === '/status');
    expect(got).toHaveLength(1);
    const payload = new Webhook(r.body.secret).verify(got[0].body, got[0].headers as Record<string, string>) as {
      type: string;
      data: { title: string; message: string; components: unknown[]; unsubscribe_url: string };
    };
    expect(payload.type).toBe('status.incident.created');
    expect(payload.data).toMatchObject({
      title: 'API down',
      message: 'The API answers 503.',
      components: [{ id: api.id, name: 'Public API' }],
    });
    expect(payload.data.unsubscribe_url).toBe(r.body.unsubscribe_url);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(got[0].body, got[0].headers as Record<string, string>),
    ).toThrow();

    expect((await oneClick(r.body.unsubscribe_url, { origin: 'https://mail.example.net', 'sec-fetch-site': 'cross-site' })).status).toBe(
      200,
    );
    await settle();
    await incident({ title: 'API down again', monitor_id: api.id });
    await deliver();
    expect(receiver.received.filter((x) => x.path === '/status')).toHaveLength(1);
  });

  it("sends one subscriber's notices in the order they happened, one after another", async () => {
    const r = await subscribe({ webhook_url: receiver.url('/ordered') });
    expect(r.status).toBe(202);
    await settle();
    receiver.received.length = 0;
    // four notices of one incident are due together; the receiver takes 150 ms to answer each
    const id = await incident({ title: 'Slow checkout' });
    for (const status of ['identified', 'monitoring', 'resolved']) {
      clock += 1000;
      expect((await admin.post(`/api/v1/incidents/${id}/updates`, { status, message: `Now ${status}.` }, { host: ACME })).status).toBe(201);
    }
    receiver.delay(150);
    try {
      await deliver();
    } finally {
      receiver.delay(0);
    }
    const got = receiver.received.filter((x) => x.path === '/ordered');
    const statuses = got.map((x) => (JSON.parse(x.body) as { data: { status: string } }).data.status);
    expect(statuses).toEqual(['investigating', 'identified', 'monitoring', 'resolved']);
    // each one left after the previous one was answered
    for (let i = 1; i < got.length; i++) expect(got[i].at - got[i - 1].at).toBeGreaterThanOrEqual(140);
    expect((await oneClick(r.body.unsubscribe_url)).status).toBe(200);
  });

  it('tells subscribers of maintenance scheduled, started and ended', async () => {
    await subscribed('maint@example.com');
    const n = mailsTo('maint@example.com').length;
    const starts = clock + HOUR;
    const w = await admin.post(
      '/api/v1/maintenance-windows',
      {
        title: 'Database upgrade',
        description: 'Writes pause for a minute.',
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + HOUR).toISOString(),
      },
      { host: ACME },
    );
    expect(w.status).toBe(201);
    await maintenanceNotices.run(t.services, clock); // the job's first run marks where it starts
    await deliver();
    clock = starts + 60_000;
    await maintenanceNotices.run(t.services, clock);
    await maintenanceNotices.run(t.services, clock + 1000); // overlapping runs send once
    await deliver();
    clock = starts + HOUR + 60_000;
    await maintenanceNotices.run(t.services, clock);
    await deliver();
    await signInAll();
    const subjects = mailsTo('maint@example.com')
      .slice(n)
      .map((m) => unQp(m.raw).match(/^Subject: (.*)$/m)![1]);
    expect(subjects).toEqual([
      '[Acme] Scheduled maintenance: Database upgrade',
      '[Acme] Maintenance in progress: Database upgrade',
      '[Acme] Maintenance completed: Database upgrade',
    ]);
  });

  it('shows admins their subscribers and counts; viewers and other companies see none; only super admins remove', async () => {
    const list = await admin.get('/api/v1/subscribers', { host: ACME });
    expect(list.status).toBe(200);
    expect(list.body.counts.confirmed).toBeGreaterThan(0);
    expect(list.body.enabled).toBe(true);
    const one = list.body.subscribers[0];
    expect((await viewer.get('/api/v1/subscribers', { host: ACME })).status).toBe(403);
    const other = await otherAdmin.get('/api/v1/subscribers?tenant=' + acme.id, { host: 'globex.localhost' });
    expect(other.status).toBe(200);
    expect(other.body.subscribers).toEqual([]);
    expect(other.body.counts).toEqual({ pending: 0, confirmed: 0, unsubscribed: 0 });
    expect((await admin.delete(`/api/v1/subscribers/${one.id}`, { host: ACME })).status).toBe(403);
    expect((await root.delete(`/api/v1/subscribers/${one.id}`)).status).toBe(204);
    expect((await root.delete(`/api/v1/subscribers/${one.id}`)).status).toBe(404);
  });

  it('with ENABLE_NOTIFICATIONS off: subscribing answers 404 and no notices go out', async () => {
    await subscribed('flagged@example.com');
    const n = mailsTo('flagged@example.com').length;
    await flagsRepo(t.services.db).upsert('ENABLE_NOTIFICATIONS', false, clock, 'test');
    try {
      const r = await subscribe({ email: 'new-while-off@example.com' });
      expect(r.status).toBe(404);
      await incident({ title: 'Quiet incident' });
      await deliver();
      expect(mailsTo('flagged@example.com')).toHaveLength(n);
      const list = await admin.get('/api/v1/subscribers', { host: ACME });
      expect(list.body.enabled).toBe(false);
    } finally {
      await flagsRepo(t.services.db).upsert('ENABLE_NOTIFICATIONS', true, clock, 'test');
    }
  });

  it('refuses cross-site confirmation posts but lets one-click unsubscribes through the same-origin guard', async () => {
    await subscribe({ email: 'xsite@example.com' });
    const m = await mailTo('xsite@example.com');
    const r = await post(`/subscribe/confirm/${tokenIn(m)}`, '', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(r.status).toBe(403);
    const u = await oneClick(unsubscribeUrlIn(m), { origin: 'https://mail.example.net', 'sec-fetch-site': 'cross-site' });
    expect(u.status).toBe(200);
  });
});
