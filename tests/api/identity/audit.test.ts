// The audit trail on both databases: client events take who/role/tenant/session from the
// session, are bounded and rate-limited; server events; the super admins' log with filters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

describe.each(DB_KINDS)('audit on %s', (kind) => {
  let t: TestApp;
  let clock = Date.parse('2026-03-01T10:00:00Z');
  let root: ApiClient;
  let rootUser: Awaited<ReturnType<typeof seedUser>>;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let viewer: Awaited<ReturnType<typeof seedUser>>;
  let viewerClient: ApiClient;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    rootUser = await seedUser(t.services, { userType: 1 });
    acme = await seedCompany(t.services, { subdomain: 'acme' });
    globex = await seedCompany(t.services, { subdomain: 'globex' });
    viewer = await seedUser(t.services, { userType: 3, companyId: acme.id });
    root = t.client();
    await signIn(root, rootUser);
    viewerClient = t.client();
    await signIn(viewerClient, viewer, 'acme.localhost');
  });
  afterAll(async () => t?.close());

  it('records client events with the session’s actor, role, tenant and session, whatever the body claims', async () => {
    clock += 1000;
    const r = await viewerClient.post(
      '/api/v1/audit',
      {
        event: 'tenant_switch',
        details: { previous: null, next: globex.id },
        timestamp: '2020-01-01T00:00:00.000Z',
        userId: rootUser.id,
        userRole: 'super_admin',
        tenantId: globex.id,
        sessionId: 'forged-session',
        userAgent: 'forged-agent',
      },
      { host: 'acme.localhost', headers: { 'user-agent': 'RealBrowser/1.0', 'x-role': 'super_admin', 'x-tenant-id': globex.id } },
    );
    expect(r.status).toBe(202);
    const log = await root.get('/api/v1/admin/audit?event=tenant_switch');
    expect(log.status).toBe(200);
    expect(log.body.items).toHaveLength(1);
    const e = log.body.items[0];
    expect(e).toMatchObject({
      event: 'tenant_switch',
      userId: viewer.id,
      userRole: 'customer_viewer',
      tenantId: acme.id,
      userAgent: 'RealBrowser/1.0',
      source: 'client',
      timestamp: new Date(clock).toISOString(),
    });
    expect(e.sessionId).not.toBe('forged-session');
    expect(e.details).toEqual({ previous: null, next: globex.id, client_timestamp: '2020-01-01T00:00:00.000Z' });
  });

  it('refuses anonymous, unknown, oversized and excessive events', async () => {
    clock += 5000;
    expect((await t.client().post('/api/v1/audit', { event: 'feature_access' })).status).toBe(401);
    expect((await viewerClient.post('/api/v1/audit', { event: 'drop_tables' }, { host: 'acme.localhost' })).status).toBe(400);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    expect((await viewerClient.post('/api/v1/audit', { event: 'error_occurred', details: many }, { host: 'acme.localhost' })).status).toBe(
      400,
    );
    const huge = await viewerClient.post(
      '/api/v1/audit',
      { event: 'error_occurred', details: { stack: 'x'.repeat(9000) } },
      { host: 'acme.localhost' },
    );
    expect(huge.status).toBe(400);
    expect(huge.body.detail).toBe('Audit details must be at most 8192 characters of JSON.');
    expect(
      (await viewerClient.post('/api/v1/audit', { event: 'error_occurred', userAgent: 'u'.repeat(600) }, { host: 'acme.localhost' }))
        .status,
    ).toBe(400);

    const flood = t.client();
    await signIn(flood, viewer, 'acme.localhost');
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++)
      statuses.push((await flood.post('/api/v1/audit', { event: 'feature_access' }, { host: 'acme.localhost' })).status);
    expect(statuses.slice(0, 120).every((s) => s === 202)).toBe(true);
    expect(statuses[120]).toBe(429);
    // a minute later it is accepted again
    clock += 61_000;
    expect((await flood.post('/api/v1/audit', { event: 'feature_access' }, { host: 'acme.localhost' })).status).toBe(202);
  });

  it('records server events for logins, logouts, tenant and user changes', async () => {
    const c = t.client();
    clock += 1000;
    await signIn(c, viewer, 'acme.localhost');
    await c.post('/api/v1/auth/logout', undefined, { host: 'acme.localhost' });
    const co = await root.post('/api/v1/admin/companies', { name: 'Audited', email: 'a@audited.example.com', subdomain: 'audited' });
    await root.put(`/api/v1/admin/companies/${co.body.id}`, { name: 'Audited 2', email: 'a@audited.example.com', subdomain: 'audited' });
    const u = await root.post('/api/v1/admin/users', {
      name: 'Aud',
      email: 'aud@example.com',
      password: 'Audited-pass-1',
      user_type: '3',
      company_id: co.body.id,
    });
    await root.put(`/api/v1/admin/users/${u.body.id}`, { name: 'Aud', email: 'aud@example.com', user_type: '2', company_id: co.body.id });
    await root.delete(`/api/v1/admin/users/${u.body.id}`);
    await root.delete(`/api/v1/admin/companies/${co.body.id}`);
    const events = (await root.get(`/api/v1/admin/audit?tenant_id=${co.body.id}&limit=200`)).body.items.map((e: any) => e.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'tenant_create',
        'tenant_update',
        'user_create',
        'user_role_change',
        'user_update',
        'user_delete',
        'tenant_delete',
      ]),
    );
    const mine = (await root.get(`/api/v1/admin/audit?user_id=${viewer.id}&limit=200`)).body.items;
    const login = mine.find((e: any) => e.event === 'user_login');
    const logout = mine.find((e: any) => e.event === 'user_logout');
    expect(login).toMatchObject({ source: 'server', tenantId: acme.id, userRole: 'customer_viewer' });
    expect(logout).toMatchObject({ source: 'server', tenantId: acme.id, sessionId: login.sessionId });
  });

  it('records session_expired when a refresh token is used twice', async () => {
    // a later sign-in than the previous test's, so "the newest user_login" is this one
    clock += 1000;
    const c = t.client();
    await signIn(c, viewer, 'acme.localhost');
    const rt = c.jar.get('acme.localhost')!.get('sw_rt')!;
    expect((await c.post('/api/v1/auth/refresh-token', undefined, { host: 'acme.localhost' })).status).toBe(200);
    const thief = t.client();
    thief.setCookie('acme.localhost', 'sw_rt', rt);
    expect(
      (await thief.post('/api/v1/auth/refresh-token', undefined, { host: 'acme.localhost', headers: { 'user-agent': 'thief/1.0' } }))
        .status,
    ).toBe(401);
    const items = (await root.get(`/api/v1/admin/audit?event=session_expired&user_id=${viewer.id}`)).body.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      event: 'session_expired',
      source: 'server',
      userId: viewer.id,
      userAgent: 'thief/1.0',
      details: { reason: 'refresh token reused; session revoked' },
    });
    // the session it names is the one that signed in
    const login = (await root.get(`/api/v1/admin/audit?event=user_login&user_id=${viewer.id}`)).body.items[0];
    expect(items[0].sessionId).toBe(login.sessionId);
  });

  it('records user_login for a sign-in handed over to the company subdomain', async () => {
    const u = await seedUser(t.services, { userType: 2, companyId: acme.id });
    const c = t.client();
    const r = await signIn(c, u);
    const first = (await root.get(`/api/v1/admin/audit?event=user_login&user_id=${u.id}`)).body.items;
    expect(first).toHaveLength(1);
    expect(first[0].details).toMatchObject({ host: 'localhost' });
    clock += 1000;
    const link = new URL(r.body.redirect_to);
    const h = await c.get(`${link.pathname}${link.search}`, { host: 'acme.localhost', headers: { 'user-agent': 'browser/2.0' } });
    expect(h.headers.get('location')).toBe('/dashboard');
    const items = (await root.get(`/api/v1/admin/audit?event=user_login&user_id=${u.id}`)).body.items;
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      event: 'user_login',
      source: 'server',
      userId: u.id,
      userRole: 'customer_admin',
      tenantId: acme.id,
      userAgent: 'browser/2.0',
      details: { host: 'acme.localhost', via: 'handoff', remember: false },
    });
    expect(items[0].sessionId).not.toBe(first[0].sessionId);
    // the session it names is the one the browser now holds on the subdomain
    await c.post('/api/v1/auth/logout', undefined, { host: 'acme.localhost' });
    const logout = (await root.get(`/api/v1/admin/audit?event=user_logout&user_id=${u.id}`)).body.items[0];
    expect(logout.sessionId).toBe(items[0].sessionId);
    // a refused code records nothing
    await t.client().get(`${link.pathname}${link.search}`, { host: 'acme.localhost' });
    expect((await root.get(`/api/v1/admin/audit?event=user_login&user_id=${u.id}`)).body.items).toHaveLength(2);
  });

  it('filters by time and pages the log', async () => {
    const all = (await root.get('/api/v1/admin/audit?limit=200')).body;
    expect(all.total).toBe(all.items.length);
    const times = all.items.map((e: any) => Date.parse(e.timestamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const p1 = await root.get('/api/v1/admin/audit?limit=2&offset=0');
    const p2 = await root.get('/api/v1/admin/audit?limit=2&offset=2');
    expect(p1.body).toMatchObject({ limit: 2, offset: 0, total: all.total });
    expect([...p1.body.items, ...p2.body.items].map((e: any) => e.id)).toEqual(all.items.slice(0, 4).map((e: any) => e.id));
    const from = new Date(Date.parse('2026-03-01T10:00:00Z') + 500).toISOString();
    const to = new Date(Date.parse('2026-03-01T10:00:01Z') + 500).toISOString();
    const window = await root.get(`/api/v1/admin/audit?from=${from}&to=${to}`);
    expect(window.body.items.map((e: any) => e.event)).toEqual(['tenant_switch']);
    expect((await root.get(`/api/v1/admin/audit?from=${to}&to=${from}`)).status).toBe(400);
    expect((await root.get('/api/v1/admin/audit?from=yesterday')).status).toBe(400);
    expect((await root.get('/api/v1/admin/audit?limit=500')).status).toBe(400);
  });
});
