// Private status pages (issue 17 item 4), on SQLite and PostgreSQL, through the real server with
// its Astro pages: a protected page refuses anonymous visitors on EVERY public document (status,
// and nothing of the company's page in the body, not even after a 304 validator), and serves
// them with the page password (a signed cookie), a session of the company's own user on its
// host, an allowed address (behind TRUST_PROXY, read from X-Forwarded-For as the app's proxy
// setting says) or a valid share link; wrong passwords are throttled; forged, expired and
// revoked credentials fail. A route or page nobody classified fails the inventory test.
import { readdirSync } from 'node:fs';
import { sql } from 'kysely';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { seedIncident, seedMonitor } from './fixtures.ts';
import { documentKind } from '../../../src/server/http/page-access-guard.ts';

const NOW = Date.UTC(2026, 10, 24, 13, 5);
const HOUR = 3_600_000;
/** Words of the company's page: none may reach a refused visitor. */
const MARKERS = ['Zebra API', 'Acme Corp', 'Kraken', 'perational', 'All Systems', 'zebra', '<svg', 'schemaVersion'];
/** Other spellings of the documents (case, slashes, escapes): refused like them, whatever the router makes of them. */
const ALIASES = new Set(['/History/', '//feed.rss', '/%68istory']);
const leaks = (text: string) => MARKERS.filter((m) => text.includes(m));

describe.each(DB_KINDS)('private status pages on %s', (kind) => {
  let t: TestApp;
  let clock = NOW;
  let sub: string;
  let companyId: string;
  let host: string;
  let otherHost: string;
  let monitorId: string;
  let incidentId: string;
  let documents: string[];
  const users: Record<string, { email: string; password: string }> = {};

  /** The company's admin, signed in afresh (the tests move the clock past the session's life). */
  const asAdmin = async () => {
    const c = t.client();
    await signIn(c, users.admin, host);
    return c;
  };
  const setAccess = async (body: Record<string, unknown>) => {
    const r = await (await asAdmin()).put('/api/v1/status-page/access', body, { host });
    expect(r.status, r.text).toBe(200);
    return r.body;
  };
  const anon = () => t.client();

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true, env: { TRUST_PROXY: 'true' } });
    const acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `acme${kind}` });
    const other = await seedCompany(t.services, { name: 'Other Co', subdomain: `other${kind}` });
    sub = acme.subdomain;
    host = `${sub}.localhost`;
    otherHost = `${other.subdomain}.localhost`;
    monitorId = (await seedMonitor(t.services.db, acme.id, clock, { name: 'Zebra API', url: 'https://zebra.example.com/' })).id;
    await seedMonitor(t.services.db, other.id, clock, { name: 'Other thing' });
    incidentId = await seedIncident(t.services.db, acme.id, clock, { title: 'Kraken outage', monitorId, startedAt: NOW - 2 * HOUR });
    users.admin = await seedUser(t.services, { userType: 2, companyId: acme.id });
    users.viewer = await seedUser(t.services, { userType: 3, companyId: acme.id });
    users.otherAdmin = await seedUser(t.services, { userType: 2, companyId: other.id });
    users.root = await seedUser(t.services, { userType: 1 });
    companyId = acme.id;
    documents = [
      '/',
      '/history',
      '/history?month=2026-11',
      '/uptime',
      '/uptime?months=12',
      `/incidents/${incidentId}`,
      '/subscribe',
      '/public-status',
      '/history.rss',
      '/history.atom',
      '/feed.rss',
      '/feed.atom',
      '/badges/status.svg',
      '/badges/status.json',
      `/badges/${monitorId}/uptime-24h.svg`,
      `/badges/${monitorId}/response-time.json`,
      '/api/v2/summary.json',
      '/api/v2/status.json',
      '/api/v2/components.json',
      '/api/v2/incidents.json',
      '/api/v2/incidents/unresolved.json',
      '/api/v2/scheduled-maintenances.json',
      '/api/v2/scheduled-maintenances/upcoming.json',
      '/api/v2/scheduled-maintenances/active.json',
      `/api/v1/public/public-status/${sub}`,
      // the same documents spelled the ways a router may still read them
      `/incidents/${incidentId}/`,
      ...ALIASES,
    ];
  });
  afterAll(() => t?.close());

  /** Every document as one visitor sees it: status, the words that leaked, caching headers. */
  const visit = async (client: ApiClient, headers: Record<string, string> = {}, on = host) => {
    const out: Record<string, { status: number; leaks: string[]; cache: string | null; cors: string | null; vary: string | null }> = {};
    for (const p of documents) {
      const r = await client.get(p, { host: on, headers });
      out[p] = {
        status: r.status,
        leaks: leaks(r.text),
        cache: r.headers.get('cache-control'),
        cors: r.headers.get('access-control-allow-origin'),
        vary: r.headers.get('vary'),
      };
    }
    return out;
  };
  const expectRefused = (seen: Awaited<ReturnType<typeof visit>>, status: number) => {
    for (const [p, r] of Object.entries(seen)) {
      expect({ p, status: r.status, leaks: r.leaks, cors: r.cors }).toEqual({ p, status, leaks: [], cors: null });
      expect(r.cache, p).toContain('no-store');
      expect(r.cache, p).not.toContain('public');
    }
  };
  const expectServedPrivately = (seen: Awaited<ReturnType<typeof visit>>) => {
    for (const [p, r] of Object.entries(seen)) {
      if (!ALIASES.has(p)) expect(r.status, p).toBeLessThan(400);
      expect({ p, cache: r.cache, cors: r.cors }).toEqual({ p, cache: 'private, no-store', cors: null });
      expect(r.vary, p).toContain('Cookie');
    }
  };

  it('classifies every route and page the server has: each public document passes the access check', () => {
    const notDocuments = new Set([
      'GET /livez',
      'GET /readyz',
      'GET /share/:token',
      // the Prometheus scrape: the operator's token, or a company API token on a company host
      'GET /metrics',
      'POST /access',
      'POST /unsubscribe/:token',
      'GET /auth/handoff',
      'GET /landing/index.html',
      'POST /v1/traces',
      'OPTIONS /v1/traces',
    ]);
    const served = (t.app as unknown as { servedRoutes: Array<{ method: string; url: string }> }).servedRoutes
      // the API (its own auth) and SCIM (a company's SCIM token) are not documents of the page
      .filter((r) => r.method !== 'HEAD' && (!r.url.startsWith('/api/v1/') || r.url.startsWith('/api/v1/public/')))
      .filter((r) => !r.url.startsWith('/scim/v2/'))
      .map((r) => `${r.method} ${r.url}`);
    const unclassified = served.filter((r) => {
      if (notDocuments.has(r) || r.startsWith('GET /_astro') || r.startsWith('GET /*')) return false;
      const url = r
        .split(' ')[1]
        .replace(/:[a-zA-Z]+/g, 'x')
        .replace('*', 'x');
      return documentKind(url) === null;
    });
    expect(unclassified).toEqual([]);
    const pages = readdirSync(path.resolve('src/pages'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.astro'))
      .map(
        (f) =>
          '/' +
          f
            .replace(/\\/g, '/')
            .replace(/\.astro$/, '')
            .replace(/(^|\/)index$/, '')
            .replace(/\[\.\.\.[a-z]+\]|\[[a-z]+\]/g, 'x'),
      );
    const notDocumentPages = new Set([
      '/x',
      '/ack/x',
      '/landing',
      '/setup',
      '/unsubscribe/x',
      '/subscribe/confirm/x',
      '/subscribe/confirmed',
    ]);
    expect(pages.filter((p) => documentKind(p) === null && !notDocumentPages.has(p))).toEqual([]);
  });

  it('a public page (the default) serves every document to everyone, with CDN headers', async () => {
    const seen = await visit(anon());
    for (const [p, r] of Object.entries(seen)) {
      if (ALIASES.has(p)) continue;
      expect(r.status, p).toBeLessThan(400);
      if (p !== '/public-status' && p !== '/subscribe') expect(r.leaks.length, p).toBeGreaterThan(0);
    }
    expect(seen['/'].cache).toContain('s-maxage');
    expect(seen['/api/v2/summary.json'].cors).toBe('*');
  });

  it('password mode: every document refuses an anonymous visitor (401, no data), even with a validator of the public copy', async () => {
    const before = await anon().get('/api/v2/summary.json', { host });
    const etag = before.headers.get('etag')!;
    const page = await anon().get('/', { host });
    const pageEtag = page.headers.get('etag')!;
    const access = await setAccess({ mode: 'password', password: 'open sesame 1' });
    expect(access).toMatchObject({ mode: 'password', has_password: true });
    expect(JSON.stringify(access)).not.toContain('sesame');
    expectRefused(await visit(anon()), 401);
    // A 304 would confirm that the visitor's copy is still the page: it never is.
    const cond = await anon().get('/api/v2/summary.json', { host, headers: { 'if-none-match': etag } });
    expect(cond.status).toBe(401);
    const condPage = await anon().get('/', { host, headers: { 'if-none-match': pageEtag, 'accept-encoding': 'br' } });
    expect(condPage.status).toBe(401);
    // The HTML pages show the password form; the data documents a bare problem.
    const html = await anon().get('/history', { host });
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.text).toContain('name="password"');
    expect(html.text).toContain('action="/access"');
    const json = await anon().get('/api/v2/status.json', { host });
    expect(json.headers.get('content-type')).toContain('application/problem+json');
    // the subscribe call and form refuse too
    const call = await anon().post(`/api/v1/public/subscribers/${sub}`, { email: 'x@example.com' }, { host });
    expect(call.status).toBe(401);
    const form = await anon().request('POST', '/subscribe', {
      host,
      raw: 'email=x%40example.com',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status).toBe(401);
    expect(leaks(form.text)).toEqual([]);
  });

  const typePassword = (client: ApiClient, password: string, ip = '192.0.2.10', next = '/history') =>
    client.request('POST', '/access', {
      host,
      raw: new URLSearchParams({ password, next }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
    });

  it('password mode: the right password sets a signed cookie and then serves every document privately', async () => {
    const visitor = anon();
    const wrong = await typePassword(visitor, 'not it');
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('not correct');
    const right = await typePassword(visitor, 'open sesame 1');
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/history');
    const cookie = right.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookie).toMatch(/Max-Age=43200/);
    expectServedPrivately(await visit(visitor));
    const page = await visitor.get('/', { host });
    expect(page.text).toContain('Zebra API');
    // The cookie is for this company only: another host ignores it, a changed byte breaks it.
    const value = visitor.jar.get(host)!.get('sw_page')!;
    const forged = anon();
    forged.setCookie(host, 'sw_page', value.slice(0, -2) + (value.endsWith('A') ? 'BB' : 'AA'));
    expect((await forged.get('/', { host })).status).toBe(401);
    // A next= that leaves the host is not followed.
    const away = await typePassword(anon(), 'open sesame 1', '192.0.2.11', '//evil.example/');
    expect(away.headers.get('location')).toBe('/');
    // A new password voids every cookie of the old one.
    await setAccess({ mode: 'password', password: 'open sesame 2' });
    expect((await visitor.get('/', { host })).status).toBe(401);
  });

  it('password mode: wrong passwords are throttled per address (429 with Retry-After, even for the right one next)', async () => {
    const visitor = anon();
    for (let i = 0; i < 5; i++) expect((await typePassword(visitor, `guess ${i}`, '198.51.100.77')).status).toBe(401);
    const blocked = await typePassword(visitor, 'open sesame 2', '198.51.100.77');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.headers.get('set-cookie')).toBeNull();
    // another address is not held back
    expect((await typePassword(anon(), 'open sesame 2', '198.51.100.78')).status).toBe(303);
    clock += 16 * 60_000;
    expect((await typePassword(visitor, 'open sesame 2', '198.51.100.77')).status).toBe(303);
  });

  it("users mode: a session of the company's user on its host is let in; another company's user and anonymous visitors are not", async () => {
    await setAccess({ mode: 'users' });
    const refused = await anon().get('/uptime', { host });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('href="/login"');
    // no single sign-on configured: no "Sign in with SSO" that could only fail
    expect(refused.text).not.toContain('/api/v1/auth/sso/start');
    expectRefused(await visit(anon()), 401);
    const viewer = t.client();
    await signIn(viewer, users.viewer, host);
    expectServedPrivately(await visit(viewer));
    const stranger = t.client();
    await signIn(stranger, users.otherAdmin, otherHost);
    const carried = t.client();
    carried.jar.set(host, new Map(stranger.jar.get(otherHost)));
    expectRefused(await visit(carried), 401);
    // The old password cookie is no credential in this mode.
    const holder = anon();
    await setAccess({ mode: 'password' });
    expect((await typePassword(holder, 'open sesame 2', '192.0.2.30')).status).toBe(303);
    await setAccess({ mode: 'users' });
    expect((await holder.get('/', { host })).status).toBe(401);
  });

  it('IP allow-list: addresses in the ranges (IPv4 and IPv6, as the proxy reports them) are served; others get 403', async () => {
    const r = await setAccess({ mode: 'ip_allowlist', ip_allowlist: ['203.0.113.9/24', '2001:db8::/32', '203.0.113.0/24'] });
    expect(r.ip_allowlist).toEqual(['203.0.113.0/24', '2001:db8::/32']);
    expectServedPrivately(await visit(anon(), { 'x-forwarded-for': '203.0.113.200' }));
    expectServedPrivately(await visit(anon(), { 'x-forwarded-for': '2001:db8:1::5' }));
    expectRefused(await visit(anon(), { 'x-forwarded-for': '198.51.100.1' }), 403);
    expectRefused(await visit(anon(), { 'x-forwarded-for': '2001:db9::1' }), 403);
    // the loopback address the test connects from is not in the list either
    expect((await anon().get('/', { host })).status).toBe(403);
    const bad = await (await asAdmin()).put(
      '/api/v1/status-page/access',
      { mode: 'ip_allowlist', ip_allowlist: ['10.0.0.0/33'] },
      { host },
    );
    expect(bad.status).toBe(400);
    const empty = await (await asAdmin()).put('/api/v1/status-page/access', { mode: 'ip_allowlist', ip_allowlist: [] }, { host });
    expect(empty.status).toBe(400);
  });

  it("share links: a valid link lets one viewer in; expired, revoked, forged or another host's are refused; all audited", async () => {
    await setAccess({ mode: 'password' });
    const created = await (await asAdmin()).post('/api/v1/status-page/share-links', { expires_in_hours: 2, label: 'Auditor' }, { host });
    expect(created.status, created.text).toBe(201);
    const url = new URL(created.body.url);
    expect(url.hostname).toBe(host);
    const sharePath = url.pathname;
    const viewer = anon();
    const opened = await viewer.get(sharePath, { host });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe('/');
    expectServedPrivately(await visit(viewer));
    // forged: one character of the signature changed
    const token = sharePath.split('/').pop()!;
    const forgedToken = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    const forged = anon();
    expect((await forged.get(`/share/${forgedToken}`, { host })).status).toBe(401);
    forged.setCookie(host, 'sw_share', forgedToken);
    expect((await forged.get('/', { host })).status).toBe(401);
    // the link on another company's host does nothing there
    const elsewhere = anon();
    expect((await elsewhere.get(`/share/${token}`, { host: otherHost })).status).toBe(401);
    // expired
    clock += 3 * HOUR;
    expect((await viewer.get('/', { host })).status).toBe(401);
    expect((await anon().get(sharePath, { host })).status).toBe(401);
    // revoked
    const second = await (await asAdmin()).post('/api/v1/status-page/share-links', { expires_in_hours: 720 }, { host });
    const holder = anon();
    expect((await holder.get(new URL(second.body.url).pathname, { host })).status).toBe(303);
    expect((await holder.get('/api/v2/summary.json', { host })).status).toBe(200);
    const revoked = await (await asAdmin()).post(`/api/v1/status-page/share-links/${second.body.id}/revoke`, undefined, { host });
    expect(revoked.body.state).toBe('revoked');
    expect((await holder.get('/api/v2/summary.json', { host })).status).toBe(401);
    const list = await (await asAdmin()).get('/api/v1/status-page/share-links', { host });
    expect(list.body.items.map((l: { state: string }) => l.state)).toEqual(['revoked', 'expired']);
    expect(JSON.stringify(list.body)).not.toContain('/share/');
    const audit = await t.services.db.k.selectFrom('audit_events').selectAll().where('event', '=', 'settings_update').execute();
    const details = audit.map((a) => JSON.stringify(a.details));
    expect(details.filter((d) => d.includes('status_page_share_link')).length).toBe(3);
    expect(details.some((d) => d.includes('status_page_access'))).toBe(true);
  });

  it('while the database cannot be read, a private page stays refused and a company never looked up is 503, never served unchecked', async () => {
    await setAccess({ mode: 'password' });
    expect((await anon().get('/', { host })).status).toBe(401);
    const third = await seedCompany(t.services, { name: 'Third Co', subdomain: `third${kind}` });
    await t.services.db.k
      .insertInto('status_page_access')
      .values({ company_id: third.id, mode: 'password', password_hash: 'x', ip_allowlist: '[]', updated_at: clock })
      .execute();
    await sql`alter table companies rename to companies_away`.execute(t.services.db.k);
    try {
      clock += 10_000;
      await new Promise((r) => setTimeout(r, 5_100)); // past this process's memory of the rule
      const refused = await anon().get('/api/v2/summary.json', { host });
      expect(refused.status).toBe(401);
      expect(leaks(refused.text)).toEqual([]);
      const unknown = await anon().get('/api/v2/summary.json', { host: `${third.subdomain}.localhost` });
      expect(unknown.status).toBe(503);
      expect(unknown.text).not.toContain('Third Co');
    } finally {
      await sql`alter table companies_away rename to companies`.execute(t.services.db.k);
    }
  });

  it('rights: viewers read the rule but cannot change it or make links; another company cannot revoke; the login page list is refused too', async () => {
    const viewer = t.client();
    await signIn(viewer, users.viewer, host);
    const settings = await viewer.get('/api/v1/status-page/settings', { host });
    expect(settings.body.access.mode).toBe('password');
    expect((await viewer.put('/api/v1/status-page/access', { mode: 'public' }, { host })).status).toBe(403);
    expect((await viewer.post('/api/v1/status-page/share-links', { expires_in_hours: 1 }, { host })).status).toBe(403);
    const links = await (await asAdmin()).get('/api/v1/status-page/share-links', { host });
    const stranger = t.client();
    await signIn(stranger, users.otherAdmin, otherHost);
    const r = await stranger.post(`/api/v1/status-page/share-links/${links.body.items[0].id}/revoke`, undefined, { host: otherHost });
    expect(r.status).toBe(404);
    expect((await (await asAdmin()).post('/api/v1/status-page/share-links', { expires_in_hours: 721 }, { host })).status).toBe(400);
    // The branded login's list (the public-status call) says nothing of a private page, from any host.
    const fromMain = await anon().get(`/api/v1/public/public-status/${sub}`);
    expect(fromMain.status).toBe(401);
    expect(leaks(fromMain.text)).toEqual([]);
    // a super admin sets any company's rule, naming it
    const root = t.client();
    await signIn(root, users.root);
    const chosen = await root.put(`/api/v1/status-page/access?tenant=${companyId}`, { mode: 'users' });
    expect(chosen.status, chosen.text).toBe(200);
    expect((await root.put('/api/v1/status-page/access', { mode: 'users' })).status).toBe(400);
    // back to public: the CDN headers return
    await setAccess({ mode: 'public' });
    const open = await anon().get('/api/v2/summary.json', { host });
    expect(open.status).toBe(200);
    expect(open.headers.get('cache-control')).toContain('public');
  });
});

describe.each(DB_KINDS)('IP allow-list without TRUST_PROXY on %s', (kind) => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('reads the connection address, so a forged X-Forwarded-For opens nothing', async () => {
    t = await startTestApp({ db: kind, withPages: false });
    const acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `acmeip${kind}` });
    await seedMonitor(t.services.db, acme.id, t.services.now(), { name: 'Zebra API' });
    const host = `${acme.subdomain}.localhost`;
    const admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), host);
    const set = (ranges: string[]) => admin.put('/api/v1/status-page/access', { mode: 'ip_allowlist', ip_allowlist: ranges }, { host });
    expect((await set(['203.0.113.0/24'])).status).toBe(200);
    const forged = await t.client().get('/api/v2/summary.json', { host, headers: { 'x-forwarded-for': '203.0.113.5' } });
    expect(forged.status).toBe(403);
    expect(leaks(forged.text)).toEqual([]);
    // the test connects from 127.0.0.1 (IPv4 loopback); ::1 alone does not cover it
    expect((await set(['::1'])).status).toBe(200);
    expect((await t.client().get('/api/v2/summary.json', { host })).status).toBe(403);
    expect((await set(['127.0.0.0/8'])).status).toBe(200);
    const allowed = await t.client().get('/api/v2/summary.json', { host });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain('Zebra API');
    expect(allowed.headers.get('cache-control')).toBe('private, no-store');
  });
});
