// The SLA report and schedule calls through the real HTTP server on both databases: who reads
// which company's report (viewers read their own; company users never another's, whatever they
// ask for; super admins name the company and export it with the `export` right, audited), the
// range checks, the schedule rights (company admins create and update, disable instead of
// delete; super admins delete) and the monitor's SLA target in the monitors API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

const NOW = Date.UTC(2026, 10, 5, 12);

describe.each(DB_KINDS)('reports API on %s', (kind) => {
  let t: TestApp;
  let acme: { id: string; subdomain: string };
  let globex: { id: string; subdomain: string };
  let admin: ApiClient;
  let viewer: ApiClient;
  let otherAdmin: ApiClient;
  let root: ApiClient;
  let acmeMonitor: string;
  let globexMonitor: string;
  const report = (q: string) => `/api/v1/reports/sla?from=2026-10-01&to=2026-10-31${q}`;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => NOW, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    acme = await seedCompany(t.services, { name: 'Acme' });
    globex = await seedCompany(t.services, { name: 'Globex' });
    const on = (c: { subdomain: string }) => new ApiClient(t.baseUrl, `${c.subdomain}.${t.config.productDomain}`);
    admin = on(acme);
    viewer = on(acme);
    otherAdmin = on(globex);
    root = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(otherAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }));
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const body = (name: string) => ({ name, type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 60, is_public: false });
    acmeMonitor = (await admin.post('/api/v1/monitors', { ...body('Acme API'), sla_target: 99.9 })).body.id;
    globexMonitor = (await otherAdmin.post('/api/v1/monitors', body('Globex secret'))).body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it("keeps a monitor's SLA target: set, shown, cleared, and refused outside 50-99.999 %", async () => {
    expect((await admin.get(`/api/v1/monitors/${acmeMonitor}`)).body.sla_target).toBe(99.9);
    const bad = await admin.put(`/api/v1/monitors/${acmeMonitor}`, { sla_target: 100 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.sla_target).toMatch(/between 50 and 99.999/);
    expect((await admin.put(`/api/v1/monitors/${acmeMonitor}`, { sla_target: 99.1234 })).status).toBe(400);
    expect((await admin.put(`/api/v1/monitors/${acmeMonitor}`, { sla_target: null })).body.sla_target).toBeNull();
    expect((await admin.put(`/api/v1/monitors/${acmeMonitor}`, { sla_target: 99.95 })).body.sla_target).toBe(99.95);
    expect((await admin.put(`/api/v1/monitors/${acmeMonitor}`, { name: 'Acme API' })).body.sla_target).toBe(99.95);
  });

  it("company users read their own company's report only, whatever tenant or monitors they name", async () => {
    const own = await viewer.get(report(''));
    expect(own.status).toBe(200);
    expect(own.body.company).toEqual({ id: acme.id, name: 'Acme' });
    expect(own.body.monitors.map((m: { name: string }) => m.name)).toEqual(['Acme API']);
    expect((await viewer.get(report('&format=csv'))).status).toBe(200);
    const asked = await admin.get(report(`&tenant=${globex.id}&monitor_ids=${globexMonitor},${acmeMonitor}`));
    expect(asked.body.company.id).toBe(acme.id);
    expect(asked.text).not.toContain('Globex');
    expect(asked.body.monitors.map((m: { monitor_id: string }) => m.monitor_id)).toEqual([acmeMonitor]);
    expect((await t.client().get(report(''))).status).toBe(401);
  });

  it('super admins name the company; its CSV or PDF is an export, audited for that company', async () => {
    const none = await root.get(report(''));
    expect(none.status).toBe(400);
    expect((await root.get(report('&tenant=no-such-company'))).status).toBe(404);
    const g = await root.get(report(`&tenant=${globex.id}&format=csv`));
    expect(g.status).toBe(200);
    expect(g.text).toContain('Globex secret');
    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .selectAll()
      .where('event', '=', 'data_export')
      .where('tenant_id', '=', globex.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0].details!)).toMatchObject({ export: 'sla_report', format: 'csv' });
  });

  it('refuses ranges that are not whole dates, reversed or longer than a year', async () => {
    const bad = async (q: string) => (await admin.get(`/api/v1/reports/sla?${q}`)).status;
    expect(await bad('from=2026-10-31&to=2026-10-01')).toBe(400);
    expect(await bad('from=2026-02-30&to=2026-03-01')).toBe(400);
    expect(await bad('from=2024-01-01&to=2026-01-01')).toBe(400);
    expect(await bad('from=2026-10-01&to=2026-10-31&format=xlsx')).toBe(400);
    expect(await bad('from=2026-10-01&to=2026-10-31&monitor_ids=a;b')).toBe(400);
  });

  it('schedules: admins create and update (disable), viewers read, only super admins delete', async () => {
    const input = { frequency: 'monthly', recipients: ['Ops@Acme.example', 'cfo@acme.example'], format: 'pdf' };
    expect((await viewer.post('/api/v1/reports/schedules', input)).status).toBe(403);
    const created = await admin.post('/api/v1/reports/schedules', input);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ company_id: acme.id, recipients: ['ops@acme.example', 'cfo@acme.example'], enabled: true });
    const id = created.body.id;
    const badMail = await admin.post('/api/v1/reports/schedules', { ...input, recipients: ['ops@acme.example', 'Eve <eve@x.example>'] });
    expect(badMail.status).toBe(400);
    expect(badMail.body.errors.recipients).toMatch(/Not an e-mail address/);
    const many = Array.from({ length: 21 }, (_, i) => `r${i}@acme.example`);
    expect((await admin.post('/api/v1/reports/schedules', { ...input, recipients: many })).status).toBe(400);
    expect((await viewer.get('/api/v1/reports/schedules')).body.map((s: { id: string }) => s.id)).toEqual([id]);
    expect((await otherAdmin.get('/api/v1/reports/schedules')).body).toEqual([]);
    expect((await otherAdmin.get(`/api/v1/reports/schedules/${id}`)).status).toBe(404);
    expect((await otherAdmin.put(`/api/v1/reports/schedules/${id}`, { enabled: false })).status).toBe(404);
    const off = await admin.put(`/api/v1/reports/schedules/${id}`, { enabled: false, frequency: 'weekly' });
    expect(off.body).toMatchObject({ enabled: false, frequency: 'weekly' });
    expect((await admin.delete(`/api/v1/reports/schedules/${id}`)).status).toBe(403);
    expect((await root.post('/api/v1/reports/schedules', input)).status).toBe(400); // which company?
    expect((await root.post('/api/v1/reports/schedules', { ...input, company_id: globex.id })).body.company_id).toBe(globex.id);
    expect((await root.delete(`/api/v1/reports/schedules/${id}`)).status).toBe(204);
    expect((await admin.get(`/api/v1/reports/schedules/${id}`)).status).toBe(404);
  });
});
