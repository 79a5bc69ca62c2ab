// API tokens on both databases, as a script would use them (`Authorization: Bearer swt_…`,
// no cookies): the secret shown once and stored hashed, read scope refused writes, the
// creator's role and company deciding the rest, expired, revoked and deactivated tokens
// answered 401, and tokens kept away from the calls of a signed-in person.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { usersRepo } from '../../../src/server/db/repositories/users-repo.ts';

describe.each(DB_KINDS)('API tokens on %s', (kind) => {
  let t: TestApp;
  let clock = Date.parse('2026-04-01T08:00:00Z');
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let admin: ApiClient;
  let viewer: ApiClient;
  let other: ApiClient;
  let root: ApiClient;
  let adminUser: Awaited<ReturnType<typeof seedUser>>;
  let acmeHost: string;
  let globexHost: string;
  let globexMonitorId: string;

  const monitor = (name: string) => ({ name, type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 60, is_public: false });
  /** A script: no cookie jar in use, only the bearer header. */
  const script = (token: string, host: string) => {
    const c = new ApiClient(t.baseUrl, host);
    const auth = { authorization: `Bearer ${token}` };
    return {
      get: (p: string) => c.get(p, { headers: auth }),
      post: (p: string, body: unknown, headers: Record<string, string> = {}) => c.post(p, body, { headers: { ...auth, ...headers } }),
      delete: (p: string) => c.delete(p, { headers: auth }),
    };
  };
  const create = async (c: ApiClient, host: string, body: Record<string, unknown>) => {
    const r = await c.post('/api/v1/api-tokens', body, { host });
    expect(r.status, r.text).toBe(201);
    return r.body as { id: string; token: string; prefix: string };
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' }, now: () => clock });
    acme = await seedCompany(t.services, { subdomain: 'acme' });
    globex = await seedCompany(t.services, { subdomain: 'globex' });
    acmeHost = `acme.${t.config.productDomain}`;
    globexHost = `globex.${t.config.productDomain}`;
    adminUser = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const viewerUser = await seedUser(t.services, { userType: 3, companyId: acme.id });
    const otherUser = await seedUser(t.services, { userType: 2, companyId: globex.id });
    admin = new ApiClient(t.baseUrl, acmeHost);
    viewer = new ApiClient(t.baseUrl, acmeHost);
    other = new ApiClient(t.baseUrl, globexHost);
    root = t.client();
    await signIn(admin, adminUser);
    await signIn(viewer, viewerUser);
    await signIn(other, otherUser);
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const m = await other.post('/api/v1/monitors', monitor('Globex site'));
    expect(m.status, m.text).toBe(201);
    globexMonitorId = m.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers the secret once; the list shows name, scope, dates and prefix, never the secret; the database holds only its hash', async () => {
    const made = await create(admin, acmeHost, { name: 'CI deploys', scope: 'write' });
    expect(made.token).toMatch(/^swt_[A-Za-z0-9_-]{43}$/);
    expect(made.token.startsWith(made.prefix)).toBe(true);
    const list = await admin.get('/api/v1/api-tokens', { host: acmeHost });
    const row = list.body.find((x: any) => x.id === made.id);
    expect(row).toMatchObject({ name: 'CI deploys', scope: 'write', expires_at: null, last_used_at: null, expired: false });
    expect(list.text).not.toContain(made.token);
    const stored = await t.services.db.k.selectFrom('api_tokens').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(made.token.slice(4));
    // another user of the same company does not see it
    expect((await viewer.get('/api/v1/api-tokens', { host: acmeHost })).body.map((x: any) => x.id)).not.toContain(made.id);
  });

  it('a read-only token reads but every write is 403', async () => {
    const { token } = await create(admin, acmeHost, { name: 'dashboards', scope: 'read' });
    const s = script(token, acmeHost);
    const list = await s.get('/api/v1/monitors');
    expect(list.status, list.text).toBe(200);
    const w = await s.post('/api/v1/monitors', monitor('nope'));
    expect(w.status).toBe(403);
    expect(w.body.detail).toMatch(/read-only/);
  });

  it('a write token acts as its admin on the company address: creates, and records when it was last used (at most once a minute)', async () => {
    const made = await create(admin, acmeHost, { name: 'terraform', scope: 'write' });
    const s = script(made.token, acmeHost);
    const w = await s.post('/api/v1/monitors', monitor('made by a script'));
    expect(w.status, w.text).toBe(201);
    const lastUsed = async () =>
      (await admin.get('/api/v1/api-tokens', { host: acmeHost })).body.find((x: any) => x.id === made.id).last_used_at;
    const first = await lastUsed();
    expect(first).toBe(new Date(clock).toISOString());
    clock += 30_000;
    await s.get('/api/v1/monitors');
    expect(await lastUsed()).toBe(first);
    clock += 31_000;
    await s.get('/api/v1/monitors');
    expect(await lastUsed()).toBe(new Date(clock).toISOString());
  });

  it("a company's token never reads another company: another company's monitor is 404, another company's host 403, admin calls 403", async () => {
    const { token } = await create(admin, acmeHost, { name: 'ops', scope: 'write' });
    const own = script(token, acmeHost);
    expect((await own.get(`/api/v1/monitors/${globexMonitorId}`)).status).toBe(404);
    const names = (await own.get('/api/v1/monitors')).body;
    expect(JSON.stringify(names)).not.toContain('Globex site');
    const there = await script(token, globexHost).get('/api/v1/monitors');
    expect(there.status).toBe(403);
    expect((await own.get('/api/v1/admin/companies')).status).toBe(403);
    // an invitation naming another company is for the token owner's own company (company admins
    // invite while the platform setting allows, as here), never for Globex
    const inv = await own.post('/api/v1/admin/invitations', { email: 'x@example.com', name: 'X', company_id: globex.id, user_type: '2' });
    expect(inv.status).toBe(201);
    expect(inv.body.company_id).toBe(acme.id);
  });

  it("a viewer's write token still cannot write", async () => {
    const { token } = await create(viewer, acmeHost, { name: 'viewer script', scope: 'write' });
    const s = script(token, acmeHost);
    expect((await s.get('/api/v1/monitors')).status).toBe(200);
    expect((await s.post('/api/v1/monitors', monitor('viewer'))).status).toBe(403);
  });

  it("a user revokes only their own tokens; another user's id is 404", async () => {
    const mine = await create(admin, acmeHost, { name: 'mine', scope: 'read' });
    expect((await viewer.delete(`/api/v1/api-tokens/${mine.id}`, { host: acmeHost })).status).toBe(404);
    expect((await script(mine.token, acmeHost).get('/api/v1/monitors')).status).toBe(200);
  });

  it('a token cannot mint tokens, change the password or open a browser session (handoff)', async () => {
    const { token } = await create(admin, acmeHost, { name: 'write', scope: 'write' });
    const s = script(token, acmeHost);
    expect((await s.get('/api/v1/api-tokens')).status).toBe(403);
    expect((await s.post('/api/v1/api-tokens', { name: 'more', scope: 'write' })).status).toBe(403);
    expect((await s.post('/api/v1/auth/handoff', undefined)).status).toBe(403);
    expect(
      (await s.post('/api/v1/auth/change-password', { current_password: adminUser.password, new_password: 'Another-password-2' })).status,
    ).toBe(403);
    expect((await s.get('/api/v1/auth/me')).body.email).toBe(adminUser.email);
  });

  it('a bearer request without cookies needs no same-origin check; with the session cookies a cross-site write is still refused', async () => {
    const { token } = await create(admin, acmeHost, { name: 'cross', scope: 'write' });
    const r = await script(token, acmeHost).post('/api/v1/monitors', monitor('from a script'), { origin: 'https://elsewhere.example' });
    expect(r.status, r.text).toBe(201);
    const withCookies = await admin.post('/api/v1/monitors', monitor('forged'), {
      host: acmeHost,
      headers: { authorization: `Bearer ${token}`, origin: 'https://elsewhere.example' },
    });
    expect(withCookies.status).toBe(403);
  });

  it('a user holds at most 50 live tokens; revoking one makes room', async () => {
    const u = await seedUser(t.services, { userType: 3, companyId: acme.id });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, u);
    const made = [];
    for (let i = 0; i < 50; i++) made.push(await create(c, acmeHost, { name: `t${i}`, scope: 'read' }));
    const over = await c.post('/api/v1/api-tokens', { name: 'one more', scope: 'read' }, { host: acmeHost });
    expect(over.status).toBe(422);
    expect(over.body.detail).toMatch(/50 API tokens/);
    await c.delete(`/api/v1/api-tokens/${made[0].id}`, { host: acmeHost });
    await create(c, acmeHost, { name: 'one more', scope: 'read' });
  });

  it('rejects a past expiry and an unknown scope', async () => {
    expect(
      (
        await admin.post(
          '/api/v1/api-tokens',
          { name: 'old', scope: 'read', expires_at: new Date(clock - 1000).toISOString() },
          { host: acmeHost },
        )
      ).status,
    ).toBe(400);
    expect((await admin.post('/api/v1/api-tokens', { name: 'x', scope: 'admin' }, { host: acmeHost })).status).toBe(400);
  });
  // Last: it moves the clock past the sessions' access tokens.
  it('an expired token, a revoked token, and the token of a deactivated user are 401', async () => {
    const expiring = await create(admin, acmeHost, { name: 'short', scope: 'read', expires_at: new Date(clock + 3_600_000).toISOString() });
    const revoked = await create(admin, acmeHost, { name: 'leaked', scope: 'read' });
    expect((await script(expiring.token, acmeHost).get('/api/v1/monitors')).status).toBe(200);
    expect((await script(revoked.token, acmeHost).get('/api/v1/monitors')).status).toBe(200);
    expect((await admin.delete(`/api/v1/api-tokens/${revoked.id}`, { host: acmeHost })).status).toBe(200);
    expect((await admin.delete(`/api/v1/api-tokens/${revoked.id}`, { host: acmeHost })).status).toBe(404);
    const gone = await script(revoked.token, acmeHost).get('/api/v1/monitors');
    expect(gone.status).toBe(401);
    expect(gone.headers.get('content-type')).toContain('application/problem+json');
    clock += 3_600_001;
    expect((await script(expiring.token, acmeHost).get('/api/v1/monitors')).status).toBe(401);
    expect((await script('swt_made-up', acmeHost).get('/api/v1/monitors')).status).toBe(401);
    expect((await script('not-even-ours', acmeHost).get('/api/v1/monitors')).status).toBe(401);

    const u = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const c = new ApiClient(t.baseUrl, acmeHost);
    await signIn(c, u);
    const { token } = await create(c, acmeHost, { name: 'soon gone', scope: 'read' });
    expect((await script(token, acmeHost).get('/api/v1/monitors')).status).toBe(200);
    await usersRepo(t.services.db).update(u.id, { is_active: false, updated_at: clock });
    expect((await script(token, acmeHost).get('/api/v1/monitors')).status).toBe(401);
  });
});
