// Wrong passwords cannot lock an owner out (ASVS 2.2.1): an attacking address is slowed down
// and then refused for that account, while the owner, the super admin too, still signs in from
// elsewhere; an attack spread over many addresses pauses new addresses only, and the owner is
// mailed a link that lets them in from where they are. Client addresses come from
// X-Forwarded-For (TRUST_PROXY), the clock is the test's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, TEST_PASSWORD } from '../../support/fixtures.ts';
import { waitFor } from '../../support/wait-for.ts';

const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe('sign-in lock-out resistance', () => {
  let t: TestApp;
  let smtp: SmtpSink;
  let clock = Date.parse('2026-05-01T08:00:00Z');
  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: 'sqlite', env: { TRUST_PROXY: 'true', SMTP_URL: smtp.url }, now: () => clock });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const login = (email: string, password: string, ip: string, host?: string) =>
    t.client().post('/api/v1/auth/login', { email, password }, { headers: { 'x-forwarded-for': ip }, ...(host ? { host } : {}) });
  /** A password-reset mail to a new user, asked now: once it is in, any mail asked before it would have been too. */
  let sentinels = 0;
  async function mailAfterThis(): Promise<void> {
    const u = await seedUser(t.services, { userType: 1, email: `sentinel-${++sentinels}@example.com` });
    await t.client().post('/api/v1/auth/forgot-password', { email: u.email }, { headers: { 'x-forwarded-for': `192.0.2.${sentinels}` } });
    await waitFor(() => smtp.mails.find((m) => m.to.includes(u.email)), { what: `the mail to ${u.email}` });
  }

  it('slows down and then refuses one address hammering the super admin, who still signs in from another address', async () => {
    const root = await seedUser(t.services, { userType: 1 });
    const attacker = '198.51.100.7';
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await login(root.email, `guess-${i}`, attacker)).status);
    expect(statuses).toEqual([401, 401, 401]);
    // after the third failure the address must wait before trying this account again
    const fast = await login(root.email, 'guess-3', attacker);
    expect(fast.status).toBe(429);
    expect(Number(fast.headers.get('retry-after'))).toBe(1);
    // waiting it out, seven more guesses; then this address is done with this account
    for (let i = 3; i < 10; i++) {
      clock += 65_000;
      expect((await login(root.email, `guess-${i}`, attacker)).status).toBe(401);
    }
    clock += 65_000;
    const locked = await login(root.email, TEST_PASSWORD, attacker);
    expect(locked.status).toBe(429);
    expect(locked.body.detail).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    expect(locked.headers.getSetCookie()).toEqual([]);
    // the owner, at an address of their own, is not locked out
    const owner = await login(root.email, TEST_PASSWORD, '203.0.113.9');
    expect(owner.status).toBe(200);
    // however long the attacker keeps going
    for (let i = 0; i < 200; i++) expect((await login(root.email, `more-${i}`, attacker)).status).toBe(429);
    expect((await login(root.email, TEST_PASSWORD, '203.0.113.9')).status).toBe(200);
    clock += 3600_000;
  });

  it('pauses new addresses when many addresses attack one account, and mails the owner a link that lets them in', async () => {
    const co = await seedCompany(t.services, { subdomain: 'lockco' });
    const owner = await seedUser(t.services, { userType: 2, companyId: co.id, email: 'owner@lockco.example.com' });
    // the owner signed in before from home
    expect((await login(owner.email, TEST_PASSWORD, '192.0.2.10', 'lockco.localhost')).status).toBe(200);
    for (let i = 0; i < 100; i++) {
      expect((await login(owner.email, `spray-${i}`, `10.1.${i >> 8}.${i & 255}`, 'lockco.localhost')).status).toBe(401);
    }
    const paused = await login(owner.email, TEST_PASSWORD, '172.16.5.5', 'lockco.localhost');
    expect(paused.status).toBe(429);
    expect(paused.body.detail).toMatch(
      /^Too many failed sign-in attempts\. Please try again in \d+ minutes?\. If this is your account, the link we have e-mailed you lets you sign in now\.$/,
    );
    // from home the owner still gets in
    expect((await login(owner.email, TEST_PASSWORD, '192.0.2.10', 'lockco.localhost')).status).toBe(200);

    const mail = unQp((await waitFor(() => smtp.mails.find((m) => m.to.includes(owner.email)))).raw);
    expect(mail).toMatch(/^Subject: Someone is trying to sign in to your StatusWatch account/m);
    const link = mail.match(/http:\/\/lockco\.localhost:\d+\/login\?unlock=([A-Za-z0-9_-]{43})/);
    expect(link).not.toBeNull();

    // opened at the café: that address may sign in now; others stay paused
    const cafe = '172.16.5.5';
    const unlock = await t
      .client()
      .post('/api/v1/auth/unlock', { token: link![1] }, { host: 'lockco.localhost', headers: { 'x-forwarded-for': cafe } });
    expect(unlock.status).toBe(200);
    expect(unlock.body.message).toBe('Sign-in is unlocked for you. You can sign in now.');
    expect((await login(owner.email, TEST_PASSWORD, cafe, 'lockco.localhost')).status).toBe(200);
    expect((await login(owner.email, TEST_PASSWORD, '172.16.6.6', 'lockco.localhost')).status).toBe(429);
    // the link works once
    const again = await t
      .client()
      .post('/api/v1/auth/unlock', { token: link![1] }, { host: 'lockco.localhost', headers: { 'x-forwarded-for': '172.16.6.6' } });
    expect(again.status).toBe(400);
    expect(again.body.detail).toBe('This unlock link is invalid or has expired.');
    // one mail, however long the attack goes on
    for (let i = 100; i < 150; i++) await login(owner.email, `spray-${i}`, `10.2.${i >> 8}.${i & 255}`, 'lockco.localhost');
    await mailAfterThis();
    expect(smtp.mails.filter((m) => m.to.includes(owner.email))).toHaveLength(1);
    clock += 3600_000 + 1000;
    expect((await login(owner.email, TEST_PASSWORD, '172.16.6.6', 'lockco.localhost')).status).toBe(200);
  });

  it('answers an attack on an unknown email the same way, and mails nobody', async () => {
    const before = smtp.mails.length;
    for (let i = 0; i < 100; i++) await login('nobody@example.com', `spray-${i}`, `10.3.${i >> 8}.${i & 255}`);
    const r = await login('nobody@example.com', 'Whatever-pass-1', '172.16.7.7');
    expect(r.status).toBe(429);
    expect(r.body.detail).toMatch(/If this is your account, the link we have e-mailed you lets you sign in now\.$/);
    await mailAfterThis();
    expect(smtp.mails.length).toBe(before + 1); // the sentinel's alone
  });

  it('refuses made-up unlock tokens', async () => {
    const r = await t.client().post('/api/v1/auth/unlock', { token: 'x'.repeat(43) });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('This unlock link is invalid or has expired.');
  });
});
