// The embeds of a company's page (issue 32, docs/features/embeds.md), on SQLite and PostgreSQL,
// through the real server: /embed/status.json says what is going on now (an incident, running
// maintenance, nothing) with CORS for any origin, no cookies and 304s; /embed.js is the client in
// the visitor's language within 5 KB compressed; the frames render the badge and banner in a
// language and theme, and only they may be framed by other sites; a private page's embeds give
// nothing away.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { HOUR, seedIncident, seedMaintenance, seedMonitor } from './fixtures.ts';
import { publicTenantOrigin } from '../../../src/server/domain/status-page/public-links.ts';

const NOW = Date.UTC(2026, 10, 24, 13, 5);
/** The target for the script, compressed. */
const SCRIPT_BUDGET = 5 * 1024;

describe.each(DB_KINDS)('embeds on %s', (kind) => {
  let t: TestApp;
  let clock = NOW;
  const tick = () => (clock += 1500);
  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
  });
  afterAll(() => t?.close());

  const company = async (name: string) => {
    const co = await seedCompany(t.services, { name, subdomain: `${name.toLowerCase().replace(/\W/g, '')}${kind}` });
    const monitorId = (await seedMonitor(t.services.db, co.id, clock, { name: 'Public API' })).id;
    // the links the embeds carry: the page's public address (configuration, not the request's host)
    return { ...co, host: `${co.subdomain}.localhost`, origin: publicTenantOrigin(t.services.config, co.subdomain), monitorId };
  };

  it('status.json: all well, then an incident (its title, impact and link), then running maintenance too', async () => {
    const co = await company('Calm Co');
    const c = t.client();
    const calm = await c.get('/embed/status.json', { host: co.host, headers: { origin: 'https://www.calm.example' } });
    expect(calm.status).toBe(200);
    expect(calm.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(calm.body).toEqual({
      page: { name: 'Calm Co', url: `${co.origin}/` },
      status: 'operational',
      indicator: 'none',
      description: 'All Systems Operational',
      ongoing: [],
      updated_at: new Date(clock).toISOString(),
    });
    // any site may read it, with no credentials; nothing is set in the visitor's browser
    expect(calm.headers.get('access-control-allow-origin')).toBe('*');
    expect(calm.headers.get('access-control-allow-credentials')).toBeNull();
    expect(calm.headers.get('set-cookie')).toBeNull();
    expect(calm.headers.get('cache-control')).toMatch(/^public, .*s-maxage=15/);

    const incidentId = await seedIncident(t.services.db, co.id, clock, {
      title: 'Checkout errors',
      severity: 'critical',
      monitorId: co.monitorId,
      startedAt: clock - HOUR,
    });
    const windowId = await seedMaintenance(t.services.db, co.id, clock, {
      title: 'Database upgrade',
      startsAt: clock - HOUR,
      endsAt: clock + HOUR,
    });
    // planned, not running: not "ongoing"
    await seedMaintenance(t.services.db, co.id, clock, {
      title: 'Next week',
      startsAt: clock + 7 * 24 * HOUR,
      endsAt: clock + 8 * 24 * HOUR,
    });
    t.services.state.statusPageCache.invalidate(co.subdomain);
    tick();
    const busy = await c.get('/embed/status.json', { host: co.host });
    const origin = co.origin;
    expect(busy.body.indicator).toBe('critical');
    expect(busy.body.ongoing).toEqual([
      {
        id: incidentId,
        kind: 'incident',
        title: 'Checkout errors',
        impact: 'critical',
        url: `${origin}/incidents/${incidentId}`,
        started_at: new Date(NOW - HOUR).toISOString(),
        updated_at: new Date(NOW - HOUR).toISOString(),
      },
      {
        id: windowId,
        kind: 'maintenance',
        title: 'Database upgrade',
        impact: 'maintenance',
        url: `${origin}/#maintenance-${windowId}`,
        started_at: new Date(NOW - HOUR).toISOString(),
        updated_at: expect.any(String),
      },
    ]);
  });

  it('status.json revalidates: the same snapshot answers 304 to its ETag, a change answers 200', async () => {
    const co = await company('Etag Co');
    const c = t.client();
    const first = await c.get('/embed/status.json', { host: co.host, headers: { 'accept-encoding': 'gzip' } });
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"sp-/);
    const again = await c.get('/embed/status.json', { host: co.host, headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('access-control-allow-origin')).toBe('*');
    await seedIncident(t.services.db, co.id, clock, { title: 'Slow search', severity: 'medium', monitorId: co.monitorId });
    t.services.state.statusPageCache.invalidate(co.subdomain);
    tick();
    const changed = await c.get('/embed/status.json', { host: co.host, headers: { 'accept-encoding': 'gzip', 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    const bytes = changed.headers.get('content-encoding') === 'gzip' ? gunzipSync(changed.bytes) : changed.bytes;
    expect(JSON.parse(bytes.toString()).ongoing[0]).toMatchObject({ title: 'Slow search', impact: 'minor' });
  });

  it('embed.js: the client in the language asked for (lang, else Accept-Language), within 5 KB compressed', async () => {
    const co = await company('Script Co');
    const c = t.client();
    const br = await c.get('/embed.js?lang=de', { host: co.host, headers: { 'accept-encoding': 'br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('set-cookie')).toBeNull();
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const gz = await c.get('/embed.js?lang=de', { host: co.host, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    // the sizes a browser downloads: the target of the issue
    expect(br.bytes.length).toBeLessThanOrEqual(SCRIPT_BUDGET);
    expect(gz.bytes.length).toBeLessThanOrEqual(SCRIPT_BUDGET);
    const script = brotliDecompressSync(br.bytes).toString();
    expect(gunzipSync(gz.bytes).toString()).toBe(script);
    expect(script).toContain('"lang":"de"');
    expect(script).toContain('Alle Systeme betriebsbereit');
    expect(script).toContain('attachShadow');
    expect(script).not.toMatch(/\beval\(|new Function|document\.cookie|innerHTML/);
    // without lang: the visitor's language, and the answer says it varies with it
    const fr = await c.get('/embed.js', { host: co.host, headers: { 'accept-language': 'fr-CH, de;q=0.5' } });
    expect(fr.text).toContain('"lang":"fr"');
    expect(fr.headers.get('vary')).toBe('Accept-Encoding, Accept-Language');
    const none = await c.get('/embed.js?lang=xx', { host: co.host });
    expect(none.text).toContain('"lang":"en"');
    // the script does not change with the status: browsers keep it
    const etag = br.headers.get('etag')!;
    await seedIncident(t.services.db, co.id, clock, { title: 'Anything', monitorId: co.monitorId });
    t.services.state.statusPageCache.invalidate(co.subdomain);
    tick();
    const later = await c.get('/embed.js?lang=de', { host: co.host, headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(later.status).toBe(304);
  });

  it('frames: the badge and banner in a language and theme; only they may be framed, by any site', async () => {
    const co = await company('Frame Co');
    const c = t.client();
    const badge = await c.get('/embed/badge?theme=dark&lang=de', { host: co.host });
    expect(badge.status).toBe(200);
    expect(badge.text).toContain('<html lang="de" dir="ltr">');
    expect(badge.text).toContain('>Alle Systeme betriebsbereit</span>');
    expect(badge.text).toContain(`href="${co.origin}/"`);
    expect(badge.text).toContain('--bg:#111827');
    expect(badge.text).not.toContain('<script');
    const csp = badge.headers.get('content-security-policy')!;
    expect(csp).toMatch(/frame-ancestors \*$/);
    expect(csp).toContain("default-src 'none'");
    expect(badge.headers.get('x-frame-options')).toBeNull();
    expect(badge.headers.get('set-cookie')).toBeNull();

    const emptyBanner = await c.get('/embed/banner', { host: co.host, headers: { 'accept-language': 'he' } });
    expect(emptyBanner.text).toContain('<html lang="he" dir="rtl">');
    expect(emptyBanner.text).toContain('<body></body>');

    await seedIncident(t.services.db, co.id, clock, { title: 'Login <failures>', severity: 'high', monitorId: co.monitorId });
    await seedIncident(t.services.db, co.id, clock, { title: 'Second one', severity: 'low', monitorId: null });
    t.services.state.statusPageCache.invalidate(co.subdomain);
    tick();
    const banner = await c.get('/embed/banner?lang=en&accent=ff00aa&theme=light', { host: co.host });
    expect(banner.text).toContain('Incident · Major impact');
    expect(banner.text).toContain('Login &lt;failures&gt;</a>');
    expect(banner.text).toContain('and 1 more');
    expect(banner.text).toContain('--ac:#ff00aa');
    expect(banner.headers.get('x-frame-options')).toBeNull();

    // every other page keeps refusing to be framed
    for (const p of ['/embed/status.json', '/embed.js', '/api/v2/status.json', '/badges/status.svg']) {
      const r = await c.get(p, { host: co.host });
      expect(r.headers.get('x-frame-options'), p).toBe('DENY');
      expect(r.headers.get('content-security-policy'), p).toContain("frame-ancestors 'none'");
    }
  });

  it('an unknown company has no embeds', async () => {
    const c = t.client();
    for (const p of ['/embed/status.json', '/embed.js', '/embed/badge', '/embed/banner']) {
      expect((await c.get(p, { host: `nobody${kind}.localhost` })).status, p).toBe(404);
    }
  });

  it('a private page: every embed is refused and says nothing of the page', async () => {
    const co = await company('Secret Co');
    await seedIncident(t.services.db, co.id, clock, { title: 'Kraken outage', monitorId: co.monitorId });
    const admin = await seedUser(t.services, { userType: 2, companyId: co.id });
    const c = t.client();
    await signIn(c, admin, co.host);
    const set = await c.put('/api/v1/status-page/access', { mode: 'password', password: 'open sesame 1' }, { host: co.host });
    expect(set.status, set.text).toBe(200);
    const anon = t.client();
    for (const p of ['/embed/status.json', '/embed.js', '/embed.js?lang=de', '/embed/badge', '/embed/banner?lang=de']) {
      const r = await anon.get(p, { host: co.host });
      expect(r.status, p).toBe(401);
      for (const word of ['Secret Co', 'Kraken', 'perational', 'attachShadow']) expect(r.text, p).not.toContain(word);
      expect(r.headers.get('access-control-allow-origin'), p).toBeNull();
      expect(r.headers.get('cache-control'), p).toContain('no-store');
    }
    // the frames answer an empty page another site may show (not a framing error)
    const frame = await anon.get('/embed/badge', { host: co.host });
    expect(frame.headers.get('content-security-policy')).toContain('frame-ancestors *');
    expect(frame.text).toContain('<body></body>');
  });
});
