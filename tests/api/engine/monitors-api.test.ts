// The monitors, incidents, maintenance, push and notification calls through the real HTTP server
// (every response checked against the OpenAPI document), on SQLite and PostgreSQL: tenant
// isolation, roles, plan limits, and the spec's summary and recent-incidents shapes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';

describe.each(DB_KINDS)('monitoring API on %s', (kind) => {
  let t: TestApp;
  let http: HttpTargets;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let admin: ApiClient;
  let viewer: ApiClient;
  let otherAdmin: ApiClient;
  let root: ApiClient;

  const monitorBody = (over: Record<string, unknown> = {}) => ({
    name: 'Website',
    type: 'http',
    url: http.url('/ok'),
    interval_seconds: 60,
    is_public: true,
    ...over,
  });

  beforeAll(async () => {
    http = await startHttpTargets();
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' } });
    // Every save here is checked at once: the limits on that are tested in tests/api/hardening/monitors-immediate-checks.test.ts.
    t.services.monitoring = { engine: createEngine(t.services), immediateChecks: { windowMs: 0, perCompany: Infinity } };
    acme = await seedCompany(t.services, { plan: 'starter' });
    globex = await seedCompany(t.services, { plan: 'professional' });
    const users = {
      admin: await seedUser(t.services, { userType: 2, companyId: acme.id }),
      viewer: await seedUser(t.services, { userType: 3, companyId: acme.id }),
      other: await seedUser(t.services, { userType: 2, companyId: globex.id }),
      root: await seedUser(t.services, { userType: 1 }),
    };
    // Company users work on their company's host; the super admin on the main one.
    const on = (c: { subdomain: string }) => new ApiClient(t.baseUrl, `${c.subdomain}.${t.config.productDomain}`);
    admin = on(acme);
    viewer = on(acme);
    otherAdmin = on(globex);
    root = t.client();
    await signIn(admin, users.admin);
    await signIn(viewer, users.viewer);
    await signIn(otherAdmin, users.other);
    await signIn(root, users.root);
  });
  afterAll(async () => {
    await t?.close();
    await http?.close();
  });

  it('creates a monitor in the signed-in company (a body company_id is ignored), checks it at once, and shows it', async () => {
    const r = await admin.post('/api/v1/monitors', monitorBody({ company_id: globex.id }));
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Website',
      type: 'http',
      company_id: acme.id,
      status: 'unknown',
      confirmations: 2,
      is_public: true,
      interval_seconds: 60,
    });
    await t.services.monitoring!.engine!.runDueNow();
    const g = await admin.get(`/api/v1/monitors/${r.body.id}`);
    expect(g.body.status).toBe('operational');
    expect(g.body.last_http_code).toBe(200);
    const checks = await viewer.get(`/api/v1/monitors/${r.body.id}/checks`);
    expect(checks.status).toBe(200);
    expect(checks.body).toHaveLength(1);
    const up = await viewer.get(`/api/v1/monitors/${r.body.id}/uptime`);
    expect(up.body['24h']).toEqual({ uptime: 100, checks: 1, failures: 0 });
  });

  it('validates input with field messages and the minimum interval', async () => {
    const noUrl = await admin.post('/api/v1/monitors', { name: 'x', type: 'http', interval_seconds: 60, is_public: false });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.errors.url).toBe('URL is required (http:// or https://)');
    const tcp = await admin.post('/api/v1/monitors', {
      name: 'db',
      type: 'tcp',
      host: '127.0.0.1',
      interval_seconds: 60,
      is_public: false,
    });
    expect(tcp.status).toBe(400);
    expect(tcp.body.detail).toBe('Port must be between 1 and 65535');
    const unknown = await admin.post('/api/v1/monitors', { ...monitorBody(), colour: 'red' });
    expect(unknown.status).toBe(400);
  });

  it("keeps companies apart: no reading, changing, counting or listing another company's monitors, checks, incidents or notifications", async () => {
    const mine = await admin.post('/api/v1/monitors', monitorBody({ name: 'Acme only' }));
    const id = mine.body.id;
    for (const [method, path, body] of [
      ['GET', `/api/v1/monitors/${id}`],
      ['PUT', `/api/v1/monitors/${id}`, { name: 'hijack' }],
      ['POST', `/api/v1/monitors/${id}/pause`],
      ['POST', `/api/v1/monitors/${id}/resume`],
      ['GET', `/api/v1/monitors/${id}/checks`],
      ['GET', `/api/v1/monitors/${id}/uptime`],
    ] as const) {
      const r = await otherAdmin.request(method, path, { body });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    const list = await otherAdmin.get(`/api/v1/monitors?tenant=${acme.id}`);
    expect(list.body).toEqual([]);
    const sum = await otherAdmin.get(`/api/v1/monitors/summary?tenant=${acme.id}`);
    expect(sum.body).toMatchObject({ total: 0, up: 0, down: 0, paused: 0, criticalAlerts: 0, lastCheck: null });
    const inc = await admin.post('/api/v1/incidents', {
      title: 'Database maintenance overran',
      severity: 'medium',
      message: 'Looking into it',
    });
    expect(inc.status).toBe(201);
    expect((await otherAdmin.get(`/api/v1/incidents/${inc.body.id}`)).status).toBe(404);
    expect((await otherAdmin.post(`/api/v1/incidents/${inc.body.id}/updates`, { status: 'resolved', message: 'x' })).status).toBe(404);
    expect((await otherAdmin.get('/api/v1/incidents/recent?limit=10')).body).toEqual([]);
    expect((await otherAdmin.get(`/api/v1/incidents?tenant=${acme.id}`)).body).toEqual([]);
    expect((await admin.get(`/api/v1/monitors/${id}`)).body.name).toBe('Acme only');
  });

  it('gives super admins every company with its name, filtered by tenant, and requires company_id to create', async () => {
    await otherAdmin.post('/api/v1/monitors', monitorBody({ name: 'Globex site' }));
    const all = await root.get('/api/v1/monitors');
    const tenants = new Set(all.body.map((m: { tenant_name: string }) => m.tenant_name));
    expect(tenants).toEqual(new Set([`Company ${acme.subdomain}`, `Company ${globex.subdomain}`]));
    const onlyGlobex = await root.get(`/api/v1/monitors?tenant=${globex.id}`);
    expect(onlyGlobex.body.map((m: { name: string }) => m.name)).toEqual(['Globex site']);
    const missing = await root.post('/api/v1/monitors', monitorBody());
    expect(missing.status).toBe(400);
    expect(missing.body.errors.company_id).toBe('Company is required');
    const made = await root.post('/api/v1/monitors', monitorBody({ company_id: globex.id, name: 'By root' }));
    expect(made.status).toBe(201);
    expect(made.body.tenant_name).toBe(`Company ${globex.subdomain}`);
    const sum = await root.get(`/api/v1/monitors/summary?tenant=${globex.id}`);
    expect(sum.body.total).toBe(2);
    const recent = await root.get('/api/v1/incidents/recent?limit=10');
    expect(recent.body[0]).toMatchObject({
      tenantId: acme.id,
      tenantName: `Company ${acme.subdomain}`,
      title: 'Database maintenance overran',
      severity: 'medium',
      status: 'investigating',
    });
    expect((await root.delete(`/api/v1/monitors/${made.body.id}`)).status).toBe(200);
    expect((await root.get(`/api/v1/monitors/${made.body.id}`)).status).toBe(404);
  });

  it('applies the roles: viewers read only, company admins never delete', async () => {
    expect((await viewer.post('/api/v1/monitors', monitorBody())).status).toBe(403);
    const m = (await admin.get('/api/v1/monitors')).body[0];
    expect((await viewer.put(`/api/v1/monitors/${m.id}`, { name: 'x' })).status).toBe(403);
    expect((await admin.delete(`/api/v1/monitors/${m.id}`)).status).toBe(403);
    expect((await viewer.get('/api/v1/monitors')).status).toBe(200);
  });

  it("shows a monitor's secrets only to those who may change it: viewers get header names, not values", async () => {
    const withSecrets = await admin.post(
      '/api/v1/monitors',
      monitorBody({
        name: 'Private API',
        method: 'POST',
        headers: { Authorization: 'Bearer header-secret' },
        body: '{"token":"body-secret"}',
        is_public: false,
      }),
    );
    expect(withSecrets.status, JSON.stringify(withSecrets.body)).toBe(201);
    const push = await admin.post('/api/v1/monitors', { name: 'Cron', type: 'push', interval_seconds: 60, is_public: false });
    expect(push.body.push_url).toMatch(/\/api\/v1\/push\//);
    // the company admin sees what they configured
    expect((await admin.get(`/api/v1/monitors/${withSecrets.body.id}`)).body).toMatchObject({
      headers: { Authorization: 'Bearer header-secret' },
      body: '{"token":"body-secret"}',
    });
    // the viewer sees the monitor without its secrets, in the list and by id
    const one = (await viewer.get(`/api/v1/monitors/${withSecrets.body.id}`)).body;
    expect(one).toMatchObject({ name: 'Private API', headers: { Authorization: '(hidden)' }, body: '(hidden)' });
    const listed = (await viewer.get('/api/v1/monitors')).body;
    expect(JSON.stringify(listed)).not.toMatch(/header-secret|body-secret/);
    expect(listed.find((m: { id: string }) => m.id === push.body.id).push_url).toBeNull();
    expect((await viewer.get(`/api/v1/monitors/${push.body.id}`)).body.push_url).toBeNull();
    for (const id of [withSecrets.body.id, push.body.id]) expect((await root.delete(`/api/v1/monitors/${id}`)).status).toBe(200);
  });

  it('enforces the plan limit with a clear message (starter: 10 monitors)', async () => {
    const have = (await admin.get('/api/v1/monitors')).body.length;
    for (let i = have; i < 10; i++) expect((await admin.post('/api/v1/monitors', monitorBody({ name: `m${i}` }))).status).toBe(201);
    const over = await admin.post('/api/v1/monitors', monitorBody({ name: 'eleventh' }));
    expect(over.status).toBe(422);
    expect(over.body.detail).toBe('Your Starter plan allows 10 monitors. Upgrade your plan to add more.');
  });

  it('holds the plan limit under concurrent creates (professional: 50) and has none on enterprise', async () => {
    const pro = await seedCompany(t.services, { plan: 'professional' });
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => root.post('/api/v1/monitors', monitorBody({ name: `p${i}`, company_id: pro.id }))),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.body.detail).toBe('Your Professional plan allows 50 monitors. Upgrade your plan to add more.');
    const ent = await seedCompany(t.services, { plan: 'enterprise' });
    for (let i = 0; i < 55; i++)
      expect((await root.post('/api/v1/monitors', monitorBody({ name: `e${i}`, company_id: ent.id }))).status).toBe(201);
    // keep the other tests' engine runs small
    await t.services.db.k.deleteFrom('monitors').where('company_id', 'in', [pro.id, ent.id]).execute();
  });

  it('refuses an interval below the operator minimum (30 s unless MIN_CHECK_INTERVAL_SECONDS lowers it)', async () => {
    const plain = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      const co = await seedCompany(plain.services);
      const su = plain.client();
      await signIn(su, await seedUser(plain.services, { userType: 1 }));
      const low = await su.post('/api/v1/monitors', monitorBody({ name: 'too fast', interval_seconds: 29, company_id: co.id }));
      expect(low.status).toBe(400);
      expect(low.body.errors.interval_seconds).toBe('Interval must be at least 30 seconds');
      expect((await su.post('/api/v1/monitors', monitorBody({ name: 'ok', interval_seconds: 30, company_id: co.id }))).status).toBe(201);
    } finally {
      await plain.close();
    }
    // this suite's server lowered it to 1 s
    expect((await admin.post('/api/v1/monitors', monitorBody({ name: 'fast', interval_seconds: 1 }))).status).not.toBe(400);
  });

  it('pauses and resumes, counts paused in the summary', async () => {
    const m = (await admin.get('/api/v1/monitors')).body[0];
    const p = await admin.post(`/api/v1/monitors/${m.id}/pause`);
    expect(p.body).toMatchObject({ status: 'paused', is_paused: true });
    expect((await admin.get('/api/v1/monitors/summary')).body.paused).toBe(1);
    const r = await admin.post(`/api/v1/monitors/${m.id}/resume`);
    expect(r.body).toMatchObject({ status: 'unknown', is_paused: false });
    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .select(['event', 'tenant_id', 'source'])
      .where('event', 'in', ['monitor_pause', 'monitor_resume', 'monitor_create'])
      .execute();
    expect(audit.filter((a) => a.event === 'monitor_pause')).toEqual([{ event: 'monitor_pause', tenant_id: acme.id, source: 'server' }]);
    expect(audit.filter((a) => a.event === 'monitor_resume')).toHaveLength(1);
    expect(audit.filter((a) => a.event === 'monitor_create').length).toBeGreaterThanOrEqual(10);
  });

  it('records push heartbeats without sign-in through the secret URL only', async () => {
    const m = await otherAdmin.post('/api/v1/monitors', { name: 'Nightly backup', type: 'push', interval_seconds: 60, is_public: false });
    expect(m.status).toBe(201);
    expect(m.body.push_url).toMatch(/\/api\/v1\/push\/[A-Za-z0-9_-]{32}$/);
    const token = m.body.push_url.split('/').pop();
    const anon = t.client();
    expect((await anon.get(`/api/v1/push/${token}`)).body).toEqual({ ok: true });
    expect((await anon.post(`/api/v1/push/${token}`)).status).toBe(200);
    expect((await anon.get(`/api/v1/push/${'x'.repeat(32)}`)).status).toBe(404);
    await t.services.monitoring!.engine!.runDueNow();
    const v = await otherAdmin.get(`/api/v1/monitors/${m.body.id}`);
    expect(v.body.status).toBe('operational');
    expect(v.body.last_push_at).not.toBeNull();
  });

  it("serves the signed-in user's notifications with filters, preferences with the spec defaults, and read/delete calls", async () => {
    const prefs = await viewer.get('/api/v1/notifications/preferences');
    expect(prefs.body).toEqual({
      email_enabled: true,
      sms_enabled: false,
      webhook_enabled: false,
      monitor_incidents: true,
      ssl_warnings: true,
      dns_warnings: true,
      security_alerts: true,
      system_notifications: true,
      phone: null,
      webhook_url: null,
    });
    const put = await viewer.put('/api/v1/notifications/preferences', { sms_enabled: true });
    expect(put.body.sms_enabled).toBe(true);
    expect((await viewer.get('/api/v1/notifications/preferences')).body.sms_enabled).toBe(true);

    // A monitor of Acme goes down: both Acme users get one notification; Globex gets none.
    const m = await admin.get('/api/v1/monitors');
    const target = m.body[0];
    await admin.put(`/api/v1/monitors/${target.id}`, { url: http.url('/status/500'), confirmations: 1 });
    await t.services.monitoring!.engine!.runDueNow();
    // one monitor down is a partial outage (high); critical is for a monitor marked critical
    const mine = await viewer.get('/api/v1/notifications/?is_read=false&severity=high&notification_type=monitor_incident');
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toMatchObject({ type: 'monitor_incident', is_read: false, title: `${target.name} is down` });
    expect(mine.body[0].action_url).toMatch(/^\/monitors\/incidents\/[\w-]+$/);
    expect((await viewer.get('/api/v1/notifications/?notification_type=ssl_warning')).body).toEqual([]);
    expect((await otherAdmin.get('/api/v1/notifications/')).body).toEqual([]);

    const id = mine.body[0].id;
    expect((await otherAdmin.patch(`/api/v1/notifications/${id}/read`, {})).status).toBe(404);
    expect((await otherAdmin.delete(`/api/v1/notifications/${id}`)).status).toBe(404);
    // the optional body may be left out entirely
    expect((await viewer.patch(`/api/v1/notifications/${id}/read`)).status).toBe(200);
    expect((await viewer.get('/api/v1/notifications/?is_read=true')).body.map((n: { id: string }) => n.id)).toEqual([id]);
    // counts cover every notification of the user, whatever a list filter shows
    expect((await viewer.get('/api/v1/notifications/counts')).body).toEqual({ unread: 0, read: 1 });
    expect((await otherAdmin.get('/api/v1/notifications/counts')).body).toEqual({ unread: 0, read: 0 });
    expect((await admin.patch('/api/v1/notifications/mark-all-read')).status).toBe(200);
    expect((await admin.get('/api/v1/notifications/?is_read=false')).body).toEqual([]);
    expect((await viewer.delete('/api/v1/notifications/delete-all-read')).status).toBe(200);
    expect((await viewer.get('/api/v1/notifications/')).body).toEqual([]);
    expect((await admin.get('/api/v1/notifications/')).body).toHaveLength(1);
  });

  it('posts incident updates through to resolved, and lists maintenance windows per company', async () => {
    const inc = await admin.post('/api/v1/incidents', { title: 'Slow logins', severity: 'low', message: 'Investigating reports' });
    const upd = await admin.post(`/api/v1/incidents/${inc.body.id}/updates`, { status: 'identified', message: 'Cache node lost' });
    expect(upd.status).toBe(201);
    const done = await admin.post(`/api/v1/incidents/${inc.body.id}/updates`, { status: 'resolved', message: 'Replaced the node' });
    expect(done.body.status).toBe('resolved');
    expect(done.body.resolved_at).not.toBeNull();
    expect(done.body.updates.map((u: { status: string }) => u.status)).toEqual(['investigating', 'identified', 'resolved']);
    expect((await admin.post(`/api/v1/incidents/${inc.body.id}/updates`, { status: 'monitoring', message: 'again' })).status).toBe(409);

    const w = await admin.post('/api/v1/maintenance-windows', {
      title: 'DB upgrade',
      starts_at: new Date(Date.now() + 3_600_000).toISOString(),
      ends_at: new Date(Date.now() + 7_200_000).toISOString(),
    });
    expect(w.status).toBe(201);
    expect((await admin.get('/api/v1/maintenance-windows?upcoming=true')).body.map((x: { id: string }) => x.id)).toEqual([w.body.id]);
    expect((await otherAdmin.get('/api/v1/maintenance-windows')).body).toEqual([]);
    // Company admins never delete (they cancel); another company's window is not found.
    expect((await otherAdmin.delete(`/api/v1/maintenance-windows/${w.body.id}`)).status).toBe(403);
    expect((await otherAdmin.post(`/api/v1/maintenance-windows/${w.body.id}/cancel`)).status).toBe(404);
    expect((await admin.delete(`/api/v1/maintenance-windows/${w.body.id}`)).status).toBe(403);
    expect((await admin.post(`/api/v1/maintenance-windows/${w.body.id}/cancel`)).body.state).toBe('cancelled');
  });
});
