// A probe location's health (issue 27 item 5), through the real API, the probe's real hello and
// the probe-health job, on both databases: a location whose probes go silent past
// PROBE_OFFLINE_SECONDS is shown offline and whom it concerns is told once (the super admins for
// a public location, the company's admins for a private one, nobody else), and once when a probe
// is back; a location whose checks all fail while another location sees the same monitors up is
// flagged and told once, and cleared when one of its checks succeeds; the quorum writer's
// `unhealthyLocations` names the offline and flagged ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksRepo } from '../../../src/server/db/repositories/checks-repo.ts';
import { unhealthyLocations } from '../../../src/server/db/repositories/location-health-repo.ts';
import { monitorsRepo } from '../../../src/server/db/repositories/monitors-repo.ts';
import { probeHealth } from '../../../src/server/jobs/probe-health.ts';
import { idleMonitorRow, okResultRow } from '../engine/support.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';

const ACME = { host: 'acme.localhost' };
const SEC = 1000;

describe.each(DB_KINDS)('probe location health on %s', (kind) => {
  let t: TestApp;
  let clock = Date.parse('2026-11-29T10:00:00Z');
  let root: ApiClient;
  let root2: ApiClient;
  let acmeAdmin: ApiClient;
  let acmeViewer: ApiClient;
  let acme: { id: string };
  let frankfurt: { id: string; token: string; num: number };
  let lab: { id: string; token: string; num: number };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, env: { PROBE_OFFLINE_SECONDS: '90' } });
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    root = t.client();
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    root2 = t.client();
    await signIn(root2, await seedUser(t.services, { userType: 1 }));
    acmeAdmin = t.client();
    await signIn(acmeAdmin, await seedUser(t.services, { userType: 2, companyId: acme.id }), ACME.host);
    acmeViewer = t.client();
    await signIn(acmeViewer, await seedUser(t.services, { userType: 3, companyId: acme.id }), ACME.host);
    const location = async (c: ApiClient, body: object, host?: { host: string }) => {
      const made = await c.post('/api/v1/probe-locations', body, host ?? {});
      expect(made.status).toBe(201);
      const tok = await c.post(`/api/v1/probe-locations/${made.body.id}/tokens`, { name: 'host-1' }, host ?? {});
      expect(tok.status).toBe(201);
      const row = await t.services.db.k
        .selectFrom('probe_locations')
        .select('num')
        .where('id', '=', made.body.id)
        .executeTakeFirstOrThrow();
      return { id: made.body.id as string, token: tok.body.token as string, num: Number(row.num) };
    };
    frankfurt = await location(root, { name: 'Frankfurt', slug: 'eu-west', private: false });
    lab = await location(acmeAdmin, { name: 'Acme lab', slug: 'lab', private: true }, ACME);
  });
  afterAll(async () => t?.close());

  const hello = async (token: string) => {
    const r = await rawRequest(
      `${t.baseUrl}/api/v1/probe/hello`,
      'POST',
      { host: `localhost:${t.port}`, 'content-type': 'application/json', authorization: `Bearer ${token}` },
      JSON.stringify({ instance: 'probe-1', version: '1.0.0' }),
    );
    expect(r.status).toBe(200);
  };
  const run = () => probeHealth.run(t.services, clock);
  /** The probe-location notices a client's user has, as titles. */
  const notices = async (c: ApiClient, host?: { host: string }) => {
    const r = await c.get('/api/v1/notifications?notification_type=system', host ?? {});
    expect(r.status).toBe(200);
    return (r.body as Array<{ title: string }>).map((n) => n.title).filter((title) => title.startsWith('Probe location'));
  };
  const view = async (c: ApiClient, id: string, host?: { host: string }) => {
    const r = await c.get(`/api/v1/probe-locations/${id}`, host ?? {});
    expect(r.status, r.text).toBe(200);
    return r.body;
  };

  it('marks a silent location offline after PROBE_OFFLINE_SECONDS, tells whom it concerns once, and once when it is back', async () => {
    await hello(frankfurt.token);
    await hello(lab.token);
    const heard = clock;
    clock += 90 * SEC;
    expect(await run()).toBeUndefined(); // 90 s is the limit, not past it
    expect((await view(root, frankfurt.id)).offline_since).toBeNull();

    clock += 5 * SEC;
    expect(await run()).toMatch(/eu-west is offline.*lab is offline/);
    expect((await view(root, frankfurt.id)).offline_since).toBe(new Date(heard).toISOString());
    expect((await view(acmeAdmin, lab.id, ACME)).offline_since).toBe(new Date(heard).toISOString());
    const list = (await acmeViewer.get('/api/v1/probe-locations', ACME)).body as Array<{ slug: string; offline_since: string | null }>;
    expect(list.map((l) => [l.slug, l.offline_since])).toEqual([
      ['local', null],
      ['eu-west', new Date(heard).toISOString()],
      ['lab', new Date(heard).toISOString()],
    ]);
    expect(await unhealthyLocations(t.services.db, [0, frankfurt.num, lab.num])).toEqual(new Set([frankfurt.num, lab.num]));

    // Still silent: nothing more is said.
    clock += 60 * SEC;
    expect(await run()).toBeUndefined();
    const offline = ['Probe location Frankfurt (eu-west) is offline'];
    expect(await notices(root)).toEqual(offline);
    expect(await notices(root2)).toEqual(offline);
    expect(await notices(acmeAdmin, ACME)).toEqual(['Probe location Acme lab (lab) is offline']);
    expect(await notices(acmeViewer, ACME)).toEqual([]); // admins only

    // A probe of Frankfurt calls again: back, told once.
    await hello(frankfurt.token);
    expect(await run()).toMatch(/^probe location eu-west is back$/);
    clock += 10 * SEC;
    expect(await run()).toBeUndefined();
    expect((await view(root, frankfurt.id)).offline_since).toBeNull();
    expect(await notices(root)).toEqual(['Probe location Frankfurt (eu-west) is back', ...offline]);
    expect(await notices(acmeAdmin, ACME)).toEqual(['Probe location Acme lab (lab) is offline']);
    expect(await unhealthyLocations(t.services.db, [frankfurt.num, lab.num])).toEqual(new Set([lab.num]));

    // A second spell is a new notice.
    clock += 100 * SEC;
    await run();
    await hello(frankfurt.token);
    await run();
    expect(await notices(root)).toHaveLength(4);
  });

  it('flags a location whose checks all fail while another location sees the same monitors up, once, until one of its checks succeeds', async () => {
    await hello(frankfurt.token);
    await hello(lab.token);
    await run(); // both back
    const monitors = ['m1', 'm2', 'm3'].map((m) => `${m}-${kind}`);
    for (const id of monitors) await monitorsRepo(t.services.db).insert(idleMonitorRow(id, acme.id, clock + 3_600_000, clock - 3_600_000));
    /** One minute of checks: Frankfurt's as `frankfurtStatus`, the built-in engine's up; their per-location states as the writer keeps them. */
    const minute = async (frankfurtStatus: 'down' | 'operational', localStatus: 'down' | 'operational' = 'operational') => {
      const rows = monitors.flatMap((id, i) => [
        { ...okResultRow(id, acme.id, clock - 30 * SEC + i, 20), location: 0, status: localStatus },
        {
          ...okResultRow(id, acme.id, clock - 20 * SEC + i, 80),
          location: frankfurt.num,
          status: frankfurtStatus,
          ...(frankfurtStatus === 'down' ? { response_time_ms: null, http_code: null, error: 'Timed out after 5 s' } : {}),
        },
      ]);
      await checksRepo(t.services.db).insertMany(rows);
      for (const id of monitors)
        for (const [location, status] of [
          [0, localStatus],
          [frankfurt.num, frankfurtStatus],
        ] as const) {
          const state = { last_checked_at: clock - 20 * SEC, last_status: status, updated_at: clock };
          await t.services.db.k
            .insertInto('monitor_location_states')
            .values({ monitor_id: id, location, company_id: acme.id, status, ...state })
            .onConflict((oc) => oc.columns(['monitor_id', 'location']).doUpdateSet(state))
            .execute();
        }
      await hello(frankfurt.token);
      await hello(lab.token);
    };
    // 3 minutes: 9 failed checks, one short of the canary's 10.
    for (let i = 0; i < 3; i++) {
      clock += 60 * SEC;
      await minute('down');
      expect(await run()).toBeUndefined();
    }
    clock += 60 * SEC;
    await minute('down');
    expect(await run()).toBe('probe location eu-west flagged: 12 checks of 3 monitors failed, others see them up');
    const flaggedAt = clock;
    expect((await view(root, frankfurt.id)).flagged_since).toBe(new Date(flaggedAt).toISOString());
    expect(await unhealthyLocations(t.services.db, [frankfurt.num, lab.num])).toEqual(new Set([frankfurt.num]));
    clock += 60 * SEC;
    await minute('down');
    expect(await run()).toBeUndefined();
    const flagged = 'Probe location Frankfurt (eu-west) fails every check while other locations succeed';
    expect((await notices(root)).filter((n) => n === flagged)).toHaveLength(1);
    expect(await notices(acmeAdmin, ACME)).not.toContain(flagged); // a public location's managers are the super admins

    clock += 60 * SEC;
    await minute('operational');
    expect(await run()).toBe('probe location eu-west no longer flagged');
    expect((await view(root, frankfurt.id)).flagged_since).toBeNull();
    expect((await notices(root))[0]).toBe('Probe location Frankfurt (eu-west) checks succeed again');
    expect(await unhealthyLocations(t.services.db, [frankfurt.num, lab.num])).toEqual(new Set());

    // The targets really down, seen so from both locations: not the location's fault, never flagged.
    for (let i = 0; i < 6; i++) {
      clock += 60 * SEC;
      await minute('down', 'down');
      expect(await run()).toBeUndefined();
    }
    expect(await unhealthyLocations(t.services.db, [frankfurt.num, lab.num])).toEqual(new Set());
  });
});
