// The public pages beside the status page, on SQLite and PostgreSQL: /history month by month,
// /incidents/{id} with its whole timeline and postmortem, /uptime calendars for 3, 6 and 12
// months. Server-rendered (read here as HTML, as a browser without JavaScript gets them), cached
// with the company's snapshot and revalidated (ETag, 304, compressed), public data only.
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { DAY, HOUR, seedDaily, seedIncident, seedMaintenance, seedMonitor, type SeededMonitor } from './fixtures.ts';

const NOW = Date.UTC(2026, 10, 24, 13, 5); // 24 November 2026
const text = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

describe.each(DB_KINDS)('public history pages on %s', (kind) => {
  let t: TestApp;
  let clock = NOW;
  let acme: { id: string; subdomain: string };
  let api: SeededMonitor;
  let web: SeededMonitor;
  let host: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `acme${kind}` });
    const other = await seedCompany(t.services, { name: 'Other Co', subdomain: `other${kind}` });
    host = `${acme.subdomain}.localhost`;
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'API' });
    web = await seedMonitor(t.services.db, acme.id, clock, { name: 'Website' });
    const secret = await seedMonitor(t.services.db, acme.id, clock, { name: 'Secret DB', isPublic: false });
    const db = t.services.db;
    ids.november = await seedIncident(db, acme.id, clock, {
      monitorId: api.id,
      title: 'API errors',
      severity: 'critical',
      status: 'resolved',
      startedAt: Date.UTC(2026, 10, 3, 10),
      resolvedAt: Date.UTC(2026, 10, 3, 11, 30),
      updates: [
        { status: 'investigating', message: 'We see errors on the API.', at: Date.UTC(2026, 10, 3, 10, 5) },
        { status: 'identified', message: 'A bad deploy.\nRolling back.', at: Date.UTC(2026, 10, 3, 10, 40) },
        { status: 'resolved', message: 'All good again.', at: Date.UTC(2026, 10, 3, 11, 30) },
      ],
    });
    await db.k
      .updateTable('incidents')
      .set({ postmortem: 'Root cause: a config flag. We added a check.' })
      .where('id', '=', ids.november)
      .execute();
    ids.august = await seedIncident(db, acme.id, clock, {
      title: 'Login <b>slow</b>',
      severity: 'medium',
      status: 'resolved',
      startedAt: Date.UTC(2026, 7, 14, 8),
      resolvedAt: Date.UTC(2026, 7, 14, 9),
    });
    ids.private = await seedIncident(db, acme.id, clock, { title: 'Hidden internal', isPublic: false, startedAt: Date.UTC(2026, 10, 5) });
    ids.secret = await seedIncident(db, acme.id, clock, {
      monitorId: secret.id,
      title: 'Secret DB outage',
      startedAt: Date.UTC(2026, 10, 6),
    });
    ids.other = await seedIncident(db, other.id, clock, { title: 'Other company incident', startedAt: Date.UTC(2026, 10, 7) });
    await seedMaintenance(db, acme.id, Date.UTC(2026, 9, 1), {
      title: 'Network upgrade',
      startsAt: Date.UTC(2026, 9, 10, 22),
      endsAt: Date.UTC(2026, 9, 11, 1),
    });
    // uptime: a bad day in November, a warn day in October, nothing before September
    for (let d = Date.UTC(2026, 8, 1); d <= Date.UTC(2026, 10, 24); d += DAY) {
      await seedDaily(db, api, d, d === Date.UTC(2026, 10, 3) ? { failures: 144 } : {});
      await seedDaily(db, web, d, d === Date.UTC(2026, 9, 20) ? { failures: 7 } : {});
    }
  });
  afterAll(async () => t?.close());

  it('pages through every public incident and maintenance month by month', async () => {
    const c = t.client();
    const now = await c.get('/history', { host });
    expect(now.status).toBe(200);
    const page = text(now.text);
    expect(page).toContain('Incident history');
    expect(page).toContain('November 2026');
    expect(page).toContain('API errors');
    expect(now.text).toContain(`href="/incidents/${ids.november}"`);
    expect(page).not.toMatch(/Hidden internal|Secret DB|Other company/);
    expect(now.text).toContain('href="/history?month=2026-10"');
    expect(now.text).not.toContain('rel="next"'); // nothing after the current month
    expect(page).toContain('No maintenance in November 2026.');

    const october = text((await c.get('/history?month=2026-10', { host })).text);
    expect(october).toContain('No incidents reported in October 2026.');
    expect(october).toContain('Network upgrade');
    expect(october).toContain('Completed');
    expect(october).toContain('Affects all services');

    const august = await c.get('/history?month=2026-08', { host });
    expect(text(august.text)).toContain('Login <b>slow</b>'); // tenant text as text
    expect(august.text).not.toContain('<b>slow</b>');
    expect(august.text).not.toContain('rel="prev"'); // the history starts with its first event
    expect(august.text).toContain('href="/history?month=2026-09"');
    // a month in the future or a made-up one reads as the current month
    expect(text((await c.get('/history?month=2030-01', { host })).text)).toContain('API errors');
    expect(text((await c.get('/history?month=nonsense', { host })).text)).toContain('November 2026');
  });

  it('shows one incident with its whole timeline, oldest first, and its postmortem', async () => {
    const c = t.client();
    const r = await c.get(`/incidents/${ids.november}`, { host });
    expect(r.status).toBe(200);
    const page = text(r.text);
    expect(page).toContain('API errors');
    expect(page).toMatch(
      /State Resolved Impact Major outage Started 2026-11-03 10:00 UTC Resolved 2026-11-03 11:30 UTC Duration 1 h 30 min Affects API/,
    );
    const order = ['We see errors on the API.', 'A bad deploy.', 'All good again.'].map((m) => page.indexOf(m));
    expect(order.every((i, k) => i > 0 && (k === 0 || i > order[k - 1]))).toBe(true);
    expect(page).toContain('Postmortem Root cause: a config flag. We added a check.');

    for (const hidden of [ids.private, ids.secret, ids.other, 'no-such-incident', '..%2Fetc']) {
      const missing = await c.get(`/incidents/${hidden}`, { host });
      expect(missing.status, hidden).toBe(404);
      expect(text(missing.text)).toContain('Incident not found');
      expect(missing.text).not.toMatch(/Hidden internal|Secret DB outage|Other company incident/);
    }
    // a company's incident is not served on another company's host, nor on the main host
    expect((await c.get(`/incidents/${ids.november}`, { host: `other${kind}.localhost` })).status).toBe(404);
    expect((await c.get(`/incidents/${ids.november}`, { host: 'ghost.localhost' })).status).toBe(404);
  });

  it('draws a calendar of daily bars per public component for 3, 6 and 12 months', async () => {
    const c = t.client();
    const three = await c.get('/uptime', { host });
    expect(three.status).toBe(200);
    const page = text(three.text);
    expect(page).toContain('September 2026');
    expect(page).not.toContain('August 2026');
    expect(three.text).toContain('title="2026-11-03: 90.00% uptime"');
    expect(three.text).toMatch(/<li class="t-bad" title="2026-11-03: 90.00% uptime">/);
    expect(three.text).toMatch(/<li class="t-warn" title="2026-10-20: 99.51% uptime">/);
    expect(page).not.toContain('Secret DB');
    // API: 85 days, one at 90 %: (85 × 1440 − 144) / (85 × 1440)
    expect(page).toContain(`API ${((1 - 144 / (85 * 1440)) * 100).toFixed(2)}% uptime`);
    const twelve = await c.get('/uptime?months=12', { host });
    const year = text(twelve.text);
    expect(year).toContain('December 2025');
    expect(twelve.text).toContain('title="2026-01-15: no data"');
    expect(twelve.text).toMatch(/href="\/uptime\?months=12" aria-current="page"/);
    expect(text((await c.get('/uptime?months=7', { host })).text)).toContain('September 2026'); // unknown range: 3 months
  });

  it('is cached with the snapshot: 304 to its ETag, brotli, and a new ETag after a change', async () => {
    const c = t.client();
    const first = await c.get('/history', { host });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"h-/);
    expect(first.headers.get('cache-control')).toContain('s-maxage=15');
    expect(first.headers.get('content-security-policy')).toContain('script-src');
    const second = await rawRequest(`${t.baseUrl}/history`, 'GET', { host: `${host}:${t.port}`, 'accept-encoding': 'br' });
    expect(second.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(second.bytes).toString()).toContain('API errors');
    const again = await c.get('/history', { host, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    // a new incident changes the snapshot, and so the history
    await seedIncident(t.services.db, acme.id, clock, { title: 'Fresh incident', startedAt: clock - HOUR });
    clock += 2000;
    const changed = await c.get('/history', { host, headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(text(changed.text)).toContain('Fresh incident');
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});
