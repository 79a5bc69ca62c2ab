// The public status call and the Statuspage-compatible JSON, on SQLite and PostgreSQL, against
// a scripted history written straight into the monitoring tables. Every response is validated
// against the OpenAPI document by the test client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { companiesRepo } from '../../../src/server/db/repositories/companies-repo.ts';
import { STATUSPAGE_DOCUMENTS, statuspageViolations } from '../../fixtures/statuspage-v2-schema.ts';
import { HOUR, DAY, hourOf, seedIncident, seedMaintenance, seedMonitor, seedScriptedHistory, type SeededMonitor } from './fixtures.ts';

const START = Date.UTC(2026, 10, 22, 14, 37, 12);

describe.each(DB_KINDS)('public status on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  let api: SeededMonitor;
  let web: SeededMonitor;
  let secret: SeededMonitor;
  const tick = (ms = 1500) => (clock += ms);

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `acme${kind}` });
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'API', url: 'https://api.acme.example/health' });
    web = await seedMonitor(t.services.db, acme.id, clock, {
      name: 'Website',
      url: 'https://www.acme.example/',
      status: 'down',
      lastHttpCode: 502,
      lastResponseTimeMs: 2001.5,
    });
    secret = await seedMonitor(t.services.db, acme.id, clock, {
      name: 'Secret DB',
      url: 'https://secret.internal.example/',
      isPublic: false,
      status: 'down',
    });
    await seedScriptedHistory(t.services.db, api, clock);
    await seedScriptedHistory(t.services.db, secret, clock);
    await seedIncident(t.services.db, acme.id, clock, { monitorId: secret.id, title: 'Secret DB outage' });
    await seedIncident(t.services.db, acme.id, clock, { monitorId: null, title: 'Hidden internal incident', isPublic: false });
  });
  afterAll(async () => t?.close());

  it('answers the spec payload with public monitors only', async () => {
    const r = await t.client().get(`/api/v1/public/public-status/${acme.subdomain}`);
    expect(r.status).toBe(200);
    expect(r.body.company).toEqual({
      name: 'Acme Corp',
      subdomain: acme.subdomain,
      primary_color: '#007bff',
      secondary_color: '#6c757d',
      logo_base64: null,
      horizontal_logo_base64: null,
    });
    expect(r.body.monitors.map((m: { monitor_name: string }) => m.monitor_name)).toEqual(['API', 'Website']);
    // the login list reads the public name: a monitor's host may be internal
    expect(r.body.public_monitors).toEqual([
      { id: api.id, domain: 'API', status: 200, current_status: 'operational', reports_http_code: true },
      { id: web.id, domain: 'Website', status: 502, current_status: 'down', reports_http_code: true },
    ]);
    expect(r.text).not.toContain('acme.example');
    expect(r.body.overall_status).toBe('degraded');
    expect(r.text).not.toContain('Secret');
    expect(r.text).not.toContain(secret.id);
    const [a, w] = r.body.monitors;
    expect(a).toMatchObject({ current_status: 'operational', last_response_time: 123.456 });
    expect(w).toMatchObject({ current_status: 'down', last_response_time: 2001.5 });
    expect(a.timeline).toHaveLength(24);
    expect(a.timeline[0].start).toBe('2026-11-21T15:00:00.000Z');
    expect(a.timeline[23]).toEqual({
      start: '2026-11-22T14:00:00.000Z',
      end: '2026-11-22T15:00:00.000Z',
      status: 'operational',
      http_code: null,
    });
    expect(a.timeline[13]).toMatchObject({ start: '2026-11-22T04:00:00.000Z', status: 'down', http_code: 503 });
    expect(a.timeline[14]).toMatchObject({ status: 'degraded', http_code: 200 });
    expect(a.timeline[2]).toMatchObject({ status: 'unknown', http_code: null });
    expect(w.timeline.every((b: { status: string }) => b.status === 'unknown')).toBe(true);
  });

  it('answers 404 for unknown and inactive companies', async () => {
    const missing = await t.client().get('/api/v1/public/public-status/nosuchco');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('Company not found or inactive');
    const off = await seedCompany(t.services, { subdomain: `off${kind}`, is_active: false });
    const inactive = await t.client().get(`/api/v1/public/public-status/${off.subdomain}`);
    expect(inactive.status).toBe(404);
  });

  it('revalidates with ETag/304 and changes the ETag when the data or the hour changes', async () => {
    const c = t.client();
    tick();
    const first = await c.get(`/api/v1/public/public-status/${acme.subdomain}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"sp-/);
    expect(first.headers.get('cache-control')).toContain('s-maxage');
    const again = await c.get(`/api/v1/public/public-status/${acme.subdomain}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');

    await t.services.db.k
      .updateTable('monitors')
      .set({ status: 'operational', last_checked_at: clock, updated_at: clock })
      .where('id', '=', web.id)
      .execute();
    // within the revalidation interval the snapshot is served as is
    const cached = await c.get(`/api/v1/public/public-status/${acme.subdomain}`, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    tick();
    const changed = await c.get(`/api/v1/public/public-status/${acme.subdomain}`, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.body.overall_status).toBe('operational');
    const etag2 = changed.headers.get('etag')!;
    expect(etag2).not.toBe(etag);

    // Private activity rebuilds the snapshot but must not show in its validator: a poller
    // could otherwise time a private incident or a private monitor's outage.
    await seedIncident(t.services.db, acme.id, clock, { title: 'Private trouble', isPublic: false });
    await t.services.db.k
      .updateTable('monitors')
      .set({ status: 'operational', status_since: clock, updated_at: clock })
      .where('id', '=', secret.id)
      .execute();
    tick();
    const quiet = await c.get(`/api/v1/public/public-status/${acme.subdomain}`, { headers: { 'if-none-match': etag2 } });
    expect(quiet.status).toBe(304);
    const publicTrouble = await seedIncident(t.services.db, acme.id, clock, { title: 'Public trouble' });
    tick();
    const loud = await c.get(`/api/v1/public/public-status/${acme.subdomain}`, { headers: { 'if-none-match': etag2 } });
    expect(loud.status).toBe(200);
    const etag3 = loud.headers.get('etag')!;
    await t.services.db.k.deleteFrom('incidents').where('id', '=', publicTrouble).execute(); // the later tests count incidents

    clock = hourOf(clock) + HOUR + 1000; // the hour turns: the blocks move
    const moved = await c.get(`/api/v1/public/public-status/${acme.subdomain}`, { headers: { 'if-none-match': etag3 } });
    expect(moved.status).toBe(200);
    expect(moved.body.monitors[0].timeline[23].start).toBe('2026-11-22T15:00:00.000Z');
    expect(moved.body.monitors[0].timeline[23].status).toBe('unknown');
  });

  it('follows brand and maintenance changes: new colour, a public window starting and ending', async () => {
    const c = t.client();
    tick();
    const url = `/api/v1/public/public-status/${acme.subdomain}`;
    const before = await c.get(url);
    await t.services.db.k.updateTable('companies').set({ primary_color: '#123456', updated_at: clock }).where('id', '=', acme.id).execute();
    tick();
    const recoloured = await c.get(url, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(recoloured.status).toBe(200);
    expect(recoloured.body.company.primary_color).toBe('#123456');

    // a window for every monitor, starting in 10 s: the page turns to maintenance when it starts
    const win = await seedMaintenance(t.services.db, acme.id, clock, { monitorId: null, startsAt: clock + 10_000, endsAt: clock + 60_000 });
    tick();
    expect((await c.get(url)).body.monitors.map((m: { current_status: string }) => m.current_status)).not.toContain('maintenance');
    tick(10_000);
    const during = await c.get(url);
    expect(during.body.monitors.every((m: { current_status: string }) => m.current_status === 'maintenance')).toBe(true);
    tick(60_000); // it ended
    expect((await c.get(url)).body.monitors.map((m: { current_status: string }) => m.current_status)).not.toContain('maintenance');
    await t.services.db.k.deleteFrom('maintenance_windows').where('id', '=', win).execute();
    await t.services.db.k.updateTable('companies').set({ primary_color: '#007bff', updated_at: clock }).where('id', '=', acme.id).execute();
  });

  it('keeps serving the last snapshot while the database is unavailable', async () => {
    const c = t.client();
    tick();
    const before = await c.get(`/api/v1/public/public-status/${acme.subdomain}`);
    expect(before.status).toBe(200);
    await sql`alter table companies rename to companies_away`.execute(t.services.db.k);
    try {
      tick();
      const during = await c.get(`/api/v1/public/public-status/${acme.subdomain}`);
      expect(during.status).toBe(200);
      expect(during.body).toEqual(before.body);
      const never = await c.get('/api/v1/public/public-status/neverseen');
      expect(never.status).toBe(503);
      expect(never.body.detail).toBe('Failed to load status page');
    } finally {
      await sql`alter table companies_away rename to companies`.execute(t.services.db.k);
    }
  });

  it('serves Statuspage-compatible JSON on the company host, public data only', async () => {
    const c = t.client();
    const host = `${acme.subdomain}.localhost`;
    tick();
    const incident = await seedIncident(t.services.db, acme.id, clock, {
      monitorId: api.id,
      title: 'API latency',
      severity: 'high',
      status: 'identified',
      updates: [
        { status: 'investigating', message: 'Looking into it', at: clock - HOUR },
        { status: 'identified', message: 'Cause found', at: clock - 60_000 },
      ],
    });
    await seedIncident(t.services.db, acme.id, clock, {
      title: 'Old outage',
      status: 'resolved',
      startedAt: clock - 3 * DAY,
      resolvedAt: clock - 3 * DAY + HOUR,
      severity: 'critical',
    });
    await seedMaintenance(t.services.db, acme.id, clock, { title: 'DB upgrade' });
    tick();
    const summary = await c.get('/api/v2/summary.json', { host });
    const spec = await c.get(`/api/v1/public/public-status/${acme.subdomain}`);
    expect(spec.body.overall_status).toBe('degraded'); // every monitor is up, but an incident is open
    expect(summary.status).toBe(200);
    expect(summary.body.page).toMatchObject({ id: acme.id, name: 'Acme Corp', time_zone: 'Etc/UTC' });
    expect(summary.body.page.url).toMatch(new RegExp(`^http://${host}:\\d+$`));
    expect(summary.body.components.map((x: { name: string }) => x.name)).toEqual(['API', 'Website']);
    expect(summary.body.components[0]).toMatchObject({ status: 'operational', position: 1, group: false, page_id: acme.id });
    expect(summary.body.incidents).toHaveLength(1);
    expect(summary.body.incidents[0]).toMatchObject({
      id: incident,
      name: 'API latency',
      status: 'identified',
      impact: 'major',
      resolved_at: null,
    });
    expect(summary.body.incidents[0].incident_updates.map((u: { body: string }) => u.body)).toEqual(['Cause found', 'Looking into it']);
    expect(summary.body.incidents[0].components.map((x: { name: string }) => x.name)).toEqual(['API']);
    expect(summary.body.scheduled_maintenances).toHaveLength(1);
    expect(summary.body.scheduled_maintenances[0]).toMatchObject({ name: 'DB upgrade', status: 'scheduled', impact: 'maintenance' });
    expect(summary.body.status).toEqual({ indicator: 'major', description: 'Partial System Outage' });
    expect(summary.text).not.toMatch(/Secret|Hidden internal/);

    const status = await c.get('/api/v2/status.json', { host });
    expect(status.body.status.indicator).toBe('major');
    const components = await c.get('/api/v2/components.json', { host });
    expect(components.body.components).toHaveLength(2);
    const all = await c.get('/api/v2/incidents.json', { host });
    expect(all.body.incidents.map((i: { name: string }) => i.name)).toEqual(['API latency', 'Old outage']);
    expect(all.body.incidents[1]).toMatchObject({ status: 'resolved', impact: 'critical' });
    const unresolved = await c.get('/api/v2/incidents/unresolved.json', { host });
    expect(unresolved.body.incidents.map((i: { name: string }) => i.name)).toEqual(['API latency']);
    const maint = await c.get('/api/v2/scheduled-maintenances.json', { host });
    expect(maint.body.scheduled_maintenances[0].scheduled_until).toBe(new Date(clock - 1500 + DAY + 2 * HOUR).toISOString());
    expect(maint.headers.get('access-control-allow-origin')).toBe('*');
    // every document has Atlassian's documented shape (the validator itself refuses a wrong one)
    for (const doc of STATUSPAGE_DOCUMENTS) {
      const r = await c.get(`/api/v2/${doc}`, { host });
      expect(r.status).toBe(200);
      expect(statuspageViolations(doc, r.body), doc).toEqual([]);
    }
    expect(statuspageViolations('summary.json', { ...summary.body, status: { indicator: 'down', description: 'x' } })).not.toEqual([]);
    expect(
      statuspageViolations('components.json', {
        page: summary.body.page,
        components: [{ ...summary.body.components[0], position: undefined }],
      }),
    ).not.toEqual([]);
    const notModified = await c.get('/api/v2/summary.json', { host, headers: { 'if-none-match': summary.headers.get('etag')! } });
    expect(notModified.status).toBe(304);

    const onRoot = await c.get('/api/v2/summary.json');
    expect(onRoot.status).toBe(404);
    const unknownCo = await c.get('/api/v2/summary.json', { host: 'ghost.localhost' });
    expect(unknownCo.status).toBe(404);
  });

  it('serves RSS and Atom feeds of public incidents with tenant text escaped', async () => {
    const c = t.client();
    const host = `${acme.subdomain}.localhost`;
    await seedIncident(t.services.db, acme.id, clock, {
      title: '<script>alert(1)</script> & "quotes"',
      updates: [{ status: 'investigating', message: '<img src=x onerror=alert(2)>', at: clock }],
    });
    tick();
    const rss = await c.get('/history.rss', { host });
    expect(rss.status).toBe(200);
    expect(rss.headers.get('content-type')).toContain('application/rss+xml');
    expect(rss.text).toContain('<title>Acme Corp Status - Incident History</title>');
    expect(rss.text).toContain('<title><![CDATA[&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot;]]></title>');
    expect(rss.text).toContain('&lt;img src=x onerror=alert(2)&gt;');
    expect(rss.text).toContain('API latency');
    expect(rss.text).not.toMatch(/Secret DB outage|Hidden internal/);
    expect(rss.text).not.toMatch(/<script>alert|<img src=x/);
    const atom = await c.get('/history.atom', { host });
    expect(atom.headers.get('content-type')).toContain('application/atom+xml');
    expect(atom.text).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(atom.text).not.toMatch(/<script>alert|<img src=x/);
    expect(atom.text).toContain('<title type="html"><![CDATA[&lt;script&gt;alert(1)&lt;/script&gt;');
    expect((await c.get('/history.rss')).status).toBe(404);
  });

  it('draws SVG badges and shields.io endpoint JSON for public monitors only', async () => {
    const c = t.client();
    const host = `${acme.subdomain}.localhost`;
    tick();
    const page = await c.get('/badges/status.svg', { host });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('image/svg+xml');
    expect(page.text).toMatch(/^<svg /);
    expect(page.text).toContain('status');
    const up = await c.get(`/badges/${api.id}/uptime-30d.svg`, { host });
    expect(up.text).toContain('uptime 30d');
    expect(up.text).toMatch(/\d+\.\d\d%/);
    const shield = await c.get(`/badges/${api.id}/status.json`, { host });
    expect(shield.body).toEqual({ schemaVersion: 1, label: 'API', message: 'operational', color: 'brightgreen', cacheSeconds: 60 });
    const rt = await c.get(`/badges/${web.id}/response-time.json`, { host });
    expect(rt.body).toMatchObject({ label: 'response time', message: '2002 ms', color: 'red' });
    expect((await c.get(`/badges/${secret.id}/status.svg`, { host })).status).toBe(404);
    expect((await c.get(`/badges/${api.id}/nonsense.svg`, { host })).status).toBe(404);
    await companiesRepo(t.services.db).update(acme.id, { updated_at: clock });
  });

  it('escapes tenant text inside badges', async () => {
    const evil = await seedMonitor(t.services.db, acme.id, clock, { name: '<svg onload=alert(1)>' });
    tick();
    const r = await t.client().get(`/badges/${evil.id}/status.svg`, { host: `${acme.subdomain}.localhost` });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('<svg onload');
    expect(r.text).toContain('&lt;svg onload=alert(1)&gt;');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});
