// Two-factor sign-in (TOTP, RFC 6238) on both databases, with codes computed by otplib from the
// secret the enrolment shows, as an authenticator app would: enrolment and its recovery codes,
// sign-in asking for a code before any session or handoff link exists, wrong codes refused and
// throttled, a code not accepted twice, recovery codes working once, and turning it off.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

describe.each(DB_KINDS)('two-factor sign-in on %s', (kind) => {
  let t: TestApp;
  let clock = Date.parse('2026-05-04T09:00:10Z');
  let acme: { id: string; subdomain: string };
  let acmeHost: string;

  const codeFor = (secret: string, at = clock) => generate({ secret, epoch: Math.floor(at / 1000) });
  const login = (c: ApiClient, u: { email: string; password: string }, extra: Record<string, string> = {}, host = acmeHost) =>
    c.post('/api/v1/auth/login', { email: u.email, password: u.password, ...extra }, { host });
  const handoffCodes = async () =>
    Number(
      (
        await t.services.db.k
          .selectFrom('auth_codes')
          .where('kind', '=', 'handoff')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A user of Acme with two-factor sign-in on: their secret and recovery codes. */
  async function enrolled() {
    const u = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, u);
    const start = await c.post('/api/v1/auth/two-factor/start', undefined);
    expect(start.status, start.text).toBe(200);
    const ok = await c.post('/api/v1/auth/two-factor/confirm', { code: await codeFor(start.body.secret) });
    expect(ok.status, ok.text).toBe(200);
    clock += 30_000; // the confirming code is spent; sign-ins below use the next step's
    return { user: u, client: c, secret: start.body.secret as string, recovery: ok.body.recovery_codes as string[] };
  }

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    acme = await seedCompany(t.services, { subdomain: 'acme' });
    acmeHost = `acme.${t.config.productDomain}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('enrols: a secret with its otpauth URI and QR code, a wrong first code refused, a right one turns it on with ten recovery codes', async () => {
    const u = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'ada@acme.example.com' });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, u);
    expect((await c.get('/api/v1/auth/two-factor')).body).toEqual({ enabled: false, recovery_codes_left: 0 });
    const start = await c.post('/api/v1/auth/two-factor/start', undefined);
    expect(start.body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(start.body.otpauth_uri).toBe(`otpauth://totp/StatusWatch:ada%40acme.example.com?secret=${start.body.secret}&issuer=StatusWatch`);
    expect(start.body.qr_svg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    // the secret is not stored in the clear
    const row = await t.services.db.k.selectFrom('user_totp').selectAll().where('user_id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.secret_enc).not.toContain(start.body.secret);

    const wrong = await c.post('/api/v1/auth/two-factor/confirm', {
      code: '000000' === (await codeFor(start.body.secret)) ? '111111' : '000000',
    });
    // 400, not 401: the session is fine, the console must not try to renew it
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.code).toBe('The code is not correct.');
    expect((await c.get('/api/v1/auth/two-factor')).body.enabled).toBe(false);
    // until confirmed, sign-in does not ask for a code
    expect((await login(new ApiClient(t.baseUrl, acmeHost), u)).status).toBe(200);

    const ok = await c.post('/api/v1/auth/two-factor/confirm', { code: await codeFor(start.body.secret) });
    expect(ok.status).toBe(200);
    expect(ok.body.recovery_codes).toHaveLength(10);
    expect(new Set(ok.body.recovery_codes).size).toBe(10);
    expect((await c.get('/api/v1/auth/two-factor')).body).toEqual({ enabled: true, recovery_codes_left: 10 });
    const stored = await t.services.db.k.selectFrom('totp_recovery_codes').select('code_hash').where('user_id', '=', u.id).execute();
    expect(JSON.stringify(stored)).not.toContain(ok.body.recovery_codes[0].replace(/-/g, ''));
    // enrolling again while it is on is refused
    expect((await c.post('/api/v1/auth/two-factor/start', undefined)).status).toBe(409);
  });

  it('sign-in asks for the code after a correct password, issuing no session before it; then the code signs in', async () => {
    const { user, secret } = await enrolled();
    const c = new ApiClient(t.baseUrl, acmeHost);
    const before = await login(c, user);
    expect(before.status).toBe(401);
    expect(before.body.errors.totp_code).toMatch(/6-digit code/);
    expect(before.headers.getSetCookie()).toEqual([]);
    expect((await c.get('/api/v1/auth/me')).status).toBe(401);
    // a wrong password is still just a wrong password (the code is not asked for)
    const badPw = await login(c, { ...user, password: 'Not-the-password-9' }, { totp_code: await codeFor(secret) });
    expect(badPw.status).toBe(401);
    expect(badPw.body.errors?.totp_code).toBeUndefined();

    const ok = await login(c, user, { totp_code: await codeFor(secret) });
    expect(ok.status, ok.text).toBe(200);
    expect((await c.get('/api/v1/auth/me')).body.email).toBe(user.email);
  });

  it('a code is accepted once: the same code again (same 30 s step) is refused, the next step works', async () => {
    const { user, secret } = await enrolled();
    const code = await codeFor(secret);
    expect((await login(t.client(), user, { totp_code: code })).status).toBe(200);
    const replay = await login(t.client(), user, { totp_code: code });
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toMatch(/used already/);
    clock += 30_000;
    expect((await login(t.client(), user, { totp_code: await codeFor(secret) })).status).toBe(200);
  });

  it('wrong codes are refused and, after five, throttled (even a right code waits) until the window passes', async () => {
    const { user, secret } = await enrolled();
    const right = await codeFor(secret);
    const wrongCode = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) {
      const r = await login(t.client(), user, { totp_code: wrongCode });
      expect(r.status).toBe(401);
      expect(r.body.detail).toBe('The code is not correct.');
    }
    const throttled = await login(t.client(), user, { totp_code: right });
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBeTruthy();
    clock += 15 * 60_000;
    expect((await login(t.client(), user, { totp_code: await codeFor(secret) })).status).toBe(200);
  });

  it('a recovery code signs in once', async () => {
    const { user, recovery, client } = await enrolled();
    expect((await login(t.client(), user, { recovery_code: recovery[3].toUpperCase() })).status).toBe(200);
    const again = await login(t.client(), user, { recovery_code: recovery[3] });
    expect(again.status).toBe(401);
    expect(again.body.errors.recovery_code).toMatch(/used already/);
    expect((await client.get('/api/v1/auth/two-factor')).body.recovery_codes_left).toBe(9);
  });

  it('the handoff from the main host to the company host is not a way around the code', async () => {
    const { user, secret } = await enrolled();
    const c = t.client(); // the main host
    const before = await handoffCodes();
    const noCode = await login(c, user, {}, t.config.productDomain);
    expect(noCode.status).toBe(401);
    expect(noCode.body.redirect_to).toBeUndefined();
    expect(await handoffCodes()).toBe(before);
    expect(noCode.headers.getSetCookie()).toEqual([]);

    const ok = await login(c, user, { totp_code: await codeFor(secret) }, t.config.productDomain);
    expect(ok.status).toBe(200);
    const link = new URL(ok.body.redirect_to);
    expect(link.pathname).toBe('/auth/handoff');
    const h = await c.get(`${link.pathname}${link.search}`, { host: acmeHost });
    expect(h.headers.get('location')).toBe('/dashboard');
    expect((await c.get('/api/v1/auth/me', { host: acmeHost })).body.email).toBe(user.email);
  });

  it('turning it off needs a current code or the password; then sign-in asks for no code', async () => {
    const { user, secret, client } = await enrolled();
    expect((await client.post('/api/v1/auth/two-factor/disable', {})).status).toBe(400);
    expect((await client.post('/api/v1/auth/two-factor/disable', { password: 'Wrong-password-1' })).status).toBe(400);
    expect((await client.post('/api/v1/auth/two-factor/disable', { code: '12345' })).status).toBe(400);
    expect((await client.post('/api/v1/auth/two-factor/disable', { code: await codeFor(secret) })).status).toBe(200);
    expect((await client.get('/api/v1/auth/two-factor')).body).toEqual({ enabled: false, recovery_codes_left: 0 });
    expect((await login(t.client(), user)).status).toBe(200);
  });
});
