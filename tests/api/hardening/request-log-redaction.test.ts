// The request log holds no working credential (issue 25 item 15): the server logs every request
// at level info, and each link that carries a secret (a push URL, a private page's share link,
// a sign-in handoff code, a subscriber's confirm and unsubscribe links, an invitation, password
// reset, signup, unlock or acknowledge link) is logged with that secret replaced by [redacted],
// the rest of the URL kept. Real credentials issued by the server through its own calls and
// mails (real SMTP sink), the log as the server's logger wrote it. Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { waitFor } from '../../support/wait-for.ts';

const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DB_KINDS)('credentials in the request log on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let acmeHost: string;
  let acmeId: string;
  let admin: ApiClient;
  let root: ApiClient;
  let adminUser: { email: string; password: string };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, logLevel: 'info', env: { SMTP_URL: smtp.url } });
    const acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'enterprise' });
    acmeId = acme.id;
    acmeHost = `acme.${t.config.productDomain}`;
    adminUser = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'admin@acme.example.com' });
    admin = new ApiClient(t.baseUrl, acmeHost);
    await signIn(admin, adminUser);
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const mailTo = (email: string) => waitFor(() => smtp.mails.find((m) => m.to.includes(email)));
  /** The URLs of the logged requests, as the log lines say them. */
  const loggedUrls = () =>
    t.errorLog
      .map((line) => JSON.parse(line) as { msg?: string; req?: { url?: string } })
      .filter((l) => l.msg === 'incoming request')
      .map((l) => l.req?.url ?? '');

  it('logs every credential-bearing link with its secret redacted and the rest of the URL kept', async () => {
    const secrets: string[] = [];

    // a push monitor's URL, by GET and POST
    const push = await admin.post('/api/v1/monitors', { name: 'Nightly backup', type: 'push', interval_seconds: 3600, is_public: false });
    expect(push.status, push.text).toBe(201);
    const pushToken = new URL(push.body.push_url).pathname.split('/').pop()!;
    secrets.push(pushToken);
    expect((await t.client().get(`/api/v1/push/${pushToken}`)).body).toEqual({ ok: true });
    expect((await t.client().post(`/api/v1/push/${pushToken}`)).status).toBe(200);

    // a private page's share link
    expect((await admin.put('/api/v1/status-page/access', { mode: 'password', password: 'open sesame 1' })).status).toBe(200);
    const share = await admin.post('/api/v1/status-page/share-links', { expires_in_hours: 2, label: 'Auditor' });
    expect(share.status, share.text).toBe(201);
    const sharePath = new URL(share.body.url).pathname;
    secrets.push(sharePath.split('/').pop()!);
    expect((await t.client().get(sharePath, { host: acmeHost })).status).toBe(303);
    expect((await admin.put('/api/v1/status-page/access', { mode: 'public' })).status).toBe(200);

    // a sign-in handoff code: signing in on the main host sends a company admin to its host
    const login = await t.client().post('/api/v1/auth/login', { email: adminUser.email, password: adminUser.password });
    expect(login.status, login.text).toBe(200);
    const handoff = new URL(login.body.redirect_to);
    const code = handoff.searchParams.get('code')!;
    expect(code).toBeTruthy();
    secrets.push(code);
    const redeem = await rawRequest(`${t.baseUrl}/auth/handoff?code=${code}&next=%2Fmonitors`, 'GET', {
      host: `${acmeHost}:${t.port}`,
      'sec-fetch-site': 'cross-site',
    });
    expect(redeem.status).toBe(303);

    // a subscriber's confirm and unsubscribe links
    const sub = await t.client().post('/api/v1/public/subscribers/acme', { email: 'reader@example.com' }, { host: acmeHost });
    expect(sub.status, sub.text).toBe(202);
    const subMail = unQp((await mailTo('reader@example.com')).raw);
    const confirmToken = subMail.match(/\/subscribe\/confirm\/([A-Za-z0-9_-]{43})/)![1];
    secrets.push(confirmToken);
    const confirmed = await rawRequest(`${t.baseUrl}/subscribe/confirm/${confirmToken}`, 'POST', {
      host: `${acmeHost}:${t.port}`,
      origin: `http://${acmeHost}:${t.port}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(confirmed.headers.get('location')).toBe('/subscribe/confirmed');
    const unsubscribePath = new URL(subMail.match(/^List-Unsubscribe:\s+<([^>]+)>/m)![1]).pathname;
    secrets.push(unsubscribePath.split('/').pop()!);
    const unsubscribed = await rawRequest(
      `${t.baseUrl}${unsubscribePath}`,
      'POST',
      { host: `${acmeHost}:${t.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      'List-Unsubscribe=One-Click',
    );
    expect(unsubscribed.status).toBeLessThan(400);

    // an invitation and a password reset, as the mailed links are opened
    const invited = await root.post('/api/v1/admin/invitations', {
      email: 'ivy@example.com',
      name: 'Ivy',
      company_id: acmeId,
      user_type: '3',
    });
    expect(invited.status, invited.text).toBe(201);
    const inviteToken = unQp((await mailTo('ivy@example.com')).raw).match(/\/invite\?token=([A-Za-z0-9_-]{43})/)![1];
    secrets.push(inviteToken);
    await t.client().get(`/invite?token=${inviteToken}`, { host: acmeHost });
    expect((await t.client().post('/api/v1/auth/forgot-password', { email: adminUser.email })).status).toBe(202);
    const resetToken = unQp((await mailTo(adminUser.email)).raw).match(/reset-password\?token=([A-Za-z0-9_-]+)/)![1];
    secrets.push(resetToken);
    await t.client().get(`/reset-password?token=${resetToken}`, { host: acmeHost });

    // links of the same shapes: signup, sign-in unlock and an alert's acknowledge link
    const [signupToken, unlockToken, ackToken] = [0, 1, 2].map(() => randomBytes(32).toString('base64url'));
    secrets.push(signupToken, unlockToken, ackToken);
    await t.client().get(`/signup?token=${signupToken}`);
    await t.client().get(`/login?unlock=${unlockToken}`, { host: acmeHost });
    await t.client().get(`/ack/${ackToken}`, { host: acmeHost });
    await t.client().get(`/ACK/${ackToken}/`, { host: acmeHost });

    const log = t.errorLog.join('\n');
    for (const secret of secrets) expect(log, secret).not.toContain(secret);

    const urls = loggedUrls();
    for (const expected of [
      '/api/v1/push/[redacted]',
      '/share/[redacted]',
      '/auth/handoff?code=[redacted]&next=%2Fmonitors',
      '/subscribe/confirm/[redacted]',
      '/unsubscribe/[redacted]',
      '/invite?token=[redacted]',
      '/reset-password?token=[redacted]',
      '/signup?token=[redacted]',
      '/login?unlock=[redacted]',
      '/ack/[redacted]',
      '/ACK/[redacted]',
    ])
      expect(urls, expected).toContain(expected);
    // the log is the request log: other requests are there as they came
    expect(urls).toContain('/api/v1/public/subscribers/acme');
    expect(urls).toContain('/api/v1/status-page/share-links');
  });
});
