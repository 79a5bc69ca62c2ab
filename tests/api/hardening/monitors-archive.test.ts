// Archiving and restoring monitors (issue 13): company admins archive where only super admins
// may delete; an archived monitor leaves the list (until asked for), the dashboard counts, the
// public page and summary.json, the scheduler and the plan's count; restoring it is refused with
// the plan's limit message when the plan is full. Viewers are refused every write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)('archiving monitors on %s', (kind) => {
  let t: TestApp;
  let http: HttpTargets;
  let clock = Date.UTC(2027, 2, 1, 9, 0, 0);
  let host = '';
  let subdomain = '';
  let companyId = '';
  let admin: ApiClient;
  let viewer: ApiClient;
  let root: ApiClient;
  let anonymous: ApiClient;
  let engine: ReturnType<typeof createEngine>;

  beforeAll(async () => {
    http = await startHttpTargets();
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    engine = createEngine(t.services);
    t.services.monitoring = { ...t.services.monitoring, engine };
    const acme = await seedCompany(t.services, { plan: 'starter', name: 'Acme' });
    subdomain = acme.subdomain;
    companyId = acme.id;
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    viewer = new ApiClient(t.baseUrl, host);
    root = new ApiClient(t.baseUrl, t.config.productDomain);
    anonymous = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(root, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => {
    await t?.close();
    await http?.close();
  });

  const create = async (name: string) => {
    const r = await admin.post('/api/v1/monitors', { name, type: 'http', url: http.url('/ok'), interval_seconds: 60, is_public: true });
    return r;
  };
  const listNames = async (query = '') =>
    ((await admin.get(`/api/v1/monitors${query}`)).body as Array<{ name: string }>).map((m) => m.name);

  it('archives instead of deleting: a company admin may not delete, the archived monitor leaves lists, pages, counts and checks', async () => {
    const keep = await create('Homepage');
    const old = await create('Legacy API');
    expect(old.status).toBe(201);
    await engine.runDueNow();
    clock += 1000;

    const refused = await admin.delete(`/api/v1/monitors/${old.body.id}`);
    expect(refused.status).toBe(403);
    expect(await listNames()).toContain('Legacy API');

    expect((await viewer.post(`/api/v1/monitors/${old.body.id}/archive`)).status).toBe(403);
    const archived = await admin.post(`/api/v1/monitors/${old.body.id}/archive`);
    expect(archived.status).toBe(200);
    expect(archived.body.archived_at).toBe(new Date(clock).toISOString());
    clock += 1000;

    expect(await listNames()).toEqual(['Homepage']);
    expect((await admin.get('/api/v1/monitors')).headers.get('x-total-count')).toBe('1');
    expect(await listNames('?archived=true')).toEqual(['Legacy API']);
    expect((await viewer.get('/api/v1/monitors?archived=true')).body.map((m: { name: string }) => m.name)).toEqual(['Legacy API']);
    // Its own page still opens (to restore it)
    expect((await admin.get(`/api/v1/monitors/${old.body.id}`)).body.archived_at).not.toBeNull();

    const summary = await admin.get('/api/v1/monitors/summary');
    expect(summary.body.total).toBe(1);
    const page = await anonymous.get(`/api/v1/public/public-status/${subdomain}`);
    expect(page.body.monitors.map((m: { monitor_name: string }) => m.monitor_name)).toEqual(['Homepage']);
    const sp = await anonymous.get('/api/v2/summary.json', { host });
    expect(sp.body.components.map((c: { name: string }) => c.name)).toEqual(['Homepage']);

    // Not checked any more: the next rounds check the kept monitor only
    const count = async (id: string) => (await admin.get(`/api/v1/monitors/${id}/checks`)).body.length as number;
    const [oldBefore, keepBefore] = [await count(old.body.id), await count(keep.body.id)];
    for (let i = 0; i < 2; i++) {
      clock += 61_000;
      await engine.runDueNow();
    }
    expect(await count(old.body.id)).toBe(oldBefore);
    expect(await count(keep.body.id)).toBeGreaterThan(keepBefore);
  });

  it("counts only monitors that are not archived against the plan, and refuses a restore with the plan's limit when full", async () => {
    const existing = Number((await admin.get('/api/v1/monitors')).headers.get('x-total-count'));
    for (let i = existing; i < 10; i++) expect((await create(`Service ${i}`)).status).toBe(201);
    const full = await create('One too many');
    expect(full.status).toBe(422);
    expect(full.body.detail).toMatch(/^Your Starter plan allows 10 monitors/);

    const [legacy] = (await admin.get('/api/v1/monitors?archived=true')).body;
    const restoreFull = await admin.post(`/api/v1/monitors/${legacy.id}/restore`);
    expect(restoreFull.status).toBe(422);
    expect(restoreFull.body.detail).toMatch(/^Your Starter plan allows 10 monitors/);

    // Archiving one frees a place: a new monitor fits, then the restore is refused again
    const service9 = (await admin.get('/api/v1/monitors?q=Service%209')).body[0];
    expect((await admin.post(`/api/v1/monitors/${service9.id}/archive`)).status).toBe(200);
    const restored = await admin.post(`/api/v1/monitors/${legacy.id}/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ archived_at: null, status: 'unknown' });
    expect(await listNames()).toContain('Legacy API');
    expect((await admin.post(`/api/v1/monitors/${legacy.id}/restore`)).status).toBe(409);
    expect((await viewer.post(`/api/v1/monitors/${service9.id}/restore`)).status).toBe(403);

    const page = await anonymous.get(`/api/v1/public/public-status/${subdomain}`);
    expect(page.body.monitors.map((m: { monitor_name: string }) => m.monitor_name)).toContain('Legacy API');
    expect(page.body.monitors.map((m: { monitor_name: string }) => m.monitor_name)).not.toContain('Service 9');
  });

  it('resolves the open automatic incident of a monitor it archives (no check would resolve it any more)', async () => {
    // the plan is full: archiving one makes room
    const [oldest] = (await admin.get('/api/v1/monitors?sort=created_at&order=asc&limit=1')).body;
    expect((await admin.post(`/api/v1/monitors/${oldest.id}/archive`)).status).toBe(200);
    http.setUp(false);
    const broken = await root.post('/api/v1/monitors', {
      name: 'Broken',
      type: 'http',
      url: http.url('/flaky'),
      interval_seconds: 60,
      confirmations: 1,
      company_id: companyId,
    });
    expect(broken.status).toBe(201);
    clock += 61_000; // past this minute's immediate checks: due at its first slot
    await engine.runDueNow();
    const open = (await admin.get(`/api/v1/incidents?monitor_id=${broken.body.id}&status=open`)).body;
    expect(open).toHaveLength(1);
    clock += 1000;
    expect((await admin.post(`/api/v1/monitors/${broken.body.id}/archive`)).status).toBe(200);
    const after = (await admin.get(`/api/v1/incidents/${open[0].id}`)).body;
    expect(after.resolved_at).not.toBeNull();
    expect(after.updates.at(-1)).toMatchObject({ status: 'resolved', message: 'Broken was archived and is no longer checked.' });
    http.setUp(true);
  });

  it('lets a super admin delete, and hides another company’s monitor from archive by id', async () => {
    const other = await seedCompany(t.services, { plan: 'enterprise' });
    const created = await root.post('/api/v1/monitors', {
      name: 'Elsewhere',
      type: 'http',
      url: http.url('/ok'),
      interval_seconds: 60,
      company_id: other.id,
    });
    expect(created.status).toBe(201);
    expect((await admin.post(`/api/v1/monitors/${created.body.id}/archive`)).status).toBe(404);
    expect((await root.delete(`/api/v1/monitors/${created.body.id}`)).status).toBe(200);
    expect((await root.get(`/api/v1/monitors/${created.body.id}`)).status).toBe(404);
  });
});
