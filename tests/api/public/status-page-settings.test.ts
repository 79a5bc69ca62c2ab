// Status page settings over HTTP (issue 13 item 6) on SQLite and PostgreSQL: the role table
// (company admins and super admins with a chosen tenant save, viewers read), another company's
// monitors and groups refused, the layout's validation, and every public document following a
// save - names, order, groups - with no internal monitor name or host left in any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { statuspageViolations } from '../../fixtures/statuspage-v2-schema.ts';
import { statusPageSettingsRepo } from '../../../src/server/db/repositories/status-page-settings-repo.ts';
import { seedIncident, seedMaintenance, seedMonitor, seedScriptedHistory, type SeededMonitor } from './fixtures.ts';

const START = Date.UTC(2026, 10, 22, 14, 37, 12);
const PATH = '/api/v1/status-page/settings';

/** Every public document of a company's host, as a visitor fetches them. */
const PUBLIC_DOCUMENTS = [
  '/',
  '/api/v2/summary.json',
  '/api/v2/components.json',
  '/api/v2/incidents.json',
  '/api/v2/incidents/unresolved.json',
  '/api/v2/scheduled-maintenances.json',
  '/history.rss',
  '/history.atom',
  '/badges/status.svg',
];

type Placement = { monitor_id: string; is_public: boolean; public_name: string | null };
const place = (m: { id: string }, public_name: string | null, is_public = true): Placement => ({
  monitor_id: m.id,
  is_public,
  public_name,
});

describe.each(DB_KINDS)('status page settings on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  let other: { id: string; subdomain: string };
  let host = '';
  let admin: ApiClient;
  let viewer: ApiClient;
  let root: ApiClient;
  let loopback: SeededMonitor;
  let db: SeededMonitor;
  let website: SeededMonitor;
  let hidden: SeededMonitor;
  let foreign: SeededMonitor;
  const tick = (ms = 1500) => (clock += ms);
  const visitor = () => t.client();
  const documents = async () => {
    tick();
    const out: Record<string, string> = {};
    for (const p of PUBLIC_DOCUMENTS) {
      const r = await visitor().get(p, { host });
      expect(r.status, p).toBe(200);
      out[p] = r.text;
    }
    for (const m of [loopback, db, website]) {
      const r = await visitor().get(`/badges/${m.id}/status.svg`, { host });
      out[`badge ${m.id}`] = r.text;
    }
    const status = await visitor().get(`/api/v1/public/public-status/${acme.subdomain}`);
    out.status = status.text;
    return out;
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `spset${kind}` });
    other = await seedCompany(t.services, { name: 'Other Co', subdomain: `spother${kind}` });
    host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    viewer = new ApiClient(t.baseUrl, host);
    root = new ApiClient(t.baseUrl, t.config.productDomain);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    // the issue's own example: the login list showed '127.0.0.1 200'
    loopback = await seedMonitor(t.services.db, acme.id, clock, { name: '127.0.0.1 200', url: 'http://127.0.0.1:8080/health' });
    db = await seedMonitor(t.services.db, acme.id, clock, { name: 'pg-primary.corp.internal', url: 'https://pg-primary.corp.internal/' });
    website = await seedMonitor(t.services.db, acme.id, clock, { name: 'Website', url: 'https://www.acme.example/' });
    hidden = await seedMonitor(t.services.db, acme.id, clock, { name: 'Billing', isPublic: false });
    foreign = await seedMonitor(t.services.db, other.id, clock, { name: 'Other API' });
    await seedScriptedHistory(t.services.db, loopback, clock);
    // the engine's own incident names the monitor by its internal name
    await seedIncident(t.services.db, acme.id, clock, {
      monitorId: loopback.id,
      title: '127.0.0.1 200 is down',
      updates: [{ status: 'open', message: '127.0.0.1 200 is not responding as expected.', at: clock - 60_000, by: null }],
    });
    await seedMaintenance(t.services.db, acme.id, clock, { monitorId: db.id, title: 'Disk swap' });
  });
  afterAll(async () => t?.close());

  it('shows no internal host even before any setting: host-like names read "Service N"', async () => {
    const r = await visitor().get(`/api/v1/public/public-status/${acme.subdomain}`);
    // 'Service N' is the monitor's place on the page (here by name, as nothing is placed yet)
    const names: string[] = r.body.monitors.map((m: { monitor_name: string }) => m.monitor_name);
    expect(names.filter((n) => n !== 'Website')).toEqual(names.flatMap((n, i) => (n === 'Website' ? [] : [`Service ${i + 1}`])));
    expect(names).toHaveLength(3);
    expect(r.body.public_monitors.map((m: { domain: string }) => m.domain)).toEqual(names);
    const docs = await documents();
    for (const [path, text] of Object.entries(docs)) {
      expect(text, path).not.toContain('127.0.0.1');
      expect(text, path).not.toContain('corp.internal');
      expect(text, path).not.toContain('www.acme.example');
    }
  });

  it('reads the layout for viewers, admins and super admins with a tenant; a super admin must choose one', async () => {
    const v = await viewer.get(PATH);
    expect(v.status).toBe(200);
    expect(v.body.company_id).toBe(acme.id);
    expect(v.body.preview_url).toMatch(new RegExp(`^http://${acme.subdomain}\\.localhost:\\d+/$`));
    expect(v.body.monitors.map((m: { name: string }) => m.name).sort()).toEqual([
      '127.0.0.1 200',
      'Billing',
      'Website',
      'pg-primary.corp.internal',
    ]);
    const lo = v.body.monitors.find((m: { id: string }) => m.id === loopback.id);
    expect(lo).toMatchObject({ target: '127.0.0.1', is_public: true, public_name: null, group_id: null });
    expect(lo.shown_name).toMatch(/^Service \d$/);
    expect(v.body.monitors.find((m: { id: string }) => m.id === hidden.id).shown_name).toBeNull();
    // a company user's tenant parameter is ignored: always their own company
    expect((await admin.get(`${PATH}?tenant=${other.id}`)).body.company_id).toBe(acme.id);
    expect((await root.get(PATH)).status).toBe(400);
    const chosen = await root.get(`${PATH}?tenant=${other.id}`);
    expect(chosen.status).toBe(200);
    expect(chosen.body.monitors.map((m: { id: string }) => m.id)).toEqual([foreign.id]);
    expect((await root.get(`${PATH}?tenant=no-such-company`)).status).toBe(404);
    expect((await visitor().get(PATH, { host })).status).toBe(401);
  });

  it("refuses a viewer's save (403) and changes nothing", async () => {
    const r = await viewer.put(PATH, { groups: [], ungrouped: [place(website, 'Hacked')] });
    expect(r.status).toBe(403);
    expect((await viewer.get(PATH)).body.monitors.find((m: { id: string }) => m.id === website.id).public_name).toBeNull();
  });

  it("refuses another company's monitor or group (404), whoever asks, and saves nothing of the layout", async () => {
    const withForeign = await admin.put(PATH, { groups: [], ungrouped: [place(website, 'Web'), place(foreign, 'Stolen')] });
    expect(withForeign.status).toBe(404);
    expect((await admin.get(PATH)).body.monitors.find((m: { id: string }) => m.id === website.id).public_name).toBeNull();
    const otherLayout = await root.put(`${PATH}?tenant=${other.id}`, {
      groups: [{ name: 'Theirs', monitors: [place(foreign, null)] }],
      ungrouped: [],
    });
    expect(otherLayout.status).toBe(200);
    const theirGroup = otherLayout.body.groups[0].id;
    const stealGroup = await admin.put(PATH, {
      groups: [{ id: theirGroup, name: 'Mine now', monitors: [place(website, null)] }],
      ungrouped: [],
    });
    expect(stealGroup.status).toBe(404);
    // a company admin naming the other company still acts on their own
    const own = await admin.put(`${PATH}?tenant=${other.id}`, { groups: [], ungrouped: [place(foreign, 'x')] });
    expect(own.status).toBe(404);
    const theirs = await root.get(`${PATH}?tenant=${other.id}`);
    expect(theirs.body.groups).toEqual([{ id: theirGroup, name: 'Theirs', name_translations: {} }]);
    expect(theirs.body.monitors[0]).toMatchObject({ public_name: null, group_id: theirGroup });
    expect((await root.put(PATH, { groups: [], ungrouped: [] })).status).toBe(400);
  });

  it('validates names and duplicates with the field at fault', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      [{ groups: [], ungrouped: [place(website, 'A'), place(website, 'B')] }, 400, /listed twice/],
      [
        {
          groups: [
            { name: 'Core', monitors: [] },
            { name: 'core', monitors: [] },
          ],
          ungrouped: [],
        },
        400,
        /Two groups are named/,
      ],
      [{ groups: [{ name: '   ', monitors: [] }], ungrouped: [] }, 400, /needs a name/],
      [{ groups: [], ungrouped: [place(website, 'Web'), place(db, 'web')] }, 400, /Two public monitors are named/],
      [{ groups: [], ungrouped: [place(website, 'Web\u0007')] }, 400, /control characters/],
      [{ groups: [], ungrouped: [place(website, 'x'.repeat(101))] }, 400, /.+/],
      [{ groups: [{ name: 'y'.repeat(101), monitors: [] }], ungrouped: [] }, 400, /.+/],
      [{ groups: [], ungrouped: [{ monitor_id: website.id, is_public: true }] }, 400, /.+/],
    ];
    for (const [body, status, detail] of cases) {
      const r = await admin.put(PATH, body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(r.body.detail).toMatch(detail);
    }
    // two private monitors may share a public name: only public ones are read
    expect((await admin.put(PATH, { groups: [], ungrouped: [place(hidden, 'Web', false), place(website, 'Web')] })).status).toBe(200);
  });

  it('puts public names, order and groups on every public document, and their ETags change', async () => {
    tick();
    const before = await visitor().get('/api/v2/summary.json', { host });
    const pageBefore = await visitor().get('/', { host });
    const saved = await admin.put(PATH, {
      ungrouped: [place(website, 'Website')],
      groups: [
        { name: 'Core services', monitors: [place(db, 'Database'), place(loopback, 'Public API')] },
        { name: 'Empty group', monitors: [] },
      ],
    });
    expect(saved.status).toBe(200);
    expect(saved.body.groups.map((g: { name: string }) => g.name)).toEqual(['Core services', 'Empty group']);
    // page order; the private monitor keeps the place it was given earlier, and shows no name
    expect(saved.body.monitors.map((m: { name: string; shown_name: string | null }) => [m.name, m.shown_name])).toEqual([
      ['Billing', null],
      ['Website', 'Website'],
      ['pg-primary.corp.internal', 'Database'],
      ['127.0.0.1 200', 'Public API'],
    ]);
    const core = saved.body.groups[0].id;

    tick();
    const summary = await visitor().get('/api/v2/summary.json', { host, headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(summary.status).toBe(200);
    expect(statuspageViolations('summary.json', summary.body)).toEqual([]);
    expect(
      summary.body.components.map((c: { name: string; group: boolean; group_id: string | null; position: number }) => [
        c.name,
        c.group,
        c.group_id,
        c.position,
      ]),
    ).toEqual([
      ['Website', false, null, 1],
      ['Core services', true, null, 2],
      ['Database', false, core, 3],
      ['Public API', false, core, 4],
    ]);
    expect(summary.body.components[1].components).toEqual([db.id, loopback.id]);
    // the engine's incident reads the public name; the window names the public name too
    const incidents = await visitor().get('/api/v2/incidents.json', { host });
    expect(incidents.body.incidents.map((i: { name: string }) => i.name)).toContain('Public API is down');
    expect(incidents.body.incidents[0].components.map((c: { name: string }) => c.name)).toEqual(['Public API']);

    const status = await visitor().get(`/api/v1/public/public-status/${acme.subdomain}`);
    expect(status.body.monitors.map((m: { monitor_name: string; group: string | null }) => [m.monitor_name, m.group])).toEqual([
      ['Website', null],
      ['Database', 'Core services'],
      ['Public API', 'Core services'],
    ]);
    expect(status.body.public_monitors.map((m: { domain: string }) => m.domain)).toEqual(['Website', 'Database', 'Public API']);

    const page = await visitor().get('/', { host, headers: { 'if-none-match': pageBefore.headers.get('etag')! } });
    expect(page.status).toBe(200);
    const names = [...page.text.matchAll(/class="m-name"[^>]*>([^<]*)</g)].map((x) => x[1]);
    expect(names).toEqual(['Website', 'Database', 'Public API']);
    expect(page.text).toMatch(/<h3[^>]*class="group-name"[^>]*>Core services<\/h3>/);
    expect(page.text).not.toContain('Empty group');
    expect(page.text).toContain('Affects Database');

    const rss = await visitor().get('/history.rss', { host });
    expect(rss.text).toContain('Public API is down');
    const badge = await visitor().get(`/badges/${loopback.id}/status.json`, { host });
    expect(badge.body.label).toBe('Public API');

    // no document carries an internal name or host
    for (const [path, text] of Object.entries(await documents())) {
      for (const internal of ['127.0.0.1', 'pg-primary', 'corp.internal', 'www.acme.example', 'Billing'])
        expect(text, `${path}: ${internal}`).not.toContain(internal);
    }
  });

  it('changes the ETag for a layout written by another process (the page fingerprint sees groups and placements)', async () => {
    const url = `/api/v1/public/public-status/${acme.subdomain}`;
    tick();
    const before = await visitor().get(url);
    const etag = before.headers.get('etag')!;
    const core = (await admin.get(PATH)).body.groups[0].id;
    // straight to the database, as another server process would: this process's cache is not told
    await statusPageSettingsRepo(t.services.db).save(
      acme.id,
      {
        groups: [
          { id: core, name: 'Core platform', isNew: false },
          { id: 'g-new-1', name: 'Edge', isNew: true },
        ],
        monitors: [],
      },
      clock,
    );
    const cached = await visitor().get(url, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304); // within the recheck interval
    tick();
    const renamed = await visitor().get(url, { headers: { 'if-none-match': etag } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.monitors.map((m: { group: string | null }) => m.group)).toEqual([null, 'Core platform', 'Core platform']);
    const etag2 = renamed.headers.get('etag')!;
    await statusPageSettingsRepo(t.services.db).save(
      acme.id,
      {
        groups: [
          { id: core, name: 'Core platform', isNew: false },
          { id: 'g-new-1', name: 'Edge', isNew: false },
        ],
        monitors: [
          {
            id: website.id,
            is_public: true,
            public_name: 'Website',
            public_group_id: 'g-new-1',
            public_position: 0,
            public_locations: false,
            public_response_chart: false,
          },
        ],
      },
      clock + 1,
    );
    tick();
    const moved = await visitor().get(url, { headers: { 'if-none-match': etag2 } });
    expect(moved.status).toBe(200);
    expect(moved.body.monitors.map((m: { monitor_name: string; group: string | null }) => [m.monitor_name, m.group])).toEqual([
      ['Database', 'Core platform'],
      ['Public API', 'Core platform'],
      ['Website', 'Edge'],
    ]);
  });

  it('reorders, moves between groups, removes a group and turns monitors private', async () => {
    const current = (await admin.get(PATH)).body;
    const core = current.groups[0].id;
    const r = await admin.put(PATH, {
      ungrouped: [place(loopback, 'Public API'), place(website, 'Website')],
      groups: [{ id: core, name: 'Core', monitors: [place(db, 'Database', false)] }],
    });
    expect(r.status).toBe(200);
    // the group left out ('Edge') is gone
    expect(r.body.groups).toEqual([{ id: core, name: 'Core', name_translations: {} }]);
    tick();
    const status = await visitor().get(`/api/v1/public/public-status/${acme.subdomain}`);
    expect(status.body.monitors.map((m: { monitor_name: string }) => m.monitor_name)).toEqual(['Public API', 'Website']);
    const summary = await visitor().get('/api/v2/components.json', { host });
    // a group with no public monitor is not shown
    expect(summary.body.components.map((c: { name: string }) => c.name)).toEqual(['Public API', 'Website']);
    expect(statuspageViolations('components.json', summary.body)).toEqual([]);
    // a group left out goes; its monitors are then listed on their own
    const gone = await admin.put(PATH, { ungrouped: [], groups: [] });
    expect(gone.body.groups).toEqual([]);
    expect(gone.body.monitors.every((m: { group_id: string | null }) => m.group_id === null)).toBe(true);
    expect(gone.body.monitors.find((m: { id: string }) => m.id === loopback.id).public_name).toBe('Public API');
  });
});
