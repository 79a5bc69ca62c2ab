// Incident templates through the API (issue 30 item 6), on both databases: company admins create,
// replace and delete them (audited as settings changes), any member lists and reads them, a
// viewer cannot write (403), another company's templates are invisible (404), and bad input is
// refused with a message per field. A monitor deleted since is left out of a template's monitors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../support/fixtures.ts';

describe.each(DB_KINDS)('incident templates on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let other: ApiClient;
  let acme: { id: string };
  let shopId: string;
  let apiId: string;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'enterprise' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), 'acme.localhost');
    viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }), 'acme.localhost');
    other = t.client();
    await signIn(other, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
    const monitor = async (name: string) =>
      (await admin.post('/api/v1/monitors', { name, type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 300 }, on)).body
        .id as string;
    shopId = await monitor('Shop');
    apiId = await monitor('API');
  });
  afterAll(async () => {
    await t?.close();
  });

  const on = { host: 'acme.localhost' };
  const outage = () => ({
    name: 'Payment provider outage',
    kind: 'incident',
    title: 'Payments are failing',
    message: 'Our payment provider is having problems; card payments may fail. We are watching it.',
    impact: 'major',
    monitor_ids: [shopId, apiId],
  });

  it('an admin creates, replaces and deletes templates; members list them by name; each change is audited', async () => {
    const created = await admin.post('/api/v1/incident-templates', outage(), on);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...outage(), id: expect.any(String), company_id: acme.id });
    const upgrade = await admin.post(
      '/api/v1/incident-templates',
      {
        name: 'Database upgrade',
        kind: 'maintenance',
        title: 'Database upgrade',
        message: 'Short read-only periods.',
        monitor_ids: [apiId],
      },
      on,
    );
    expect(upgrade.status).toBe(201);
    expect(upgrade.body).toMatchObject({ kind: 'maintenance', impact: null, monitor_ids: [apiId] });

    const list = await viewer.get('/api/v1/incident-templates', on);
    expect(list.status).toBe(200);
    expect(list.body.map((x: { name: string }) => x.name)).toEqual(['Database upgrade', 'Payment provider outage']);
    const maintenanceOnly = await viewer.get('/api/v1/incident-templates?kind=maintenance', on);
    expect(maintenanceOnly.body.map((x: { name: string }) => x.name)).toEqual(['Database upgrade']);
    expect((await viewer.get(`/api/v1/incident-templates/${created.body.id}`, on)).body).toEqual(created.body);

    const replaced = await admin.put(
      `/api/v1/incident-templates/${created.body.id}`,
      { ...outage(), impact: 'critical', monitor_ids: [shopId] },
      on,
    );
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ impact: 'critical', monitor_ids: [shopId], created_at: created.body.created_at });

    expect((await admin.delete(`/api/v1/incident-templates/${upgrade.body.id}`, on)).status).toBe(204);
    expect((await viewer.get(`/api/v1/incident-templates/${upgrade.body.id}`, on)).status).toBe(404);
    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .select(['details', 'tenant_id'])
      .where('event', '=', 'settings_update')
      .orderBy('timestamp')
      .execute();
    expect(audit.map((a) => [JSON.parse(String(a.details)).action, JSON.parse(String(a.details)).name, a.tenant_id])).toEqual([
      ['create', 'Payment provider outage', acme.id],
      ['create', 'Database upgrade', acme.id],
      ['update', 'Payment provider outage', acme.id],
      ['delete', 'Database upgrade', acme.id],
    ]);
  });

  it('refuses a viewer (403) and hides every template from another company (404, empty list)', async () => {
    const mine = (await admin.post('/api/v1/incident-templates', { ...outage(), name: 'Private one' }, on)).body;
    expect((await viewer.post('/api/v1/incident-templates', { ...outage(), name: 'Viewer try' }, on)).status).toBe(403);
    expect((await viewer.put(`/api/v1/incident-templates/${mine.id}`, outage(), on)).status).toBe(403);
    expect((await viewer.delete(`/api/v1/incident-templates/${mine.id}`, on)).status).toBe(403);
    const g = { host: 'globex.localhost' };
    expect((await other.get('/api/v1/incident-templates', g)).body).toEqual([]);
    expect((await other.get(`/api/v1/incident-templates/${mine.id}`, g)).status).toBe(404);
    expect((await other.put(`/api/v1/incident-templates/${mine.id}`, outage(), g)).status).toBe(404);
    expect((await other.delete(`/api/v1/incident-templates/${mine.id}`, g)).status).toBe(404);
    // Nor can another company's template name Acme's monitors.
    const theirs = await other.post('/api/v1/incident-templates', outage(), g);
    expect(theirs.status).toBe(400);
    expect(theirs.body.errors).toEqual({ monitor_ids: 'Monitor not found' });
    expect((await viewer.get(`/api/v1/incident-templates/${mine.id}`, on)).body.name).toBe('Private one');
  });

  it('says what is wrong with each field, and refuses a name the company uses already', async () => {
    const blank = await admin.post('/api/v1/incident-templates', { ...outage(), name: 'Blank', title: '   ', impact: null }, on);
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual({ title: 'Title is required', impact: 'Choose the impact of the incident' });
    const maintenanceImpact = await admin.post('/api/v1/incident-templates', { ...outage(), name: 'Window', kind: 'maintenance' }, on);
    expect(maintenanceImpact.body.errors).toEqual({ impact: 'A maintenance template has no impact' });
    const control = await admin.post('/api/v1/incident-templates', { ...outage(), name: 'Evil\u202Ename' }, on);
    expect(control.body.errors.name).toMatch(/^Name must not contain control characters: U\+202E/);
    const schema = await admin.post('/api/v1/incident-templates', { ...outage(), kind: 'postmortem' }, on);
    expect(schema.status).toBe(400);
    const taken = await admin.post('/api/v1/incident-templates', outage(), on);
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ name: 'A template with this name exists already' });
  });

  it("leaves a deleted monitor out of a template's monitors", async () => {
    const gone = (
      await admin.post('/api/v1/monitors', { name: 'Old', type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 300 }, on)
    ).body.id;
    const tpl = (await admin.post('/api/v1/incident-templates', { ...outage(), name: 'With old', monitor_ids: [gone, shopId] }, on)).body;
    expect(tpl.monitor_ids).toEqual([gone, shopId]);
    await t.services.db.k.deleteFrom('monitors').where('id', '=', gone).execute();
    expect((await viewer.get(`/api/v1/incident-templates/${tpl.id}`, on)).body.monitor_ids).toEqual([shopId]);
  });
});
