// The console's incidents and maintenance over HTTP (issue 13), with the role table of spec
// section 6 held on the server: company admins create and update but never delete (they end or
// cancel a window instead); super admins may delete; a viewer's every write is refused.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

const HOUR = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(DB_KINDS)('incidents and maintenance roles on %s', (kind) => {
  let t: TestApp;
  let clock = Date.UTC(2027, 0, 31, 1, 0, 0); // Sunday 31 January 2027, 01:00 UTC
  let host = '';
  let admin: ApiClient;
  let viewer: ApiClient;
  let root: ApiClient;
  let monitorId: string;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    const acme = await seedCompany(t.services, { plan: 'enterprise' });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    viewer = new ApiClient(t.baseUrl, host);
    root = new ApiClient(t.baseUrl, t.config.productDomain);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    const m = await admin.post('/api/v1/monitors', { name: 'Website', type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 3600 });
    expect(m.status).toBe(201);
    monitorId = m.body.id;
  });
  afterAll(async () => {
    await t?.close();
  });

  const plan = (over: Record<string, unknown> = {}) =>
    admin.post('/api/v1/maintenance-windows', {
      title: 'Database upgrade',
      description: 'Short interruptions are expected.',
      starts_at: iso(clock + HOUR),
      ends_at: iso(clock + 3 * HOUR),
      monitor_id: monitorId,
      ...over,
    });

  it("refuses a company admin's delete of a maintenance window and keeps it; a super admin's delete succeeds", async () => {
    const w = await plan();
    expect(w.status).toBe(201);
    expect(w.body).toMatchObject({ state: 'scheduled', recurrence: null, cancelled_at: null });
    const refused = await admin.delete(`/api/v1/maintenance-windows/${w.body.id}`);
    expect(refused.status).toBe(403);
    const list = await admin.get('/api/v1/maintenance-windows');
    expect(list.body.map((x: { id: string }) => x.id)).toContain(w.body.id);
    const deleted = await root.delete(`/api/v1/maintenance-windows/${w.body.id}`);
    expect(deleted.status).toBe(200);
    expect((await admin.get('/api/v1/maintenance-windows')).body.map((x: { id: string }) => x.id)).not.toContain(w.body.id);
  });

  it('lets a company admin edit, end now and cancel windows, which stay listed', async () => {
    const w = await plan();
    const edited = await admin.patch(`/api/v1/maintenance-windows/${w.body.id}`, { title: 'Database upgrade (v16)', recurrence: 'weekly' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ title: 'Database upgrade (v16)', recurrence: 'weekly', state: 'scheduled' });
    expect((await admin.post(`/api/v1/maintenance-windows/${w.body.id}/end`)).status).toBe(409); // not running yet

    // Running since 30 minutes: end it now.
    const running = await admin.patch(`/api/v1/maintenance-windows/${w.body.id}`, { starts_at: iso(clock - HOUR / 2), recurrence: null });
    expect(running.body.state).toBe('active');
    expect((await admin.get(`/api/v1/monitors/${monitorId}`)).body.in_maintenance).toBe(true);
    const ended = await admin.post(`/api/v1/maintenance-windows/${w.body.id}/end`);
    expect(ended.status).toBe(200);
    expect(ended.body).toMatchObject({ state: 'completed', recurrence: null, ends_at: iso(clock), next_starts_at: null });
    expect((await admin.get(`/api/v1/monitors/${monitorId}`)).body.in_maintenance).toBe(false);

    // A weekly window first held a week ago runs again now, until it is cancelled.
    const weekAgo = clock - 7 * 24 * HOUR;
    const weekly = await plan({
      starts_at: iso(weekAgo - HOUR),
      ends_at: iso(weekAgo + HOUR),
      recurrence: 'weekly',
      title: 'Weekly patching',
    });
    expect(weekly.body).toMatchObject({ state: 'active', next_starts_at: iso(clock - HOUR), next_ends_at: iso(clock + HOUR) });
    expect((await admin.get(`/api/v1/monitors/${monitorId}`)).body.in_maintenance).toBe(true);
    const cancelled = await admin.post(`/api/v1/maintenance-windows/${weekly.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'cancelled', cancelled_at: iso(clock) });
    expect((await admin.get(`/api/v1/monitors/${monitorId}`)).body.in_maintenance).toBe(false);
    expect((await admin.post(`/api/v1/maintenance-windows/${weekly.body.id}/cancel`)).status).toBe(409);
    expect((await admin.patch(`/api/v1/maintenance-windows/${weekly.body.id}`, { title: 'x' })).status).toBe(409);
    const all = (await admin.get('/api/v1/maintenance-windows')).body.map((x: { id: string; state: string }) => [x.id, x.state]);
    expect(all).toEqual(expect.arrayContaining([[weekly.body.id, 'cancelled']]));
    const upcoming = (await admin.get('/api/v1/maintenance-windows?upcoming=true')).body.map((x: { id: string }) => x.id);
    expect(upcoming).not.toContain(weekly.body.id);
  });

  it('shows an edited, then a cancelled window on the public page at once (the page fingerprint sees edits)', async () => {
    const names = async () => {
      clock += 2000; // past the snapshot's recheck interval
      const r = await admin.get('/api/v2/scheduled-maintenances.json', { host });
      return r.body.scheduled_maintenances.map((m: { name: string }) => m.name);
    };
    const w = await plan({ title: 'Router swap', monitor_id: null });
    expect(await names()).toContain('Router swap');
    await admin.patch(`/api/v1/maintenance-windows/${w.body.id}`, { title: 'Router swap (rack 4)' });
    const after = await names();
    expect(after).toContain('Router swap (rack 4)');
    expect(after).not.toContain('Router swap');
    await admin.post(`/api/v1/maintenance-windows/${w.body.id}/cancel`);
    expect(await names()).not.toContain('Router swap (rack 4)');
  });

  it('counts a monitor in a running weekly window neither up nor down on the dashboard summary', async () => {
    await t.services.db.k.updateTable('monitors').set({ status: 'down' }).where('id', '=', monitorId).execute();
    const before = (await admin.get('/api/v1/monitors/summary')).body;
    const weekAgo = clock - 7 * 24 * HOUR;
    const w = await plan({ starts_at: iso(weekAgo - HOUR), ends_at: iso(weekAgo + HOUR), recurrence: 'weekly', title: 'Weekly reboot' });
    const during = (await admin.get('/api/v1/monitors/summary')).body;
    expect(during.down).toBe(before.down - 1);
    await admin.post(`/api/v1/maintenance-windows/${w.body.id}/cancel`);
    expect((await admin.get('/api/v1/monitors/summary')).body.down).toBe(before.down);
    await t.services.db.k.updateTable('monitors').set({ status: 'unknown' }).where('id', '=', monitorId).execute();
  });

  it('refuses a recurring window longer than its period', async () => {
    const r = await plan({ recurrence: 'weekly', ends_at: iso(clock + 8 * 24 * HOUR) });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual({ ends_at: 'A weekly window lasts at most 7 days' });
  });

  it('writes an incident, updates, resolves it and adds a postmortem, which waits for the resolution', async () => {
    const c = await admin.post('/api/v1/incidents', {
      title: 'Slow logins',
      severity: 'medium',
      status: 'investigating',
      message: 'Logins take up to a minute.',
      monitor_id: monitorId,
    });
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({ automatic: false, postmortem: null, status: 'investigating' });
    const early = await admin.patch(`/api/v1/incidents/${c.body.id}`, { postmortem: 'Too early.' });
    expect(early.status).toBe(409);
    expect((await admin.post(`/api/v1/incidents/${c.body.id}/updates`, { status: 'monitoring', message: 'A fix is out.' })).status).toBe(
      201,
    );
    const resolved = await admin.post(`/api/v1/incidents/${c.body.id}/updates`, { status: 'resolved', message: 'Logins are fast again.' });
    expect(resolved.body.resolved_at).not.toBeNull();
    const pm = await admin.patch(`/api/v1/incidents/${c.body.id}`, { postmortem: 'A cache node ran out of memory; we added alerts.' });
    expect(pm.status).toBe(200);
    expect(pm.body.postmortem).toBe('A cache node ran out of memory; we added alerts.');
    const manual = await admin.get('/api/v1/incidents?automatic=false&status=resolved&severity=medium');
    expect(manual.body.map((i: { id: string }) => i.id)).toEqual([c.body.id]);
    expect((await admin.get('/api/v1/incidents?automatic=true')).body).toEqual([]);
  });

  it("shows an admin's written update on an automatic incident's public page, beside the engine's neutral ones", async () => {
    const id = randomUUID();
    const acmeId = (await admin.get(`/api/v1/monitors/${monitorId}`)).body.company_id;
    await t.services.db.k.updateTable('monitors').set({ is_public: true }).where('id', '=', monitorId).execute();
    await t.services.db.k
      .insertInto('incidents')
      .values({
        id,
        company_id: acmeId,
        monitor_id: monitorId,
        title: 'Website is down',
        severity: 'critical',
        status: 'open',
        is_public: true,
        started_at: clock,
        resolved_at: null,
        created_by: null,
        created_at: clock,
        updated_at: clock,
      })
      .execute();
    await t.services.db.k
      .insertInto('incident_updates')
      .values({
        id: randomUUID(),
        incident_id: id,
        company_id: acmeId,
        status: 'open',
        message: 'HTTP 500 is not an accepted status code',
        created_by: null,
        created_at: clock,
      })
      .execute();
    const listed = await admin.get('/api/v1/incidents?automatic=true&status=open');
    expect(listed.body.map((i: { id: string; automatic: boolean }) => [i.id, i.automatic])).toEqual([[id, true]]);
    clock += 1000;
    const u = await admin.post(`/api/v1/incidents/${id}/updates`, { status: 'identified', message: 'A bad deploy; rolling back now.' });
    expect(u.status).toBe(201);
    clock += 2000;
    const pub = await admin.get('/api/v2/incidents/unresolved.json', { host });
    const mine = pub.body.incidents.find((i: { id: string }) => i.id === id);
    expect(mine.incident_updates.map((x: { body: string }) => x.body)).toEqual([
      'A bad deploy; rolling back now.',
      'Not responding as expected.',
    ]);
    await admin.post(`/api/v1/incidents/${id}/updates`, { status: 'resolved', message: 'Rolled back.' });
  });

  it('refuses every write of a viewer, who still reads everything', async () => {
    const w = await plan();
    const i = await admin.post('/api/v1/incidents', { title: 'Partial outage', severity: 'high', message: 'Looking into it.' });
    const writes: Array<[string, Promise<{ status: number }>]> = [
      ['create incident', viewer.post('/api/v1/incidents', { title: 'x', severity: 'low', message: 'x' })],
      ['post update', viewer.post(`/api/v1/incidents/${i.body.id}/updates`, { status: 'resolved', message: 'x' })],
      ['edit incident', viewer.patch(`/api/v1/incidents/${i.body.id}`, { title: 'x' })],
      ['plan window', viewer.post('/api/v1/maintenance-windows', { title: 'x', starts_at: iso(clock), ends_at: iso(clock + HOUR) })],
      ['edit window', viewer.patch(`/api/v1/maintenance-windows/${w.body.id}`, { title: 'x' })],
      ['end window', viewer.post(`/api/v1/maintenance-windows/${w.body.id}/end`)],
      ['cancel window', viewer.post(`/api/v1/maintenance-windows/${w.body.id}/cancel`)],
      ['delete window', viewer.delete(`/api/v1/maintenance-windows/${w.body.id}`)],
    ];
    for (const [name, p] of writes) expect((await p).status, name).toBe(403);
    expect((await viewer.get(`/api/v1/incidents/${i.body.id}`)).body.title).toBe('Partial outage');
    expect((await viewer.get('/api/v1/maintenance-windows')).body.map((x: { id: string }) => x.id)).toContain(w.body.id);
  });
});
