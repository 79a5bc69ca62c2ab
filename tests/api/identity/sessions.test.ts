// Sessions on both databases: login, me, logout, refresh rotation and reuse, cookie attributes,
// forged and replayed tokens, the cross-host handoff, throttling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createHmac } from 'node:crypto';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn, TEST_PASSWORD } from '../../support/fixtures.ts';
import { createPageServices } from '../../../src/server/services.ts';

function cookieAttrs(setCookies: string[], name: string): string | undefined {
  return setCookies.find((c) => c.startsWith(`${name}=`));
}

function b64url(obj: object): string {
  return Buffer.from(JSON.stringify(obj)).toString('base64url');
}

function payloadOf(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8'));
}

describe.each(DB_KINDS)('sessions on %s', (kind) => {
  let t: TestApp;
  let clock = Date.now();
  let admin: Awaited<ReturnType<typeof seedUser>>;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let acmeAdmin: Awaited<ReturnType<typeof seedUser>>;
  let globexViewer: Awaited<ReturnType<typeof seedUser>>;
  const acmeHost = () => `${acme.subdomain}.localhost`;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    admin = await seedUser(t.services, { userType: 1, email: 'root@example.com' });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    acmeAdmin = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'boss@acme.example.com' });
    globexViewer = await seedUser(t.services, { userType: 3, companyId: globex.id, email: 'viewer@globex.example.com' });
  });
  afterAll(async () => t?.close());

  it('signs a super admin in with host-only, HttpOnly, Secure, SameSite=Lax cookies and answers me', async () => {
    const c = t.client();
    const r = await c.post('/api/v1/auth/login', { email: 'ROOT@example.com', password: TEST_PASSWORD });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ id: admin.id, email: 'root@example.com', user_type: '1', company_id: null, role: 'super_admin' });
    expect(r.body.redirect_to).toBe('/dashboard');
    expect(r.body.expires_in).toBe(900);
    const set = r.headers.getSetCookie();
    const at = cookieAttrs(set, 'sw_at')!;
    const rt = cookieAttrs(set, 'sw_rt')!;
    for (const c of [at, rt]) {
      expect(c).toMatch(/; HttpOnly/i);
      expect(c).toMatch(/; Secure/i);
      expect(c).toMatch(/; SameSite=Lax/i);
      expect(c).not.toMatch(/Domain=/i);
    }
    expect(at).toMatch(/Path=\/(;|$)/);
    expect(at).toMatch(/Max-Age=900/);
    expect(rt).toMatch(/Path=\/api\/v1\/auth/);
    expect(rt).not.toMatch(/Max-Age/i); // no "remember me": a browser-session cookie
    const token = at.split(';')[0].split('=')[1];
    const claims = payloadOf(token);
    expect(claims).toMatchObject({
      sub: admin.id,
      email: 'root@example.com',
      role: 'super_admin',
      tenantId: null,
      host: 'localhost',
      typ: 'access',
    });
    expect(claims.exp - claims.iat).toBe(900);
    expect(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });

    const me = await c.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: admin.id,
      email: 'root@example.com',
      user_type: '1',
      company_id: null,
      full_name: 'Test User',
      company: null,
    });
    expect(me.body.claims).toMatchObject({ sub: admin.id, role: 'super_admin', exp: claims.exp, iat: claims.iat });
    expect(me.body.claims.session_expires_at - claims.iat).toBe(86_400);
    expect(me.body.is_active).toBe(true);
    expect(Date.parse(me.body.created_at)).toBeGreaterThan(0);
    expect(Date.parse(me.body.updated_at)).toBeGreaterThan(0);
  });

  it('extends the refresh lifetime with remember me', async () => {
    const r = await t.client().post('/api/v1/auth/login', { email: admin.email, password: TEST_PASSWORD, remember: true });
    expect(r.status).toBe(200);
    expect(cookieAttrs(r.headers.getSetCookie(), 'sw_rt')).toMatch(/Max-Age=2592000/);
    expect(r.body.user.claims.session_expires_at - r.body.user.claims.iat).toBe(30 * 86_400);
  });

  it('answers the same for an unknown email and a wrong password', async () => {
    const c = t.client();
    const unknown = await c.post('/api/v1/auth/login', { email: 'nobody@example.com', password: 'whatever-123' });
    const wrong = await c.post('/api/v1/auth/login', { email: admin.email, password: 'whatever-123' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(unknown.body.detail).toBe('Invalid email or password.');
    expect(wrong.body).toEqual(unknown.body);
    expect(unknown.headers.getSetCookie()).toEqual([]);
    const me = await c.get('/api/v1/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.detail).toBe('Authentication required. Please sign in.');
  });

  it.each([
    [{ password: TEST_PASSWORD }, 'email', 'Email is required.'],
    [{ email: '', password: TEST_PASSWORD }, 'email', 'Email is required.'],
    [{ email: '  ', password: TEST_PASSWORD }, 'email', 'Email is required.'],
    [{ email: 'root@example.com' }, 'password', 'Password is required.'],
    [{ email: 'root@example.com', password: '' }, 'password', 'Password is required.'],
  ])('answers the form text to a login with %j', async (body, field, message) => {
    const r = await t.client().post('/api/v1/auth/login', body);
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe(message);
    expect(r.body.errors).toEqual({ [field]: message });
    expect(r.headers.getSetCookie()).toEqual([]);
  });

  it('refuses disabled accounts and inactive companies', async () => {
    const off = await seedUser(t.services, { userType: 1, isActive: false });
    const r = await t.client().post('/api/v1/auth/login', { email: off.email, password: TEST_PASSWORD });
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe('This account is disabled. Please contact your administrator.');
    const dead = await seedCompany(t.services, { subdomain: 'deadco', is_active: false });
    const u = await seedUser(t.services, { userType: 2, companyId: dead.id });
    const r2 = await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD });
    expect(r2.status).toBe(403);
    expect(r2.body.detail).toBe('Company not found or inactive');
    const r3 = await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD }, { host: 'deadco.localhost' });
    expect(r3.status).toBe(404);
    expect(r3.body.detail).toBe('Company not found or inactive');
    const r4 = await t.client().post('/api/v1/auth/login', { email: admin.email, password: TEST_PASSWORD }, { host: 'nosuch.localhost' });
    expect(r4.status).toBe(404);
  });

  it('rotates the refresh token and revokes the whole family when one is used twice', async () => {
    const c = t.client();
    await signIn(c, admin);
    const firstRt = c.jar.get('localhost')!.get('sw_rt')!;
    const r1 = await c.post('/api/v1/auth/refresh-token');
    expect(r1.status).toBe(200);
    expect(r1.body.user.id).toBe(admin.id);
    const secondRt = c.jar.get('localhost')!.get('sw_rt')!;
    const secondAt = c.jar.get('localhost')!.get('sw_at')!;
    expect(secondRt).not.toBe(firstRt);
    expect((await c.get('/api/v1/auth/me')).status).toBe(200);

    // an attacker replays the first (already used) refresh token
    const thief = t.client();
    thief.setCookie('localhost', 'sw_rt', firstRt);
    const stolen = await thief.post('/api/v1/auth/refresh-token');
    expect(stolen.status).toBe(401);
    expect(stolen.body.detail).toBe('Your session has ended. Please sign in again.');

    // the whole family is gone: the legitimate newer tokens no longer work either
    const legit = await c.post('/api/v1/auth/refresh-token');
    expect(legit.status).toBe(401);
    const replay = t.client();
    replay.setCookie('localhost', 'sw_at', secondAt);
    expect((await replay.get('/api/v1/auth/me')).status).toBe(401);
  });

  it("a refused renewal leaves the browser's cookies alone: a stale tab's late refresh does not end the session another tab just began", async () => {
    const c = t.client();
    await signIn(c, admin);
    const staleRt = c.jar.get('localhost')!.get('sw_rt')!;
    expect((await c.post('/api/v1/auth/logout')).status).toBe(200);
    // another tab of the same browser signs in again while the old tab's renewal is on its way
    await signIn(c, admin);
    const freshAt = c.jar.get('localhost')!.get('sw_at')!;
    const late = await c.post('/api/v1/auth/refresh-token', undefined, { headers: { cookie: `sw_rt=${staleRt}` } });
    expect(late.status).toBe(401);
    expect(late.body.detail).toBe('Your session has ended. Please sign in again.');
    expect(cookieAttrs(late.headers.getSetCookie(), 'sw_at')).toBeUndefined();
    expect(c.jar.get('localhost')!.get('sw_at')).toBe(freshAt);
    const me = await c.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(admin.id);
  });

  it('logs out: the access token and the refresh token stop working at once', async () => {
    const c = t.client();
    await signIn(c, admin);
    const at = c.jar.get('localhost')!.get('sw_at')!;
    const rt = c.jar.get('localhost')!.get('sw_rt')!;
    const out = await c.post('/api/v1/auth/logout');
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ ok: true });
    const cleared = out.headers.getSetCookie();
    expect(cookieAttrs(cleared, 'sw_at')).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    const replay = t.client();
    replay.setCookie('localhost', 'sw_at', at);
    replay.setCookie('localhost', 'sw_rt', rt);
    expect((await replay.get('/api/v1/auth/me')).status).toBe(401);
    expect((await replay.post('/api/v1/auth/refresh-token')).status).toBe(401);
    // logging out without a session is harmless
    expect((await t.client().post('/api/v1/auth/logout')).status).toBe(200);
  });

  it('rejects forged tokens: alg none, a wrong key, expired, and a refresh token used as an access token', async () => {
    const c = t.client();
    const r = await signIn(c, admin);
    const good = c.jar.get('localhost')!.get('sw_at')!;
    const claims = payloadOf(good);
    const none = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ ...claims, role: 'super_admin' })}.`;
    const wrongKey = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode('x'.repeat(64)));
    const rawSecretKey = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(t.config.sessionSecret));
    const hs512 = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
      .sign(new Uint8Array(createHmac('sha256', t.config.sessionSecret).update('statuswatch access token v1').digest()));
    const tampered = good.split('.')[0] + '.' + b64url({ ...claims, sub: acmeAdmin.id }) + '.' + good.split('.')[2];
    const refreshAsAccess = c.jar.get('localhost')!.get('sw_rt')!;
    for (const token of [none, wrongKey, rawSecretKey, hs512, tampered, refreshAsAccess, 'garbage']) {
      const x = t.client();
      x.setCookie('localhost', 'sw_at', token);
      const me = await x.get('/api/v1/auth/me');
      expect(me.status, token.slice(0, 30)).toBe(401);
    }
    expect(r.status).toBe(200);

    const fresh = t.client();
    fresh.setCookie('localhost', 'sw_at', good);
    expect((await fresh.get('/api/v1/auth/me')).status).toBe(200);
    // 15 minutes later the access token has expired; the refresh token renews it
    clock += 15 * 60_000 + 1000;
    try {
      expect((await fresh.get('/api/v1/auth/me')).status).toBe(401);
      expect((await c.post('/api/v1/auth/refresh-token')).status).toBe(200);
      expect((await c.get('/api/v1/auth/me')).status).toBe(200);
      // and after the 24 h session lifetime nothing renews it
      clock += 24 * 3600_000;
      expect((await c.post('/api/v1/auth/refresh-token')).status).toBe(401);
    } finally {
      clock = Date.now();
    }
  });

  it('binds a session to its host: a cookie replayed on another tenant host is refused', async () => {
    const c = t.client();
    const r = await signIn(c, acmeAdmin, acmeHost());
    expect(r.body.redirect_to).toBe('/dashboard');
    const at = c.jar.get(acmeHost())!.get('sw_at')!;
    expect((await c.get('/api/v1/auth/me', { host: acmeHost() })).status).toBe(200);
    const replay = t.client();
    replay.setCookie('globex.localhost', 'sw_at', at);
    expect((await replay.get('/api/v1/auth/me', { host: 'globex.localhost' })).status).toBe(401);
    replay.setCookie('localhost', 'sw_at', at);
    expect((await replay.get('/api/v1/auth/me', { host: 'localhost' })).status).toBe(401);
    // the refresh token is bound too, and presenting it elsewhere revokes the family
    const rt = c.jar.get(acmeHost())!.get('sw_rt')!;
    replay.setCookie('globex.localhost', 'sw_rt', rt);
    expect((await replay.post('/api/v1/auth/refresh-token', undefined, { host: 'globex.localhost' })).status).toBe(401);
    expect((await c.get('/api/v1/auth/me', { host: acmeHost() })).status).toBe(401);
  });

  it("never serves a company user on another company's subdomain", async () => {
    const r = await t.client().post('/api/v1/auth/login', { email: globexViewer.email, password: TEST_PASSWORD }, { host: acmeHost() });
    expect(r.status).toBe(403);
    expect(r.body.detail).toBe("This account belongs to another company. Please sign in at your company's address.");
    expect(r.headers.getSetCookie()).toEqual([]);
  });

  it('hands a company user over from the main host to their subdomain with a one-time code', async () => {
    const c = t.client();
    const r = await signIn(c, acmeAdmin);
    const port = t.port;
    expect(r.body.redirect_to).toMatch(new RegExp(`^http://acme\\.localhost:${port}/auth/handoff\\?code=[A-Za-z0-9_-]{43}$`));
    // on the main host the session serves the redirect flow only
    const me = await c.get('/api/v1/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.company).toMatchObject({ id: acme.id, subdomain: 'acme' });
    const code = new URL(r.body.redirect_to).searchParams.get('code')!;

    // the code is bound to its host
    const wrongHost = await c.get(`/auth/handoff?code=${code}`, { host: 'globex.localhost' });
    expect(wrongHost.status).toBe(303);
    expect(wrongHost.headers.get('location')).toBe('/company-login?error=handoff');
    expect(c.jar.get('globex.localhost')?.get('sw_at')).toBeUndefined();

    // login CSRF: the same link opened from another site (a mail, a page) signs nobody in, and
    // leaves the code to its owner
    const elsewhere: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site', referer: 'https://evil.example/' },
      { 'sec-fetch-site': 'none' },
      { 'sec-fetch-site': 'cross-site', referer: `http://localhost:${port + 1}/` },
    ];
    for (const headers of elsewhere) {
      const victim = t.client();
      const csrf = await victim.get(`/auth/handoff?code=${code}`, { host: acmeHost(), headers });
      expect(csrf.headers.get('location'), JSON.stringify(headers)).toBe('/company-login?error=handoff');
      expect(victim.jar.get(acmeHost())?.get('sw_at')).toBeUndefined();
    }

    // from our own main host (*.localhost is not one site, so the Referer tells)
    const h = await c.get(`/auth/handoff?code=${code}`, {
      host: acmeHost(),
      headers: { 'sec-fetch-site': 'cross-site', referer: `http://localhost:${port}/` },
    });
    expect(h.status).toBe(303);
    expect(h.headers.get('location')).toBe('/dashboard');
    const at = cookieAttrs(h.headers.getSetCookie(), 'sw_at')!;
    expect(at).toMatch(/HttpOnly/);
    expect(at).not.toMatch(/Domain=/i);
    const onTenant = await c.get('/api/v1/auth/me', { host: acmeHost() });
    expect(onTenant.status).toBe(200);
    expect(onTenant.body.id).toBe(acmeAdmin.id);

    // single use
    const again = t.client();
    const second = await again.get(`/auth/handoff?code=${code}`, { host: acmeHost() });
    expect(second.headers.get('location')).toBe('/company-login?error=handoff');
    expect(again.jar.get(acmeHost())?.get('sw_at')).toBeUndefined();
  });

  it('gives a signed-in user on the wrong host a handoff link home', async () => {
    const c = t.client();
    await signIn(c, acmeAdmin);
    const r = await c.post('/api/v1/auth/handoff');
    expect(r.status).toBe(200);
    expect(r.body.redirect_to).toMatch(new RegExp(`^http://acme\\.localhost:${t.port}/auth/handoff\\?code=`));
    const code = new URL(r.body.redirect_to).searchParams.get('code')!;
    expect((await c.get(`/auth/handoff?code=${code}`, { host: acmeHost() })).headers.get('location')).toBe('/dashboard');
    expect((await c.post('/api/v1/auth/handoff', undefined, { host: acmeHost() })).body.redirect_to).toBe('/dashboard');

    // the console adds where the user was going: a path on the target host, never another site
    for (const [next, location] of [
      ['/metrics?range=7d', '/metrics?range=7d'],
      ['//evil.test/', '/dashboard'],
      ['https://evil.test/', '/dashboard'],
    ]) {
      const link = (await c.post('/api/v1/auth/handoff')).body.redirect_to;
      const h = await c.get(`${new URL(link).pathname}${new URL(link).search}&next=${encodeURIComponent(next)}`, { host: acmeHost() });
      expect(h.headers.get('location')).toBe(location);
    }

    const sa = t.client();
    await signIn(sa, admin, acmeHost());
    const home = await sa.post('/api/v1/auth/handoff', undefined, { host: acmeHost() });
    expect(home.body.redirect_to).toMatch(new RegExp(`^http://localhost:${t.port}/auth/handoff\\?code=`));
    expect((await sa.post('/api/v1/auth/handoff')).status).toBe(401);
    expect((await t.client().post('/api/v1/auth/handoff')).status).toBe(401);
  });

  it('expires handoff codes after 60 seconds', async () => {
    const c = t.client();
    const r = await signIn(c, acmeAdmin);
    const code = new URL(r.body.redirect_to).searchParams.get('code')!;
    clock += 61_000;
    try {
      const h = await c.get(`/auth/handoff?code=${code}`, { host: acmeHost() });
      expect(h.headers.get('location')).toBe('/company-login?error=handoff');
    } finally {
      clock = Date.now();
    }
  });

  it('refuses a handoff code once the session that issued it has ended, whichever way', async () => {
    const root = t.client();
    await signIn(root, admin);
    const codeFor = async (u: { email: string; password: string }) => {
      const c = t.client();
      const r = await signIn(c, u);
      return { c, code: new URL(r.body.redirect_to).searchParams.get('code')! };
    };
    const redeems = async (code: string) => {
      const h = await t.client().get(`/auth/handoff?code=${code}`, { host: acmeHost() });
      return h.headers.get('location') === '/dashboard';
    };
    const fresh = () => seedUser(t.services, { userType: 3, companyId: acme.id });

    // signing out on the main host
    const loggedOut = await codeFor(await fresh());
    expect((await loggedOut.c.post('/api/v1/auth/logout')).status).toBe(200);
    expect(await redeems(loggedOut.code)).toBe(false);
    // signing out with only the refresh cookie left (the access token had expired)
    const rtOnly = await codeFor(await fresh());
    rtOnly.c.jar.get('localhost')!.delete('sw_at');
    expect((await rtOnly.c.post('/api/v1/auth/logout')).status).toBe(200);
    expect(await redeems(rtOnly.code)).toBe(false);
    // a refresh token seen twice (theft): the family ends, its codes too
    const stolen = await codeFor(await fresh());
    const rt = stolen.c.jar.get('localhost')!.get('sw_rt')!;
    expect((await stolen.c.post('/api/v1/auth/refresh-token')).status).toBe(200);
    const thief = t.client();
    thief.setCookie('localhost', 'sw_rt', rt);
    expect((await thief.post('/api/v1/auth/refresh-token')).status).toBe(401);
    expect(await redeems(stolen.code)).toBe(false);
    // changing the own password (on the subdomain, in another session)
    const changer = await fresh();
    const changed = await codeFor(changer);
    const sub = t.client();
    await signIn(sub, changer, acmeHost());
    expect(
      (
        await sub.post(
          '/api/v1/auth/change-password',
          { current_password: TEST_PASSWORD, new_password: 'Changed-pass-9' },
          { host: acmeHost() },
        )
      ).status,
    ).toBe(200);
    expect(await redeems(changed.code)).toBe(false);
    // an admin's password reset, a deactivated user, a deactivated company
    const reset = await fresh();
    const resetCode = await codeFor(reset);
    expect((await root.post(`/api/v1/admin/users/${reset.id}/reset-password`, { new_password: 'Reset-pass-99' })).status).toBe(200);
    expect(await redeems(resetCode.code)).toBe(false);
    const off = await fresh();
    const offCode = await codeFor(off);
    expect(
      (
        await root.put(`/api/v1/admin/users/${off.id}`, {
          name: 'Off',
          email: off.email,
          user_type: '3',
          company_id: acme.id,
          is_active: false,
        })
      ).status,
    ).toBe(200);
    expect(await redeems(offCode.code)).toBe(false);
    const paused = await seedCompany(t.services, { subdomain: 'pausedco' });
    const pausedUser = await seedUser(t.services, { userType: 2, companyId: paused.id });
    const pc = t.client();
    const pr = await signIn(pc, pausedUser);
    const pausedCode = new URL(pr.body.redirect_to).searchParams.get('code')!;
    expect(
      (
        await root.put(`/api/v1/admin/companies/${paused.id}`, {
          name: 'Paused',
          email: 'a@paused.example.com',
          subdomain: 'pausedco',
          is_active: false,
        })
      ).status,
    ).toBe(200);
    expect((await t.client().get(`/auth/handoff?code=${pausedCode}`, { host: 'pausedco.localhost' })).headers.get('location')).toBe(
      '/company-login?error=handoff',
    );
    const used = await t.services.db.k.selectFrom('auth_codes').select(['used_at']).where('user_id', '=', pausedUser.id).execute();
    expect(used.every((c) => c.used_at !== null)).toBe(true);

    // the codes of a session that is still live keep working
    expect(await redeems((await codeFor(await fresh())).code)).toBe(true);
  });

  it('sends a super admin who signs in on a subdomain to the main host', async () => {
    const c = t.client();
    const r = await signIn(c, admin, acmeHost());
    expect(r.body.redirect_to).toMatch(new RegExp(`^http://localhost:${t.port}/auth/handoff\\?code=`));
    const code = new URL(r.body.redirect_to).searchParams.get('code')!;
    const h = await c.get(`/auth/handoff?code=${code}`);
    expect(h.headers.get('location')).toBe('/dashboard');
    expect((await c.get('/api/v1/auth/me')).body.id).toBe(admin.id);
  });

  it("ends a super admin's session on a company subdomain once that company is deactivated, moved or deleted", async () => {
    const root = t.client();
    await signIn(root, admin);
    const setUp = async (sub: string) => {
      const co = await seedCompany(t.services, { subdomain: sub });
      const c = t.client();
      await signIn(c, admin, `${sub}.localhost`);
      expect((await c.get('/api/v1/auth/me', { host: `${sub}.localhost` })).status).toBe(200);
      return { co, c, host: `${sub}.localhost` };
    };
    const off = await setUp('sa-off');
    expect(
      (
        await root.put(`/api/v1/admin/companies/${off.co.id}`, {
          name: 'Off',
          email: 'a@off.example.com',
          subdomain: 'sa-off',
          is_active: false,
        })
      ).status,
    ).toBe(200);
    const moved = await setUp('sa-moved');
    expect(
      (await root.put(`/api/v1/admin/companies/${moved.co.id}`, { name: 'Moved', email: 'a@moved.example.com', subdomain: 'sa-moved-2' }))
        .status,
    ).toBe(200);
    const gone = await setUp('sa-gone');
    expect((await root.delete(`/api/v1/admin/companies/${gone.co.id}`)).status).toBe(200);
    for (const { c, host } of [off, moved, gone]) {
      expect((await c.get('/api/v1/auth/me', { host })).status, host).toBe(401);
      expect((await c.get('/api/v1/admin/companies', { host })).status, host).toBe(401);
      expect((await c.post('/api/v1/auth/refresh-token', undefined, { host })).status, host).toBe(401);
    }
    // the main host keeps working, and so does an active company's subdomain
    expect((await root.get('/api/v1/auth/me')).status).toBe(200);
    const live = t.client();
    await signIn(live, admin, acmeHost());
    expect((await live.post('/api/v1/auth/refresh-token', undefined, { host: acmeHost() })).status).toBe(200);
    expect((await live.get('/api/v1/auth/me', { host: acmeHost() })).status).toBe(200);
  });

  it('ignores spoofed X-Role and X-Tenant-Id headers', async () => {
    const c = t.client();
    await signIn(c, acmeAdmin, acmeHost());
    const me = await c.get('/api/v1/auth/me', { host: acmeHost(), headers: { 'x-role': 'super_admin', 'x-tenant-id': globex.id } });
    expect(me.body).toMatchObject({ role: 'customer_admin', company_id: acme.id });
    const anon = await t.client().get('/api/v1/auth/me', { headers: { 'x-role': 'super_admin', 'x-tenant-id': globex.id } });
    expect(anon.status).toBe(401);
  });

  it('takes about as long for an unknown email as for a wrong password', async () => {
    const c = t.client();
    const time = async (email: string) => {
      const start = performance.now();
      const r = await c.post('/api/v1/auth/login', { email, password: 'not-the-password' });
      expect(r.status).toBe(401);
      return performance.now() - start;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const unknown: number[] = [];
    const known: number[] = [];
    // a different account each time: repeated failures on one account would be made to wait
    const users = await Promise.all(Array.from({ length: 7 }, () => seedUser(t.services, { userType: 1 })));
    for (let i = 0; i < 7; i++) {
      unknown.push(await time(`ghost${i}@example.com`));
      known.push(await time(users[i].email));
    }
    // both pay one argon2id verification; skipping it would make one side ~20x faster
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.33);
    expect(ratio).toBeLessThan(3);
  });

  it('gives pages the same answers: signed-in user per host, and what a host means', async () => {
    const pages = createPageServices(t.services);
    const c = t.client();
    await signIn(c, acmeAdmin, acmeHost());
    const cookie = c.cookieHeader(acmeHost());
    expect(await pages.currentUser(cookie, `${acmeHost()}:${t.port}`)).toEqual({
      id: acmeAdmin.id,
      email: acmeAdmin.email,
      fullName: 'Test User',
      userType: 2,
      role: 'customer_admin',
      companyId: acme.id,
      subdomain: 'acme',
    });
    expect(await pages.currentUser(cookie, `globex.localhost:${t.port}`)).toBeNull();
    expect(await pages.currentUser(null, acmeHost())).toBeNull();
    expect(await pages.currentUser('sw_at=garbage', acmeHost())).toBeNull();

    expect(await pages.resolveHost(`localhost:${t.port}`)).toEqual({ kind: 'root' });
    expect(await pages.resolveHost(`acme.localhost:${t.port}`)).toMatchObject({
      kind: 'tenant',
      subdomain: 'acme',
      company: { id: acme.id, name: 'Acme', subdomain: 'acme', primaryColor: '#007bff', secondaryColor: '#6c757d', logoBase64: null },
    });
    expect(await pages.resolveHost('nosuch.localhost')).toEqual({ kind: 'unknown_tenant', subdomain: 'nosuch' });
    expect(await pages.resolveHost('deadco.localhost')).toEqual({ kind: 'unknown_tenant', subdomain: 'deadco' });
    expect(await pages.resolveHost('127.0.0.1:80')).toEqual({ kind: 'invalid' });
    expect(await pages.resolveHost('evil.example.org')).toEqual({ kind: 'invalid' });
  });

  it('changes the own password: other sessions end, this one continues', async () => {
    const u = await seedUser(t.services, { userType: 3, companyId: globex.id });
    const here = t.client();
    const elsewhere = t.client();
    await signIn(here, u, 'globex.localhost');
    await signIn(elsewhere, u, 'globex.localhost');
    const wrong = await here.post(
      '/api/v1/auth/change-password',
      { current_password: 'nope-nope', new_password: 'Changed-pass-1' },
      { host: 'globex.localhost' },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe('The current password is not correct.');
    const weak = await here.post(
      '/api/v1/auth/change-password',
      { current_password: TEST_PASSWORD, new_password: 'short' },
      { host: 'globex.localhost' },
    );
    expect(weak.status).toBe(400);
    expect(weak.body.detail).toBe('Password must be at least 8 characters.');
    const ok = await here.post(
      '/api/v1/auth/change-password',
      { current_password: TEST_PASSWORD, new_password: 'Changed-pass-1' },
      { host: 'globex.localhost' },
    );
    expect(ok.status).toBe(200);
    expect((await here.get('/api/v1/auth/me', { host: 'globex.localhost' })).status).toBe(200);
    expect((await elsewhere.get('/api/v1/auth/me', { host: 'globex.localhost' })).status).toBe(401);
    expect((await elsewhere.post('/api/v1/auth/refresh-token', undefined, { host: 'globex.localhost' })).status).toBe(401);
    expect(
      (await t.client().post('/api/v1/auth/login', { email: u.email, password: TEST_PASSWORD }, { host: 'globex.localhost' })).status,
    ).toBe(401);
    expect(
      (await t.client().post('/api/v1/auth/login', { email: u.email, password: 'Changed-pass-1' }, { host: 'globex.localhost' })).status,
    ).toBe(200);
    expect((await t.client().post('/api/v1/auth/change-password', { current_password: 'x', new_password: 'Changed-pass-2' })).status).toBe(
      401,
    );
  });

  it('sends security headers on the handoff redirect too', async () => {
    const h = await t.client().get('/auth/handoff?code=nothing');
    expect(h.status).toBe(303);
    expect(h.headers.get('location')).toBe('/login?error=handoff');
    expect(h.headers.get('x-content-type-options')).toBe('nosniff');
    expect(h.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(h.headers.get('cache-control')).toBe('no-store');
    expect(h.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('refuses a cross-site login post', async () => {
    const r = await t
      .client()
      .post(
        '/api/v1/auth/login',
        { email: admin.email, password: TEST_PASSWORD },
        { headers: { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' } },
      );
    expect(r.status).toBe(403);
    expect(r.headers.getSetCookie()).toEqual([]);
  });
});

describe.each(DB_KINDS)('login throttling on %s', (kind) => {
  let t: TestApp;
  let clock = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
  });
  afterAll(async () => t?.close());

  async function attempts(c: ApiClient, email: string, n: number): Promise<number[]> {
    const statuses: number[] = [];
    for (let i = 0; i < n; i++) {
      statuses.push((await c.post('/api/v1/auth/login', { email, password: `wrong-${i}` })).status);
      clock += 65_000; // past the growing wait between attempts
    }
    return statuses;
  }

  it('refuses an address after 10 wrong passwords for one account in an hour, even the right one, without locking other accounts', async () => {
    const victim = await seedUser(t.services, { userType: 1 });
    const bystander = await seedUser(t.services, { userType: 1 });
    const c = t.client();
    const statuses = await attempts(c, victim.email, 11);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    const locked = await c.post('/api/v1/auth/login', { email: victim.email, password: TEST_PASSWORD });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body.detail).toMatch(/^Too many failed sign-in attempts\. Please try again in \d+ minutes?\.$/);
    expect(locked.headers.getSetCookie()).toEqual([]);
    // another account from the same address still signs in
    expect((await signIn(t.client(), bystander)).status).toBe(200);
    // an hour later the victim may sign in again from here
    clock += 3600_000 + 1000;
    expect((await signIn(t.client(), victim)).status).toBe(200);
  });
});

// The per-IP counter lives in memory and does not touch the database: one database suffices.
describe('login throttling per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
  });
  afterAll(async () => t?.close());

  it('refuses an address after 300 failed sign-ins in an hour, whichever accounts they tried', async () => {
    const user = await seedUser(t.services, { userType: 1 });
    const c = t.client();
    for (let i = 0; i < 300; i++) {
      const r = await c.post('/api/v1/auth/login', { email: `spray${i}@example.com`, password: 'Spray-pass-1' });
      expect(r.status).toBe(401);
    }
    const r = await c.post('/api/v1/auth/login', { email: user.email, password: TEST_PASSWORD });
    expect(r.status).toBe(429);
    expect(r.headers.getSetCookie()).toEqual([]);
  });
});

describe.each(DB_KINDS)('sessions served over https on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { PUBLIC_SCHEME: 'https', PRODUCT_DOMAIN: 'status.example.com' } });
  });
  afterAll(async () => t?.close());

  it('uses __Host- and __Secure- cookie names and https links', async () => {
    const co = await seedCompany(t.services, { subdomain: 'acme' });
    const u = await seedUser(t.services, { userType: 2, companyId: co.id });
    const c = t.client();
    const r = await signIn(c, u);
    const set = r.headers.getSetCookie();
    const at = set.find((x) => x.startsWith('__Host-sw_at='))!;
    const rt = set.find((x) => x.startsWith('__Secure-sw_rt='))!;
    expect(at).toMatch(/Path=\/(;|$)/);
    expect(at).toMatch(/Secure/);
    expect(at).not.toMatch(/Domain=/i);
    expect(rt).toMatch(/Path=\/api\/v1\/auth/);
    expect(set.some((x) => x.startsWith('sw_at='))).toBe(false);
    expect(r.body.redirect_to).toMatch(new RegExp(`^https://acme\\.status\\.example\\.com:${t.port}/auth/handoff\\?code=`));
    expect(r.headers.get('strict-transport-security')).toContain('max-age=');
    expect((await c.get('/api/v1/auth/me')).status).toBe(200);
    // the plain name is not accepted in https mode
    const plain = t.client();
    plain.setCookie('status.example.com', 'sw_at', c.jar.get('status.example.com')!.get('__Host-sw_at')!);
    expect((await plain.get('/api/v1/auth/me')).status).toBe(401);
    expect((await c.post('/api/v1/auth/refresh-token')).status).toBe(200);
  });
});
