// Someone who knows the password cannot lock the owner out of two-factor sign-in: wrong codes
// (authenticator and recovery codes) count per account and address, as wrong passwords do, so
// a guessing address is refused while the owner's own address still signs in with a code or a
// recovery code. Guessing spread over many addresses pauses new addresses only; the owner's
// known address still gets in and the unlock link mailed to them lets another address in.
// Both databases; client addresses from X-Forwarded-For (TRUST_PROXY), the clock is the test's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { DB_KINDS } from '../../support/test-db.ts';
import { startSmtpSink, type SmtpSink } from '../../support/smtp-sink.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { waitFor } from '../../support/wait-for.ts';

const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(DB_KINDS)('second-factor throttle per account and address on %s', (kind) => {
  let t: TestApp;
  let smtp: SmtpSink;
  let clock = Date.parse('2026-06-02T10:00:10Z');
  let acme: { id: string; subdomain: string };
  let acmeHost: string;

  const codeFor = (secret: string) => generate({ secret, epoch: Math.floor(clock / 1000) });
  const login = (u: { email: string; password: string }, ip: string, extra: Record<string, string> = {}) =>
    t
      .client()
      .post(
        '/api/v1/auth/login',
        { email: u.email, password: u.password, ...extra },
        { host: acmeHost, headers: { 'x-forwarded-for': ip } },
      );

  /** A user of Acme with two-factor sign-in on, enrolled from `home`. */
  async function enrolled(email: string, home: string) {
    const user = await seedUser(t.services, { userType: 2, companyId: acme.id, email });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, user);
    const start = await c.post('/api/v1/auth/two-factor/start', undefined);
    const ok = await c.post('/api/v1/auth/two-factor/confirm', { code: await codeFor(start.body.secret) });
    expect(ok.status, ok.text).toBe(200);
    clock += 30_000;
    // the owner signs in from home once with a code: that address is one they are known to use
    expect((await login(user, home, { totp_code: await codeFor(start.body.secret) })).status).toBe(200);
    clock += 30_000;
    return { user, secret: start.body.secret as string, recovery: ok.body.recovery_codes as string[] };
  }

  beforeAll(async () => {
    smtp = await startSmtpSink();
    t = await startTestApp({ db: kind, env: { TRUST_PROXY: 'true', SMTP_URL: smtp.url }, now: () => clock });
    acme = await seedCompany(t.services, { subdomain: 'acme' });
    acmeHost = `acme.${t.config.productDomain}`;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it("an address guessing codes is refused, while the owner's address still signs in with a code and with a recovery code", async () => {
    const owner = '203.0.113.9';
    const attacker = '198.51.100.7';
    const { user, secret, recovery } = await enrolled('ada@acme.example.com', owner);
    const right = await codeFor(secret);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      const r = await login(user, attacker, i % 2 ? { recovery_code: `dead-beef-0000-000${i}` } : { totp_code: wrong });
      expect(r.status).toBe(401);
    }
    // that address is done for the window, whatever it sends
    const byCode = await login(user, attacker, { totp_code: right });
    expect(byCode.status).toBe(429);
    expect(byCode.body.detail).toMatch(/^Too many wrong codes\. Please try again in 15 minutes\.$/);
    expect(byCode.headers.get('retry-after')).toBeTruthy();
    expect(byCode.headers.getSetCookie()).toEqual([]);
    expect((await login(user, attacker, { recovery_code: recovery[0] })).status).toBe(429);

    // the owner, at their own address, is not locked out: a code and a recovery code both work
    const ownCode = await login(user, owner, { totp_code: right });
    expect(ownCode.status, ownCode.text).toBe(200);
    expect(ownCode.body.user.email).toBe(user.email);
    const ownRecovery = await login(user, owner, { recovery_code: recovery[1] });
    expect(ownRecovery.status, ownRecovery.text).toBe(200);
    // and a first-time address of the owner's too (the attack is one address, not many)
    clock += 30_000;
    expect((await login(user, '192.0.2.44', { totp_code: await codeFor(secret) })).status).toBe(200);

    // one address making mistakes of its own is still throttled after five
    const clumsy = '192.0.2.80';
    for (let i = 0; i < 5; i++) expect((await login(user, clumsy, { totp_code: wrong })).status).toBe(401);
    expect((await login(user, clumsy, { totp_code: await codeFor(secret) })).status).toBe(429);
    // until its window has passed
    clock += 15 * 60_000;
    expect((await login(user, clumsy, { totp_code: await codeFor(secret) })).status).toBe(200);
    expect((await login(user, attacker, { totp_code: wrong })).status).toBe(401);
    clock += 3600_000;
  });

  it("guessing spread over many addresses pauses new addresses only: the owner's address gets in, the mailed unlock link lets another in", async () => {
    const home = '203.0.113.20';
    const { user, secret } = await enrolled('bob@acme.example.com', home);
    const wrong = (await codeFor(secret)) === '123456' ? '654321' : '123456';
    for (let i = 0; i < 30; i++) expect((await login(user, `10.9.0.${i}`, { totp_code: wrong })).status).toBe(401);
    const paused = await login(user, '172.16.9.9', { totp_code: await codeFor(secret) });
    expect(paused.status).toBe(429);
    expect(paused.body.detail).toMatch(
      /^Too many wrong codes\. Please try again in \d+ minutes?\. If this is your account, the link we have e-mailed you lets you sign in now\.$/,
    );
    expect((await login(user, home, { totp_code: await codeFor(secret) })).status).toBe(200);

    const mail = unQp((await waitFor(() => smtp.mails.find((m) => m.to.includes(user.email)))).raw);
    const link = mail.match(/\/login\?unlock=([A-Za-z0-9_-]{43})/);
    expect(link).not.toBeNull();
    const cafe = '172.16.9.9';
    const unlock = await t
      .client()
      .post('/api/v1/auth/unlock', { token: link![1] }, { host: acmeHost, headers: { 'x-forwarded-for': cafe } });
    expect(unlock.status).toBe(200);
    clock += 30_000;
    expect((await login(user, cafe, { totp_code: await codeFor(secret) })).status).toBe(200);
    expect((await login(user, '172.16.9.10', { totp_code: await codeFor(secret) })).status).toBe(429);
    clock += 3600_000;
  });
});
