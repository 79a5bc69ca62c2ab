// Monitors choose locations and a quorum (issue 27 items 3 and 4), on both databases: what a
// monitor may name (the locations its company sees, each once, at most 16; another company's
// private slug reads as unknown), the quorum's range, `run_local` kept right on every write and
// when the company's default set changes, private addresses only for all-private sets, the
// `location_status` view, checks by location, and a deleted location dropped from monitors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

const ACME = { host: 'acme.localhost' };
const GLOBEX = { host: 'globex.localhost' };

describe.each(DB_KINDS)('monitor locations on %s', (kind) => {
  let t: TestApp;
  const clock = Date.parse('2026-11-29T10:00:00Z');
  let root: ApiClient;
  let acmeAdmin: ApiClient;
  let globexAdmin: ApiClient;
  let acme: { id: string };
  let frankfurt: { id: string; num: number };
  let lab: { id: string; num: number };

  const num = async (id: string) =>
    Number((await t.services.db.k.selectFrom('probe_locations').select('num').where('id', '=', id).executeTakeFirstOrThrow()).num);
  const row = (id: string) =>
    t.services.db.k.selectFrom('monitors').select(['locations', 'quorum', 'run_local']).where('id', '=', id).executeTakeFirstOrThrow();
  const tcp = (over: Record<string, unknown>) => ({ name: 'Shop', type: 'tcp', host: 'shop.example', port: 443, ...over });

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme', plan: 'enterprise' });
    const globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    acmeAdmin = t.client();
    await signIn(acmeAdmin, await seedUser(t.services, { userType: 2, companyId: acme.id }), ACME.host);
    globexAdmin = t.client();
    await signIn(globexAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }), GLOBEX.host);
    const f = await root.post('/api/v1/probe-locations', { name: 'Frankfurt', slug: 'eu-west', private: false });
    const l = await acmeAdmin.post('/api/v1/probe-locations', { name: 'Acme lab', slug: 'lab', private: true }, ACME);
    await globexAdmin.post('/api/v1/probe-locations', { name: 'Globex office', slug: 'office', private: true }, GLOBEX);
    frankfurt = { id: f.body.id, num: await num(f.body.id) };
    lab = { id: l.body.id, num: await num(l.body.id) };
  });
  afterAll(async () => t?.close());

  it('refuses lists and quorums out of the rules, with the field named', async () => {
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ locations: ['eu-west', 'eu-west'] }, 'locations', /named twice/],
      [{ locations: ['nowhere'] }, 'locations', /not a location of yours/],
      // Globex's private location does not exist for Acme.
      [{ locations: ['office'] }, 'locations', /"office" is not a location of yours/],
      [{ locations: ['local', 'eu-west'], quorum: 3 }, 'quorum', /from 1 to 2/],
      [{ quorum: 2 }, 'quorum', /With one location the quorum is 1/],
    ];
    for (const [body, field, text] of cases) {
      const r = await acmeAdmin.post('/api/v1/monitors', tcp(body), ACME);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors[field]).toMatch(text);
    }
    // The contract refuses the shapes before the service: an empty list, more than 16, quorum 0.
    expect((await acmeAdmin.post('/api/v1/monitors', tcp({ locations: [] }), ACME)).status).toBe(400);
    const many = Array.from({ length: 17 }, (_, i) => `l${i}`);
    expect((await acmeAdmin.post('/api/v1/monitors', tcp({ locations: many }), ACME)).status).toBe(400);
    expect((await acmeAdmin.post('/api/v1/monitors', tcp({ quorum: 0 }), ACME)).status).toBe(400);
  });

  let shop: string;

  it('stores locations and quorum, answers them everywhere a monitor is returned, and keeps run_local right', async () => {
    const created = await acmeAdmin.post('/api/v1/monitors', tcp({ locations: ['local', 'eu-west', 'lab'], quorum: 2 }), ACME);
    expect(created.status).toBe(201);
    shop = created.body.id;
    expect(created.body).toMatchObject({ locations: ['local', 'eu-west', 'lab'], quorum: 2 });
    expect(await row(shop)).toMatchObject({ locations: '["local","eu-west","lab"]', quorum: 2, run_local: true });
    expect((await acmeAdmin.get(`/api/v1/monitors/${shop}`, ACME)).body).toMatchObject({
      locations: ['local', 'eu-west', 'lab'],
      quorum: 2,
    });
    const listed = (await acmeAdmin.get('/api/v1/monitors', ACME)).body.find((m: { id: string }) => m.id === shop);
    expect(listed).toMatchObject({ locations: ['local', 'eu-west', 'lab'], quorum: 2 });

    // Without local the built-in engine no longer claims it; a quorum left out is kept.
    const moved = await acmeAdmin.put(`/api/v1/monitors/${shop}`, { locations: ['eu-west', 'lab'] }, ACME);
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ locations: ['eu-west', 'lab'], quorum: 2 });
    expect(await row(shop)).toMatchObject({ run_local: false });
    // Shrinking the list below the stored quorum is refused until the quorum changes too.
    const short = await acmeAdmin.put(`/api/v1/monitors/${shop}`, { locations: ['eu-west'] }, ACME);
    expect(short.status).toBe(400);
    expect(short.body.errors.quorum).toMatch(/With one location/);
    // null: the company's default set (itself null: local) and a majority.
    const back = await acmeAdmin.put(`/api/v1/monitors/${shop}`, { locations: null, quorum: null }, ACME);
    expect(back.body).toMatchObject({ locations: null, quorum: null });
    expect(await row(shop)).toMatchObject({ locations: null, quorum: null, run_local: true });
  });

  it('follows the company default set: validated like a monitor list, run_local updated for monitors without their own', async () => {
    const own = await acmeAdmin.post('/api/v1/monitors', tcp({ name: 'Own', locations: ['local'] }), ACME);
    const bad = await acmeAdmin.put(`/api/v1/companies/${acme.id}/profile`, { default_locations: ['office'] }, ACME);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.default_locations).toMatch(/"office" is not a location of yours/);
    const ok = await acmeAdmin.put(`/api/v1/companies/${acme.id}/profile`, { default_locations: ['eu-west', 'lab'] }, ACME);
    expect(ok.status).toBe(200);
    expect(ok.body.default_locations).toEqual(['eu-west', 'lab']);
    expect(await row(shop)).toMatchObject({ run_local: false });
    expect(await row(own.body.id)).toMatchObject({ run_local: true });
    // A new monitor without its own list follows the default too; a quorum is judged against it.
    const fresh = await acmeAdmin.post('/api/v1/monitors', tcp({ name: 'Fresh', quorum: 2 }), ACME);
    expect(fresh.status).toBe(201);
    expect(await row(fresh.body.id)).toMatchObject({ locations: null, quorum: 2, run_local: false });
    expect(fresh.body.location_status.map((l: { slug: string }) => l.slug)).toEqual(['eu-west', 'lab']);
    const back = await acmeAdmin.put(`/api/v1/companies/${acme.id}/profile`, { default_locations: null }, ACME);
    expect(back.body.default_locations).toBeNull();
    expect(await row(shop)).toMatchObject({ run_local: true });
    // Its quorum of 2 cannot be reached by the built-in engine alone: back to the majority.
    expect(await row(fresh.body.id)).toMatchObject({ run_local: true, quorum: null });
    await acmeAdmin.post(`/api/v1/monitors/${fresh.body.id}/archive`, undefined, ACME);
    await acmeAdmin.post(`/api/v1/monitors/${own.body.id}/archive`, undefined, ACME);
  });

  it('lets a monitor checked from private locations alone target a private address, and no other', async () => {
    const inside = tcp({ name: 'Intranet', host: '10.1.2.3', port: 8080 });
    const platform = await acmeAdmin.post('/api/v1/monitors', inside, ACME);
    expect(platform.status).toBe(400);
    expect(platform.body.errors.host).toBeTruthy();
    const mixed = await acmeAdmin.post('/api/v1/monitors', { ...inside, locations: ['lab', 'eu-west'] }, ACME);
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors.host).toBeTruthy();
    const priv = await acmeAdmin.post('/api/v1/monitors', { ...inside, locations: ['lab'] }, ACME);
    expect(priv.status).toBe(201);
    expect(await row(priv.body.id)).toMatchObject({ run_local: false });
    // Adding a public location to it is refused: the platform's rule applies again.
    const widened = await acmeAdmin.put(`/api/v1/monitors/${priv.body.id}`, { locations: ['lab', 'local'] }, ACME);
    expect(widened.status).toBe(400);
    expect(widened.body.errors.host).toBeTruthy();
    await acmeAdmin.post(`/api/v1/monitors/${priv.body.id}/archive`, undefined, ACME);
  });

  it('shows each location with its state, online or not; a local-only monitor its own row', async () => {
    const solo = await acmeAdmin.post('/api/v1/monitors', tcp({ name: 'Solo' }), ACME);
    expect(solo.body.location_status).toEqual([
      {
        slug: 'local',
        name: 'Built-in engine',
        private: false,
        online: true,
        status: 'unknown',
        last_checked_at: null,
        response_time: null,
        last_error: null,
        uptime_24h: null,
      },
    ]);
    await t.services.db.k
      .updateTable('monitors')
      .set({ status: 'down', last_checked_at: clock - 5000, last_error: 'Connection refused' })
      .where('id', '=', solo.body.id)
      .execute();
    expect((await acmeAdmin.get(`/api/v1/monitors/${solo.body.id}`, ACME)).body.location_status[0]).toMatchObject({
      status: 'down',
      last_checked_at: new Date(clock - 5000).toISOString(),
      last_error: 'Connection refused',
    });

    await acmeAdmin.put(`/api/v1/monitors/${shop}`, { locations: ['local', 'eu-west', 'lab'] }, ACME);
    // The lab's probe says hello: the lab is online; Frankfurt has no probe, so it is offline.
    const token = (await acmeAdmin.post(`/api/v1/probe-locations/${lab.id}/tokens`, { name: 'rack' }, ACME)).body.token;
    const hi = await rawRequest(
      `${t.baseUrl}/api/v1/probe/hello`,
      'POST',
      { host: `localhost:${t.port}`, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      JSON.stringify({ instance: 'lab-1', version: '1.0.0' }),
    );
    expect(hi.status).toBe(200);
    const state = (location: number, status: 'operational' | 'down', rt: number | null, error: string | null) => ({
      monitor_id: shop,
      location,
      company_id: acme.id,
      status,
      status_since: clock - 60_000,
      last_checked_at: clock - 1000,
      last_status: status,
      last_response_time_ms: rt,
      last_http_code: null,
      last_error: error,
      updated_at: clock,
    });
    await t.services.db.k
      .insertInto('monitor_location_states')
      .values([state(0, 'operational', 12.5, null), state(lab.num, 'down', null, 'Connection timed out')])
      .execute();
    const got = (await acmeAdmin.get(`/api/v1/monitors/${shop}`, ACME)).body;
    expect(got.location_status).toEqual([
      {
        slug: 'local',
        name: 'Built-in engine',
        private: false,
        online: true,
        status: 'operational',
        last_checked_at: new Date(clock - 1000).toISOString(),
        response_time: 12.5,
        last_error: null,
        uptime_24h: null,
      },
      {
        slug: 'eu-west',
        name: 'Frankfurt',
        private: false,
        online: false,
        status: 'unknown',
        last_checked_at: null,
        response_time: null,
        last_error: null,
        uptime_24h: null,
      },
      {
        slug: 'lab',
        name: 'Acme lab',
        private: true,
        online: true,
        status: 'down',
        last_checked_at: new Date(clock - 1000).toISOString(),
        response_time: null,
        last_error: 'Connection timed out',
        uptime_24h: null,
      },
    ]);
  });

  it('names each check by its location and filters by it', async () => {
    const r = (location: number, at: number) => ({
      monitor_id: shop,
      checked_at: at,
      company_id: acme.id,
      status: 'operational' as const,
      response_time_ms: 10,
      http_code: null,
      error: null,
      timings: null,
      cert_expires_at: null,
      location,
    });
    await t.services.db.k
      .insertInto('check_results')
      .values([r(0, clock - 3000), r(frankfurt.num, clock - 2000), r(lab.num, clock - 1000)])
      .execute();
    const all = await acmeAdmin.get(`/api/v1/monitors/${shop}/checks`, ACME);
    expect(all.body.map((c: { location: string }) => c.location)).toEqual(['lab', 'eu-west', 'local']);
    const one = await acmeAdmin.get(`/api/v1/monitors/${shop}/checks?location=eu-west`, ACME);
    expect(one.body.map((c: { location: string }) => c.location)).toEqual(['eu-west']);
    // Another company's private slug is as unknown as one that does not exist.
    expect((await acmeAdmin.get(`/api/v1/monitors/${shop}/checks?location=office`, ACME)).status).toBe(400);
  });

  it('drops a deleted location from the monitors and default sets naming it', async () => {
    const only = await acmeAdmin.post('/api/v1/monitors', tcp({ name: 'Only Frankfurt', locations: ['eu-west'] }), ACME);
    await acmeAdmin.put(`/api/v1/monitors/${shop}`, { locations: ['local', 'eu-west', 'lab'], quorum: 3 }, ACME);
    await acmeAdmin.put(`/api/v1/companies/${acme.id}/profile`, { default_locations: ['eu-west'] }, ACME);
    expect(await row(only.body.id)).toMatchObject({ run_local: false });
    expect((await root.delete(`/api/v1/probe-locations/${frankfurt.id}`)).status).toBe(200);
    expect(await row(shop)).toMatchObject({ locations: '["local","lab"]', quorum: null, run_local: true });
    // Its list left empty: the company default, itself emptied to null, so local.
    expect(await row(only.body.id)).toMatchObject({ locations: null, run_local: true });
    const company = await t.services.db.k
      .selectFrom('companies')
      .select('default_locations')
      .where('id', '=', acme.id)
      .executeTakeFirstOrThrow();
    expect(company.default_locations).toBeNull();
  });
});
