// Response times by location on the public status page (issue 27), on SQLite and PostgreSQL: a
// company admin turns them on for one component on the settings screen's call; the page and its
// JSON then show the latest time from each location (and "no answer" where a location sees it
// down), and other components, and the same component before the switch, show none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedMonitor, type SeededMonitor } from './fixtures.ts';

const START = Date.UTC(2026, 10, 29, 9, 0, 0);

describe.each(DB_KINDS)('status page response times by location on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  let host = '';
  let admin: ApiClient;
  let shop: SeededMonitor;
  let api: SeededMonitor;

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `sploc${kind}` });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    shop = await seedMonitor(t.services.db, acme.id, clock, { name: 'Shop', lastResponseTimeMs: 41, lastCheckedAt: clock - 5000 });
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'API', lastResponseTimeMs: 12, lastCheckedAt: clock - 5000 });
    await t.services.db.k
      .insertInto('probe_locations')
      .values([
        { id: 'l1', num: 1, slug: 'eu-west', name: 'Frankfurt', company_id: null, created_at: clock, created_by: null },
        { id: 'l2', num: 2, slug: 'us-east', name: 'Virginia', company_id: null, created_at: clock, created_by: null },
      ])
      .execute();
    const state = (monitorId: string, location: number, status: 'operational' | 'down', ms: number | null) => ({
      monitor_id: monitorId,
      location,
      company_id: acme.id,
      status,
      status_since: clock - 60_000,
      pending_status: null,
      pending_count: 0,
      last_checked_at: clock - 5000,
      last_status: status,
      last_response_time_ms: ms,
      last_http_code: ms === null ? null : 200,
      last_error: ms === null ? 'Connection refused' : null,
      updated_at: clock,
    });
    await t.services.db.k
      .insertInto('monitor_location_states')
      .values([state(shop.id, 1, 'operational', 38.5), state(shop.id, 2, 'down', null), state(api.id, 1, 'operational', 9)])
      .execute();
  });
  afterAll(async () => {
    await t?.close();
  });

  const publicJson = async () => {
    clock += 1500;
    const r = await t.client().get(`/api/v1/public/public-status/${acme.subdomain}`);
    expect(r.status, r.text).toBe(200);
    return r.body.monitors as Array<{ id: string; locations?: unknown }>;
  };

  it('shows none until the company turns them on', async () => {
    const monitors = await publicJson();
    expect(monitors.every((m) => m.locations === undefined)).toBe(true);
    const page = await t.client().get('/', { host });
    expect(page.text).not.toContain('m-locs');
  });

  it('shows the latest time from each location of the chosen component only', async () => {
    const settings = await admin.get('/api/v1/status-page/settings');
    expect(settings.status).toBe(200);
    expect(settings.body.monitors.find((m: { id: string }) => m.id === shop.id).show_locations).toBe(false);
    const put = await admin.put('/api/v1/status-page/settings', {
      ungrouped: [
        { monitor_id: shop.id, is_public: true, public_name: null, show_locations: true },
        { monitor_id: api.id, is_public: true, public_name: null },
      ],
      groups: [],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.monitors.find((m: { id: string }) => m.id === shop.id).show_locations).toBe(true);

    const monitors = await publicJson();
    expect(monitors.find((m) => m.id === shop.id)?.locations).toEqual([
      { name: 'Frankfurt', response_time: 38.5, status: 'operational' },
      { name: 'Virginia', response_time: null, status: 'down' },
    ]);
    expect(monitors.find((m) => m.id === api.id)?.locations).toBeUndefined();
    const page = await t.client().get('/', { host });
    const row = page.text.slice(page.text.indexOf(`data-monitor="${shop.id}"`));
    expect(row).toMatch(
      /class="m-locs"[^>]*><span class="m-loc">Frankfurt <strong>38\.50 ms<\/strong><\/span><span class="m-loc m-loc-down">Virginia <strong>no answer<\/strong>/,
    );
  });
});
