// Several monitors per incident and per maintenance window (issue 13): monitor_ids on create,
// edit and read (monitor_id still works for older clients), each monitor of the company; the
// public page names each affected public component (never a private one); a window covers every
// monitor it lists in the engine (in maintenance, no incident), and only those.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DB_KINDS)('incidents and maintenance with several monitors on %s', (kind) => {
  let t: TestApp;
  let http: HttpTargets;
  let clock = Date.UTC(2027, 2, 1, 9, 0, 0);
  let host = '';
  let admin: ApiClient;
  let viewer: ApiClient;
  let anonymous: ApiClient;
  let engine: ReturnType<typeof createEngine>;
  const ids: Record<string, string> = {};
  let foreignId = '';

  beforeAll(async () => {
    http = await startHttpTargets();
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    engine = createEngine(t.services);
    t.services.monitoring = { ...t.services.monitoring, engine };
    const acme = await seedCompany(t.services, { plan: 'enterprise', name: 'Acme' });
    const globex = await seedCompany(t.services, { plan: 'enterprise', name: 'Globex' });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    viewer = new ApiClient(t.baseUrl, host);
    anonymous = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    for (const [name, isPublic, path] of [
      ['Website', true, '/ok'],
      ['Checkout', true, '/flaky'],
      ['Internal DB', false, '/flaky'],
    ] as const) {
      const r = await admin.post('/api/v1/monitors', {
        name,
        type: 'http',
        url: http.url(path),
        interval_seconds: 60,
        is_public: isPublic,
      });
      expect(r.status).toBe(201);
      ids[name] = r.body.id;
    }
    const globexAdmin = new ApiClient(t.baseUrl, `${globex.subdomain}.${t.config.productDomain}`);
    await signIn(globexAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }));
    foreignId = (await globexAdmin.post('/api/v1/monitors', { name: 'Theirs', type: 'http', url: http.url('/ok'), interval_seconds: 60 }))
      .body.id;
    http.setUp(true);
    await engine.runDueNow();
  });
  afterAll(async () => {
    await t?.close();
    await http?.close();
  });

  it('writes an incident about several monitors and shows it against each public one, never the private one', async () => {
    const created = await admin.post('/api/v1/incidents', {
      title: 'Payments and site slow',
      severity: 'high',
      message: 'Our provider is degraded.',
      monitor_ids: [ids.Checkout, ids.Website, ids['Internal DB']],
    });
    expect(created.status).toBe(201);
    expect(new Set(created.body.monitor_ids)).toEqual(new Set([ids.Checkout, ids.Website, ids['Internal DB']]));
    expect(created.body.monitors.map((m: { name: string }) => m.name)).toEqual(['Checkout', 'Internal DB', 'Website']);
    expect(created.body.monitor_id).toBe(ids.Checkout);

    for (const name of ['Website', 'Checkout', 'Internal DB']) {
      const list = await viewer.get(`/api/v1/incidents?monitor_id=${ids[name]}`);
      expect(list.body.map((i: { id: string }) => i.id)).toContain(created.body.id);
    }

    clock += 1000;
    const summary = await anonymous.get('/api/v2/summary.json', { host });
    const inc = summary.body.incidents.find((i: { id: string }) => i.id === created.body.id);
    expect(inc.components.map((c: { name: string }) => c.name).sort()).toEqual(['Checkout', 'Website']);
    expect(JSON.stringify(summary.body)).not.toContain('Internal DB');

    // Edit: only the private monitor left means the page does not show it at all
    const edited = await admin.patch(`/api/v1/incidents/${created.body.id}`, { monitor_ids: [ids['Internal DB']] });
    expect(edited.status).toBe(200);
    expect(edited.body.monitor_ids).toEqual([ids['Internal DB']]);
    expect(edited.body.monitor_id).toBe(ids['Internal DB']);
    clock += 1000;
    const after = await anonymous.get('/api/v2/summary.json', { host });
    expect(after.body.incidents.map((i: { id: string }) => i.id)).not.toContain(created.body.id);
    await admin.post(`/api/v1/incidents/${created.body.id}/updates`, { status: 'resolved', message: 'Fixed.' });
  });

  it('keeps monitor_id working for older clients and refuses another company’s monitor', async () => {
    const single = await admin.post('/api/v1/incidents', {
      title: 'Website errors',
      severity: 'medium',
      message: 'Looking into it.',
      monitor_id: ids.Website,
    });
    expect(single.status).toBe(201);
    expect(single.body.monitor_ids).toEqual([ids.Website]);
    await admin.post(`/api/v1/incidents/${single.body.id}/updates`, { status: 'resolved', message: 'Fixed.' });

    const foreign = await admin.post('/api/v1/incidents', {
      title: 'Not ours',
      severity: 'low',
      message: 'x',
      monitor_ids: [ids.Website, foreignId],
    });
    expect(foreign.status).toBe(400);
    const foreignWindow = await admin.post('/api/v1/maintenance-windows', {
      title: 'Not ours',
      starts_at: iso(clock),
      ends_at: iso(clock + 3_600_000),
      monitor_ids: [foreignId],
    });
    expect(foreignWindow.status).toBe(400);
    expect((await viewer.post('/api/v1/incidents', { title: 'x', severity: 'low', message: 'x', monitor_ids: [ids.Website] })).status).toBe(
      403,
    );
  });

  it('covers every listed monitor in the engine during a window, and only those', async () => {
    const w = await admin.post('/api/v1/maintenance-windows', {
      title: 'Database and checkout upgrade',
      starts_at: iso(clock - 60_000),
      ends_at: iso(clock + 3_600_000),
      monitor_ids: [ids.Checkout, ids['Internal DB']],
    });
    expect(w.status).toBe(201);
    expect(new Set(w.body.monitor_ids)).toEqual(new Set([ids.Checkout, ids['Internal DB']]));
    expect(w.body.state).toBe('active');

    http.setUp(false); // /flaky answers 503: Checkout and Internal DB fail during the window
    for (let i = 0; i < 3; i++) {
      clock += 60_000;
      await engine.runDueNow();
    }
    for (const name of ['Checkout', 'Internal DB']) {
      const m = (await admin.get(`/api/v1/monitors/${ids[name]}`)).body;
      expect(m.in_maintenance).toBe(true);
      const rt = (await admin.get(`/api/v1/monitors/${ids[name]}/response-times?range=24h`)).body;
      // every failing check of the window counts as maintenance, none as a failure
      const sum = (k: 'maintenance' | 'failures') => rt.points.reduce((a: number, p: Record<string, number>) => a + p[k], 0);
      expect(sum('maintenance')).toBeGreaterThanOrEqual(2);
      expect(sum('failures')).toBe(0);
    }
    expect((await admin.get(`/api/v1/monitors/${ids.Website}`)).body.in_maintenance).toBe(false);
    const websiteRt = (await admin.get(`/api/v1/monitors/${ids.Website}/response-times?range=24h`)).body;
    expect(websiteRt.points.reduce((a: number, p: { maintenance: number }) => a + p.maintenance, 0)).toBe(0);
    expect((await admin.get('/api/v1/incidents?status=open')).body).toEqual([]);

    const forWebsite = await viewer.get(`/api/v1/maintenance-windows?monitor_id=${ids.Website}`);
    expect(forWebsite.body.map((x: { id: string }) => x.id)).not.toContain(w.body.id);
    const forCheckout = await viewer.get(`/api/v1/maintenance-windows?monitor_id=${ids.Checkout}`);
    expect(forCheckout.body.map((x: { id: string }) => x.id)).toContain(w.body.id);

    clock += 1000;
    const summary = await anonymous.get('/api/v2/summary.json', { host });
    const sm = summary.body.scheduled_maintenances.find((x: { id: string }) => x.id === w.body.id);
    expect(sm.components.map((c: { name: string }) => c.name)).toEqual(['Checkout']);
    const statuses = Object.fromEntries(summary.body.components.map((c: { name: string; status: string }) => [c.name, c.status]));
    expect(statuses).toMatchObject({ Checkout: 'under_maintenance', Website: 'operational' });

    // Widened to Website by an edit; emptied, it covers the whole company
    const widened = await admin.patch(`/api/v1/maintenance-windows/${w.body.id}`, { monitor_ids: [ids.Checkout, ids.Website] });
    expect(widened.status).toBe(200);
    expect((await admin.get(`/api/v1/monitors/${ids.Website}`)).body.in_maintenance).toBe(true);
    expect((await admin.get(`/api/v1/monitors/${ids['Internal DB']}`)).body.in_maintenance).toBe(false);
    const whole = await admin.patch(`/api/v1/maintenance-windows/${w.body.id}`, { monitor_ids: [] });
    expect(whole.body).toMatchObject({ monitor_ids: [], monitor_id: null });
    expect((await admin.get(`/api/v1/monitors/${ids['Internal DB']}`)).body.in_maintenance).toBe(true);
    http.setUp(true);
  });
});
