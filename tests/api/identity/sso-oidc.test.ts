// Single sign-on with OpenID Connect (issue 31) on both databases, against a real OpenID provider
// (oidc-provider) on loopback whose login the test drives as a browser would: the settings (plan,
// verified domains, discovery checked on save, the secret never returned), sign-in with JIT
// creation and roles from the group claim, linking an existing user, the main host's e-mail
// start, Require SSO (passwords refused except the break-glass admin, sessions ended), and the
// refusals: a bad state, a replayed callback, an unverified e-mail, a domain not configured,
// another company's account, a full company.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { OTHER_CLIENT, startTestIdp, type TestIdp } from '../../support/oidc-idp.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { hashSecret } from '../../../src/server/domain/auth/tokens.ts';
import { SSO_REQUIRED_MESSAGE } from '../../../src/lib/sso-messages.ts';
import { accessPage } from '../../../src/server/http/page-access-html.ts';

describe.each(DB_KINDS)('single sign-on with OpenID Connect on %s', (kind) => {
  let t: TestApp;
  let idp: TestIdp;
  let clock = Date.parse('2026-06-01T09:00:00Z');
  let acme: { id: string; subdomain: string };
  let acmeHost: string;
  let globexHost: string;
  let admin: Awaited<ReturnType<typeof seedUser>>;
  let adminClient: ApiClient;

  async function verifyDomain(companyId: string, hostname: string, verified = true) {
    await t.services.db.k
      .insertInto('security_assets')
      .values({
        id: newId(),
        company_id: companyId,
        hostname,
        kind: 'domain',
        verification_token: newId(),
        verification_method: verified ? 'dns_txt' : null,
        verified_at: verified ? clock : null,
        last_verification_at: clock,
        last_verification_error: null,
        verified_addresses: null,
        renewal_reason: null,
        renewal_needed_at: null,
        created_at: clock,
        updated_at: clock,
      } as never)
      .execute();
  }

  const settings = (over: Record<string, unknown> = {}) => ({
    protocol: 'oidc',
    issuer: idp.issuer,
    client_id: idp.clientId,
    client_secret: idp.clientSecret,
    scopes: ['openid', 'email', 'profile', 'groups'],
    group_claim: 'groups',
    group_roles: [{ group: 'sw-admins', role: 'admin' }],
    default_role: 'viewer',
    domains: ['acme.example'],
    ...over,
  });

  /** Starts at `host`, signs `login` in at the provider, and answers where our callback sent the browser. */
  async function ssoSignIn(login: string, opts: { host?: string; query?: string; client?: ApiClient } = {}) {
    const host = opts.host ?? acmeHost;
    const c = opts.client ?? new ApiClient(t.baseUrl, host);
    let start = await c.get(`/api/v1/auth/sso/start${opts.query ?? ''}`, { host });
    expect(start.status, start.text).toBe(303);
    let location = start.headers.get('location')!;
    let at = host;
    if (location.includes(`/api/v1/auth/sso/start`)) {
      // the main host hands the start to the company's host
      const u = new URL(location);
      at = u.hostname;
      start = await c.get(u.pathname + u.search, { host: at });
      location = start.headers.get('location')!;
    }
    if (!location.startsWith(idp.issuer)) return { client: c, callback: null, landed: location, host: at };
    const callback = await idp.signIn(location, login);
    const back = await c.get(callback.pathname + callback.search, { host: at });
    expect(back.status, back.text).toBe(303);
    return { client: c, callback, landed: back.headers.get('location')!, host: at };
  }

  const lastAudit = async (event: string) =>
    t.services.db.k
      .selectFrom('audit_events')
      .selectAll()
      .where('event', '=', event)
      .orderBy('timestamp', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    acme = await seedCompany(t.services, { subdomain: 'acme', plan: 'enterprise', max_users: 20 });
    await seedCompany(t.services, { subdomain: 'globex', plan: 'enterprise' });
    acmeHost = `acme.${t.config.productDomain}`;
    globexHost = `globex.${t.config.productDomain}`;
    idp = await startTestIdp({
      redirectUris: [
        `http://${acmeHost}:${t.port}/api/v1/auth/sso/callback`,
        `http://tiny.${t.config.productDomain}:${t.port}/api/v1/auth/sso/callback`,
      ],
    });
    await verifyDomain(acme.id, 'acme.example');
    await verifyDomain(acme.id, 'unproven.example', false);
    admin = await seedUser(t.services, { userType: 2, companyId: acme.id, email: 'admin@acme.example' });
    idp.accounts.set('ada', { email: 'ada@acme.example', email_verified: true, name: 'Ada Lovelace', groups: ['sw-admins', 'staff'] });
    idp.accounts.set('bob', { email: 'Bob@Acme.example', email_verified: true, name: 'Bob', groups: ['staff'] });
    idp.accounts.set('carol', { email: 'carol@acme.example', email_verified: true, groups: ['sw-admins'] });
    idp.accounts.set('mallory', { email: 'mallory@acme.example', email_verified: false });
    idp.accounts.set('dan', { email: 'dan@elsewhere.example', email_verified: true });
    idp.accounts.set('eve', { email: 'eve@acme.example', email_verified: true });
  });
  afterAll(async () => {
    await idp?.close();
    await t?.close();
  });
  // Each test starts past the previous one's failures (sign-in throttling counts them per address).
  beforeEach(async () => {
    clock += 2 * 3_600_000;
    adminClient = new ApiClient(t.baseUrl, acmeHost);
    await signIn(adminClient, admin);
    clock += 1_000; // the test's own audit rows come after the admin's sign-in
  });

  it('settings: plan-gated, verified domains only, discovery checked on save, the secret sealed and never returned, audited', async () => {
    const before = await adminClient.get('/api/v1/company/sso');
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({
      configured: false,
      plan_allows: true,
      redirect_uri: `http://${acmeHost}:${t.port}/api/v1/auth/sso/callback`,
      verified_domains: ['acme.example'],
    });
    const unverified = await adminClient.put('/api/v1/company/sso', settings({ domains: ['acme.example', 'unproven.example'] }));
    expect(unverified.status).toBe(400);
    expect(unverified.body.errors.domains).toBe('Not verified by your company: unproven.example');
    const noDiscovery = await adminClient.put('/api/v1/company/sso', settings({ issuer: `${idp.issuer}/nowhere` }));
    expect(noDiscovery.status).toBe(400);
    expect(noDiscovery.body.errors.issuer).toContain('No valid OpenID Connect discovery document');
    const viewer = await seedUser(t.services, { userType: 3, companyId: acme.id });
    const vc = new ApiClient(t.baseUrl, acmeHost);
    await signIn(vc, viewer);
    expect((await vc.put('/api/v1/company/sso', settings())).status).toBe(403);

    const saved = await adminClient.put('/api/v1/company/sso', settings());
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({
      configured: true,
      issuer: idp.issuer,
      client_secret_set: true,
      domains: ['acme.example'],
      require_sso: false,
    });
    expect(saved.text).not.toContain(idp.clientSecret);
    const row = await t.services.db.k.selectFrom('company_sso').selectAll().where('company_id', '=', acme.id).executeTakeFirstOrThrow();
    expect(row.client_secret).toMatch(/^sealed:v1:/);
    expect(row.client_secret).not.toContain(idp.clientSecret);
    const audit = await lastAudit('settings_update');
    expect(JSON.parse(audit!.details!)).toMatchObject({ sso: 'create', issuer: idp.issuer, client_secret: 'replaced' });
    expect(audit!.details).not.toContain(idp.clientSecret);

    // a company on a plan without the sso feature cannot turn it on
    const small = await seedCompany(t.services, { plan: 'starter' });
    const smallAdmin = await seedUser(t.services, { userType: 2, companyId: small.id });
    const sc = new ApiClient(t.baseUrl, `${small.subdomain}.${t.config.productDomain}`);
    await signIn(sc, smallAdmin);
    expect((await sc.get('/api/v1/company/sso')).body.plan_allows).toBe(false);
    const refused = await sc.put('/api/v1/company/sso', settings());
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain('Enterprise plan');
  });

  it('signs a new person in just in time, as admin from the mapped group, with a normal session on the company host', async () => {
    const r = await ssoSignIn('ada');
    expect(r.landed).toBe('/dashboard');
    const me = await r.client.get('/api/v1/auth/me', { host: acmeHost });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ email: 'ada@acme.example', full_name: 'Ada Lovelace', role: 'customer_admin', company_id: acme.id });
    const created = await lastAudit('user_create');
    expect(JSON.parse(created!.details!)).toMatchObject({ email: 'ada@acme.example', via: 'sso', role: 'admin' });
    const login = await lastAudit('user_login');
    expect(login!.user_id).toBe(me.body.id);
    expect(JSON.parse(login!.details!)).toMatchObject({ via: 'sso', protocol: 'oidc', created: true });
  });

  it('gives the default role without a mapped group, and keeps e-mails lower-case', async () => {
    const r = await ssoSignIn('bob');
    const me = await r.client.get('/api/v1/auth/me', { host: acmeHost });
    expect(me.body).toMatchObject({ email: 'bob@acme.example', role: 'customer_viewer' });
  });

  it('links an existing user of the company by e-mail (their own account and role)', async () => {
    const carol = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'carol@acme.example' });
    const r = await ssoSignIn('carol');
    const me = await r.client.get('/api/v1/auth/me', { host: acmeHost });
    expect(me.body).toMatchObject({ id: carol.id, role: 'customer_viewer' });
  });

  it('starts on the main host from the e-mail domain (posted in a form, never in an address) and continues on the company host', async () => {
    const main = new ApiClient(t.baseUrl, t.config.productDomain);
    const postEmail = (email: string) =>
      main.request('POST', '/api/v1/auth/sso/start', {
        raw: new URLSearchParams({ email }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    const onward = (html: string) =>
      new URL(/http-equiv="refresh" content="0;url=([^"]+)"/.exec(html)![1].replace(/&amp;/g, '&'), 'http://x');
    const handed = await postEmail('ada@acme.example');
    expect(handed.status, handed.text).toBe(200);
    const next = onward(handed.text);
    expect(next.hostname).toBe(acmeHost);
    expect(next.pathname + next.search).toBe('/api/v1/auth/sso/start');
    const r = await ssoSignIn('ada', { host: acmeHost, client: main });
    expect(r.landed).toBe('/dashboard');
    expect((await main.get('/api/v1/auth/me', { host: acmeHost })).body.email).toBe('ada@acme.example');
    const unknown = await postEmail('someone@unproven.example');
    expect(onward(unknown.text).pathname + onward(unknown.text).search).toBe('/login?sso_error=unknown_domain');
    // the address no longer takes an e-mail at all
    expect((await main.get('/api/v1/auth/sso/start?email=ada%40acme.example')).status).toBe(400);
  });

  it('lands on the page the sign-in started from (a private status page), never another site', async () => {
    // the private page (signed-in users only) of a company with SSO offers it
    expect((await adminClient.put('/api/v1/status-page/access', { mode: 'users' })).status).toBe(200);
    const gate = await new ApiClient(t.baseUrl, acmeHost).get('/history', { host: acmeHost });
    expect(gate.status).toBe(401);
    expect(gate.text).toContain('/api/v1/auth/sso/start?return_to=%2Fhistory');
    expect((await adminClient.put('/api/v1/status-page/access', { mode: 'public' })).status).toBe(200);
    expect((await ssoSignIn('ada', { query: '?return_to=%2F' })).landed).toBe('/');
    expect((await ssoSignIn('ada', { query: '?return_to=%2F%2Fevil.example%2F' })).landed).toBe('/dashboard');
  });

  it('refuses an e-mail the provider has not verified, and one outside the configured domains, audited with the reason', async () => {
    expect((await ssoSignIn('mallory')).landed).toBe('/login?sso_error=email_unverified');
    const a1 = await lastAudit('sso_login_failed');
    expect(a1!.tenant_id).toBe(acme.id);
    expect(JSON.parse(a1!.details!)).toMatchObject({
      reason: 'email_unverified',
      detail: 'mallory@acme.example: email_verified is not true',
    });
    clock += 1_000;
    expect((await ssoSignIn('dan')).landed).toBe('/login?sso_error=domain');
    expect(JSON.parse((await lastAudit('sso_login_failed'))!.details!).reason).toBe('domain');
    expect(
      await t.services.db.k
        .selectFrom('users')
        .select('id')
        .where('email', 'in', ['mallory@acme.example', 'dan@elsewhere.example'])
        .execute(),
    ).toEqual([]);
  });

  it("refuses an account of another company with the same e-mail: this company's IdP signs in only its own people", async () => {
    const globex = await t.services.db.k.selectFrom('companies').select('id').where('subdomain', '=', 'globex').executeTakeFirstOrThrow();
    const eve = await seedUser(t.services, { userType: 2, companyId: globex.id, email: 'eve@acme.example' });
    const r = await ssoSignIn('eve');
    expect(r.landed).toBe('/login?sso_error=other_company');
    expect((await r.client.get('/api/v1/auth/me', { host: acmeHost })).status).toBe(401);
    const a = await lastAudit('sso_login_failed');
    expect(a!.user_id).toBe(eve.id);
    expect(JSON.parse(a!.details!).reason).toBe('other_company');
    // and the company without SSO has nothing to start
    const g = await new ApiClient(t.baseUrl, globexHost).get('/api/v1/auth/sso/start', { host: globexHost });
    expect(g.headers.get('location')).toBe('/login?sso_error=not_configured');
  });

  it('refuses a callback whose state is not the one this browser was given, and a replayed callback', async () => {
    const c = new ApiClient(t.baseUrl, acmeHost);
    const start = await c.get('/api/v1/auth/sso/start', { host: acmeHost });
    const callback = await idp.signIn(start.headers.get('location')!, 'ada');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state');
    expect((await c.get(forged.pathname + forged.search, { host: acmeHost })).headers.get('location')).toBe('/login?sso_error=expired');
    // another browser (no state cookie) cannot use the code either
    const other = new ApiClient(t.baseUrl, acmeHost);
    expect((await other.get(callback.pathname + callback.search, { host: acmeHost })).headers.get('location')).toBe(
      '/login?sso_error=expired',
    );

    const ok = await ssoSignIn('ada');
    expect(ok.landed).toBe('/dashboard');
    // the same callback again, with the browser's state cookie put back: used once only
    clock += 1_000; // the audit rows below are told apart by time
    ok.client.setCookie(acmeHost, 'sw_sso', ok.callback!.searchParams.get('state')!);
    const replay = await ok.client.get(ok.callback!.pathname + ok.callback!.search, { host: acmeHost });
    expect(replay.headers.get('location')).toBe('/login?sso_error=expired');
    expect(JSON.parse((await lastAudit('sso_login_failed'))!.details!).detail).toBe('state already used (replayed callback)');
  });

  it('refuses an ID token issued to another application, or by another provider (audience, issuer, signature checked)', async () => {
    const second = await startTestIdp({ redirectUris: [`http://${acmeHost}:${t.port}/api/v1/auth/sso/callback`] });
    second.accounts.set('ada', { email: 'ada@acme.example', email_verified: true });
    const redirectUri = `http://${acmeHost}:${t.port}/api/v1/auth/sso/callback`;
    // The provider's token endpoint answers with a genuine token made for the same sign-in (same
    // nonce), but issued to another client, then by another provider.
    const pendingNonce = async () =>
      (
        await t.services.db.k
          .selectFrom('sso_requests')
          .select('nonce')
          .where('used_at', 'is', null)
          .orderBy('created_at', 'desc')
          .executeTakeFirstOrThrow()
      ).nonce;
    try {
      idp.tamperTokens = async (answer) => ({
        ...answer,
        id_token: await idp.idTokenFor('ada', { clientId: OTHER_CLIENT.id, nonce: await pendingNonce(), redirectUri }),
      });
      const wrongAudience = await ssoSignIn('ada');
      expect(wrongAudience.landed).toBe('/login?sso_error=token');
      expect((await wrongAudience.client.get('/api/v1/auth/me', { host: acmeHost })).status).toBe(401);
      expect(JSON.parse((await lastAudit('sso_login_failed'))!.details!).detail).toMatch(/claim aud/);

      clock += 1_000;
      idp.tamperTokens = async (answer) => ({
        ...answer,
        id_token: await second.idTokenFor('ada', { clientId: second.clientId, nonce: await pendingNonce(), redirectUri }),
      });
      const wrongIssuer = await ssoSignIn('ada');
      expect(wrongIssuer.landed).toBe('/login?sso_error=token');
      expect(JSON.parse((await lastAudit('sso_login_failed'))!.details!).detail).toMatch(/claim iss/);
    } finally {
      idp.tamperTokens = null;
      await second.close();
    }
    // the untouched answer still signs in
    expect((await ssoSignIn('ada')).landed).toBe('/dashboard');
  });

  it('refuses a new person when the company is at max_users, with the reason on the page', async () => {
    const tiny = await seedCompany(t.services, { subdomain: 'tiny', plan: 'enterprise', max_users: 1 });
    await verifyDomain(tiny.id, 'tiny.example');
    const owner = await seedUser(t.services, { userType: 2, companyId: tiny.id, email: 'owner@tiny.example' });
    const oc = new ApiClient(t.baseUrl, `tiny.${t.config.productDomain}`);
    await signIn(oc, owner);
    expect((await oc.put('/api/v1/company/sso', settings({ domains: ['tiny.example'] }))).status).toBe(200);
    idp.accounts.set('tina', { email: 'tina@tiny.example', email_verified: true });
    const r = await ssoSignIn('tina', { host: `tiny.${t.config.productDomain}` });
    expect(r.landed).toBe('/login?sso_error=full');
    expect(JSON.parse((await lastAudit('sso_login_failed'))!.details!).detail).toBe('1 of 1 users: no room for tina@tiny.example');
  });

  it('Require SSO: ends the sessions of the company users, refuses their password, keeps the break-glass admin', async () => {
    const frank = await seedUser(t.services, { userType: 3, companyId: acme.id, email: 'frank@acme.example' });
    const fc = new ApiClient(t.baseUrl, acmeHost);
    await signIn(fc, frank);
    expect((await fc.get('/api/v1/auth/me')).status).toBe(200);
    const noBreakGlass = await adminClient.put('/api/v1/company/sso', { ...settings(), require_sso: true });
    expect(noBreakGlass.status).toBe(400);
    expect(noBreakGlass.body.errors.break_glass_user_id).toBe('Required when Require SSO is on');
    const { client_secret: _kept, ...keepSecret } = settings();
    const on = await adminClient.put('/api/v1/company/sso', { ...keepSecret, require_sso: true, break_glass_user_id: admin.id });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ require_sso: true, break_glass_user_id: admin.id, client_secret_set: true });
    expect(JSON.parse((await lastAudit('settings_update'))!.details!)).toMatchObject({ require_sso: true, client_secret: 'kept' });

    expect((await fc.get('/api/v1/auth/me')).status).toBe(401);
    const pw = await fc.post('/api/v1/auth/login', { email: frank.email, password: frank.password });
    expect(pw.status).toBe(403);
    expect(pw.body.detail).toBe(SSO_REQUIRED_MESSAGE);
    // a reset link mailed before is refused too, and asking for one answers as for anyone
    const token = 'a-reset-link-token-mailed-before-sso-was-required';
    await t.services.db.k
      .insertInto('auth_codes')
      .values({
        id: newId(),
        kind: 'reset',
        code_hash: hashSecret(token),
        user_id: frank.id,
        host: acmeHost,
        remember: false,
        session_version: 2,
        created_at: clock,
        expires_at: clock + 1_800_000,
        used_at: null,
      })
      .execute();
    const reset = await fc.post('/api/v1/auth/reset-password', { token, new_password: 'Brand-new-pass-1' });
    expect(reset.status).toBe(403);
    expect(reset.body.detail).toBe(SSO_REQUIRED_MESSAGE);
    expect((await fc.post('/api/v1/auth/forgot-password', { email: frank.email })).status).toBe(202);
    // the break-glass admin's session went on, and their password still works
    expect((await adminClient.get('/api/v1/auth/me')).status).toBe(200);
    expect(
      (await new ApiClient(t.baseUrl, acmeHost).post('/api/v1/auth/login', { email: admin.email, password: admin.password })).status,
    ).toBe(200);
    // SSO still signs Frank's colleagues in (the secret kept from before works)
    expect((await ssoSignIn('ada')).landed).toBe('/dashboard');

    const off = await adminClient.put('/api/v1/company/sso', { ...keepSecret, require_sso: false });
    expect(off.status).toBe(200);
    expect((await fc.post('/api/v1/auth/login', { email: frank.email, password: frank.password })).status).toBe(200);
  });

  it('throttles like a password sign-in: failures from one address make it wait', async () => {
    for (let i = 0; i < 3; i++) expect((await ssoSignIn('mallory')).landed).toBe('/login?sso_error=email_unverified');
    clock += 500; // still inside the 1 s wait after the 3rd failure; the audit rows told apart by time
    const waiting = await new ApiClient(t.baseUrl, acmeHost).get('/api/v1/auth/sso/start', { host: acmeHost });
    expect(waiting.headers.get('location')).toBe('/login?sso_error=throttled');
    expect(JSON.parse((await lastAudit('sso_login_failed'))!.details!).reason).toBe('throttled');
    clock += 60_000;
    expect((await ssoSignIn('ada')).landed).toBe('/dashboard');
  });

  it('removing single sign-on is audited and the start then says it is not set up', async () => {
    const gone = await adminClient.delete('/api/v1/company/sso');
    expect(gone.status).toBe(204);
    expect(JSON.parse((await lastAudit('settings_update'))!.details!)).toEqual({ sso: 'delete' });
    expect((await adminClient.get('/api/v1/company/sso')).body.configured).toBe(false);
    expect((await adminClient.delete('/api/v1/company/sso')).status).toBe(404);
    const start = await new ApiClient(t.baseUrl, acmeHost).get('/api/v1/auth/sso/start', { host: acmeHost });
    expect(start.headers.get('location')).toBe('/login?sso_error=not_configured');
  });

  it("a private page in 'signed-in users' mode offers SSO (when the company has it) and comes back to the page", () => {
    const html = accessPage({ mode: 'users', next: '/history?x=1', sso: true });
    expect(html).toContain('<a class="btn" href="/api/v1/auth/sso/start?return_to=%2Fhistory%3Fx%3D1">Sign in with SSO</a>');
    expect(accessPage({ mode: 'users', next: '/history?x=1', sso: false })).not.toContain('/api/v1/auth/sso/start');
  });
});
