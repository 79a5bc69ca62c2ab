// One rule for a page's overall status: the page's headline, its badge, its Statuspage JSON,
// the public status call and its feeds say the same thing (one of two monitors down once read
// 'Some Systems Degraded' on the page and 'Major Service Outage' in status.json). And the
// Statuspage maintenance documents: upcoming.json, active.json, created_at = when it was planned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { statuspageViolations } from '../../fixtures/statuspage-v2-schema.ts';
import { DAY, HOUR, seedIncident, seedMaintenance, seedMonitor } from './fixtures.ts';

const START = Date.UTC(2026, 10, 22, 14, 37, 12);

describe.each(DB_KINDS)('overall status and maintenance documents on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  const tick = (ms = 1500) => (clock += ms);
  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
  });
  afterAll(async () => t?.close());

  /** What every surface of the page says about its overall state. */
  async function surfaces(subdomain: string) {
    const c = t.client();
    const host = `${subdomain}.localhost`;
    tick();
    const [html, status, summary, badge, spec, rss] = await Promise.all([
      c.get('/', { host }),
      c.get('/api/v2/status.json', { host }),
      c.get('/api/v2/summary.json', { host }),
      c.get('/badges/status.json', { host }),
      c.get(`/api/v1/public/public-status/${subdomain}`),
      c.get('/history.rss', { host }),
    ]);
    return {
      headline: /<h2 id="overall-text">([^<]*)<\/h2>/.exec(html.text)?.[1],
      pageClass: /data-overall="([a-z]+)"/.exec(html.text)?.[1],
      status: status.body.status,
      summaryStatus: summary.body.status,
      badge: badge.body.message,
      overallStatus: spec.body.overall_status,
      feed: /<description>(Incidents affecting[^<]*)<\/description>/.exec(rss.text)?.[1],
    };
  }

  it('one of two monitors down: the same words on the page, the badge, the JSON and the feed', async () => {
    const co = await seedCompany(t.services, { name: 'Half Down', subdomain: `half${kind}` });
    await seedMonitor(t.services.db, co.id, clock, { name: 'API' });
    await seedMonitor(t.services.db, co.id, clock, { name: 'Website', status: 'down', lastHttpCode: 502 });
    expect(await surfaces(co.subdomain)).toEqual({
      headline: 'Partial System Outage',
      pageClass: 'degraded',
      status: { indicator: 'major', description: 'Partial System Outage' },
      summaryStatus: { indicator: 'major', description: 'Partial System Outage' },
      badge: 'partial system outage',
      overallStatus: 'degraded',
      feed: 'Incidents affecting Half Down. Current status: Partial System Outage',
    });
  });

  it('every monitor down, and an open critical incident on a healthy page, read as a major outage everywhere', async () => {
    const down = await seedCompany(t.services, { name: 'All Down', subdomain: `alldown${kind}` });
    await seedMonitor(t.services.db, down.id, clock, { name: 'API', status: 'down' });
    await seedMonitor(t.services.db, down.id, clock, { name: 'Website', status: 'down' });
    const healthy = await seedCompany(t.services, { name: 'Healthy', subdomain: `healthy${kind}` });
    await seedMonitor(t.services.db, healthy.id, clock, { name: 'API' });
    for (const co of [down, healthy]) {
      if (co === healthy)
        await seedIncident(t.services.db, co.id, clock, { monitorId: null, title: 'Payments failing', severity: 'critical' });
      const s = await surfaces(co.subdomain);
      expect(s).toMatchObject({
        headline: 'Major Service Outage',
        pageClass: 'down',
        status: { indicator: 'critical', description: 'Major Service Outage' },
        badge: 'major service outage',
        overallStatus: 'down',
      });
    }
  });

  it('serves upcoming.json and active.json, with created_at the time the maintenance was planned', async () => {
    const co = await seedCompany(t.services, { name: 'Planner', subdomain: `plan${kind}` });
    await seedMonitor(t.services.db, co.id, clock, { name: 'API' });
    const plannedAt = clock;
    const running = await seedMaintenance(t.services.db, co.id, plannedAt, {
      title: 'Running now',
      startsAt: plannedAt - HOUR,
      endsAt: plannedAt + HOUR,
    });
    const later = await seedMaintenance(t.services.db, co.id, plannedAt, {
      title: 'Next week',
      startsAt: plannedAt + 7 * DAY,
      endsAt: plannedAt + 7 * DAY + HOUR,
    });
    tick(10 * 60_000);
    const c = t.client();
    const host = `${co.subdomain}.localhost`;
    const upcoming = await c.get('/api/v2/scheduled-maintenances/upcoming.json', { host });
    const active = await c.get('/api/v2/scheduled-maintenances/active.json', { host });
    expect(upcoming.status).toBe(200);
    expect(active.status).toBe(200);
    expect(statuspageViolations('scheduled-maintenances/upcoming.json', upcoming.body)).toEqual([]);
    expect(statuspageViolations('scheduled-maintenances/active.json', active.body)).toEqual([]);
    expect(upcoming.body.scheduled_maintenances.map((w: { id: string; status: string }) => [w.id, w.status])).toEqual([
      [later, 'scheduled'],
    ]);
    expect(active.body.scheduled_maintenances.map((w: { id: string; status: string }) => [w.id, w.status])).toEqual([
      [running, 'in_progress'],
    ]);
    const [w] = active.body.scheduled_maintenances;
    expect(w.created_at).toBe(new Date(plannedAt).toISOString());
    expect(w.scheduled_for).toBe(new Date(plannedAt - HOUR).toISOString());
    expect(w.started_at).toBe(new Date(plannedAt - HOUR).toISOString());
    // a window in progress is the page's state when nothing is failing
    expect((await c.get('/api/v2/status.json', { host })).body.status).toEqual({
      indicator: 'maintenance',
      description: 'Service Under Maintenance',
    });
    // as everywhere else on a page: only on a company host
    expect((await c.get('/api/v2/scheduled-maintenances/active.json')).status).toBe(404);
    expect((await c.get('/api/v2/scheduled-maintenances/upcoming.json', { host: 'ghost.localhost' })).status).toBe(404);
  });
});
