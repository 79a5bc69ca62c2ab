// Custom domains on SQLite and PostgreSQL (issue 17 item 5): a company adds status.<its domain>,
// creates the TXT and CNAME records in its zone (a loopback DNS server the platform asks through
// DNS_RESOLVERS), verifies, and from then on — not before — the name serves its public documents
// exactly as its subdomain does, and nothing else: no console, no sign-in, no /api/v1, no cookie.
// The daily re-check unverifies a domain whose TXT record went away; the TLS proxy's ask call
// answers 200 for verified names only; one company's name never shows another's page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startDnsZone, type DnsZone } from '../../fixtures/targets/dns-zone.ts';
import { customDomains } from '../../../src/server/jobs/custom-domains.ts';
import { customDomainsRepo } from '../../../src/server/db/repositories/custom-domains-repo.ts';
import { HOUR, seedIncident, seedMonitor } from './fixtures.ts';

const NOW = Date.UTC(2026, 10, 24, 13, 5);

describe.each(DB_KINDS)('custom domains on %s', (kind) => {
  let t: TestApp;
  let zone: DnsZone;
  let clock = NOW;
  let admin: ApiClient;
  let viewer: ApiClient;
  let root: ApiClient;
  let otherAdmin: ApiClient;
  let acme: { id: string; subdomain: string };
  let other: { id: string; subdomain: string };
  let adminId: string;
  let incidentId: string;
  const DOMAIN = `status.acme-${kind}.example`;
  const OTHER_DOMAIN = `status.other-${kind}.example`;
  const SQUATTED = `status.squatted-${kind}.example`;
  let otherAdminUser: { email: string; password: string };

  /** What a visitor of `host` gets (no contract check: most answers here are deliberately 404). */
  const visit = (host: string, path: string, method = 'GET', headers: Record<string, string> = {}, body?: string) =>
    rawRequest(`${t.baseUrl}${path}`, method, { host: `${host}:${t.port}`, ...headers }, body);

  const publicPaths = () => [
    '/',
    '/history',
    '/uptime',
    `/incidents/${incidentId}`,
    '/history.rss',
    '/history.atom',
    '/feed.rss',
    '/feed.atom',
    '/badges/status.svg',
    '/api/v2/status.json',
    '/api/v2/summary.json',
    '/api/v2/components.json',
    '/api/v2/incidents.json',
  ];

  beforeAll(async () => {
    zone = await startDnsZone();
    t = await startTestApp({ db: kind, now: () => clock, withPages: true, env: { DNS_RESOLVERS: zone.server } });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `acme${kind}` });
    other = await seedCompany(t.services, { name: 'Other Co', subdomain: `other${kind}` });
    const api = await seedMonitor(t.services.db, acme.id, clock, { name: 'Acme Checkout API' });
    await seedMonitor(t.services.db, other.id, clock, { name: 'Other Ledger' });
    incidentId = await seedIncident(t.services.db, acme.id, clock, {
      monitorId: api.id,
      title: 'Checkout errors',
      status: 'resolved',
      startedAt: clock - 5 * HOUR,
      resolvedAt: clock - 4 * HOUR,
    });
    // Company users work on their company's host, the super admin on the main one.
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.localhost`);
    viewer = new ApiClient(t.baseUrl, `${acme.subdomain}.localhost`);
    root = t.client();
    otherAdmin = new ApiClient(t.baseUrl, `${other.subdomain}.localhost`);
    const adminUser = await seedUser(t.services, { userType: 2, companyId: acme.id });
    adminId = adminUser.id;
    await signIn(admin, adminUser);
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(root, await seedUser(t.services, { userType: 1 }));
    otherAdminUser = await seedUser(t.services, { userType: 2, companyId: other.id });
    await signIn(otherAdmin, otherAdminUser);
  });
  afterAll(async () => {
    await t?.close();
    await zone?.close();
  });

  it('takes only names the company can own, once across companies, with the records to create', async () => {
    for (const bad of ['acme.localhost', 'localhost', '10.0.0.1', 'nodots', 'bad_label.example.com', `x.${t.config.productDomain}`]) {
      const r = await admin.post('/api/v1/custom-domains', { domain: bad });
      expect(r.status, `${bad} ${r.text}`).toBe(400);
    }
    const r = await admin.post('/api/v1/custom-domains', { domain: ` ${DOMAIN.toUpperCase()}. ` });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ domain: DOMAIN, state: 'pending', verified_at: null, company_id: acme.id });
    const [cname, txt] = r.body.records;
    expect(cname).toEqual({ type: 'CNAME', name: DOMAIN, value: `${acme.subdomain}.localhost` });
    expect(txt.type).toBe('TXT');
    expect(txt.name).toBe(`_statuswatch-challenge.${DOMAIN}`);
    expect(txt.value).toMatch(/^sw-verify-[\w-]{24}$/);

    expect((await otherAdmin.post('/api/v1/custom-domains', { domain: DOMAIN })).status).toBe(409);
    expect((await viewer.post('/api/v1/custom-domains', { domain: `www.acme-${kind}.example` })).status).toBe(403);
    // The records carry the proof token: company settings, which viewers do not see.
    expect((await viewer.get('/api/v1/custom-domains')).status).toBe(403);
    expect((await admin.get('/api/v1/custom-domains')).body.items.map((d: { domain: string }) => d.domain)).toEqual([DOMAIN]);
    expect((await otherAdmin.get('/api/v1/custom-domains')).body.items).toEqual([]);
    // Another company's domain by id is not found, for reading, verifying and removing alike.
    expect((await otherAdmin.post(`/api/v1/custom-domains/${r.body.id}/verify`)).status).toBe(404);
    // Company admins may not delete (role table); the super admin may, for the chosen company.
    expect((await admin.delete(`/api/v1/custom-domains/${r.body.id}`)).status).toBe(403);
    // A name someone else's company added first is held for it (for a day, unless it proves control).
    expect((await admin.post('/api/v1/custom-domains', { domain: SQUATTED })).status).toBe(201);
    expect((await otherAdmin.post('/api/v1/custom-domains', { domain: SQUATTED })).status).toBe(409);
  });

  it('answers 404 on every public path before verification, and the proxy may not get a certificate', async () => {
    for (const path of publicPaths()) {
      const r = await visit(DOMAIN, path);
      expect(r.status, path).toBe(404);
      expect(r.text).not.toContain('Acme');
      expect(r.headers.get('set-cookie'), path).toBeNull();
    }
    expect((await t.client().get(`/api/v1/custom-domains/ask?domain=${DOMAIN}`)).status).toBe(404);
  });

  it('stays unverified while a record is missing or wrong, saying which', async () => {
    const [mine] = (await admin.get('/api/v1/custom-domains')).body.items;
    // Clients that send a JSON content type on every call, with no body, are answered alike.
    let r = await admin.post(`/api/v1/custom-domains/${mine.id}/verify`, undefined, { headers: { 'content-type': 'application/json' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.state).toBe('failed');
    expect(r.body.last_error).toContain(`_statuswatch-challenge.${DOMAIN}`);
    zone.txt.set(`_statuswatch-challenge.${DOMAIN}`, [mine.records[1].value]);
    zone.cname.set(DOMAIN, `${other.subdomain}.localhost`); // pointing at another company's host
    r = await admin.post(`/api/v1/custom-domains/${mine.id}/verify`);
    expect(r.body.state).toBe('failed');
    expect(r.body.last_error).toBe(
      `${DOMAIN} has no CNAME record pointing at ${acme.subdomain}.localhost (it points at ${other.subdomain}.localhost).`,
    );
    expect((await visit(DOMAIN, '/')).status).toBe(404);
    expect((await visit(DOMAIN, '/api/v2/summary.json')).status).toBe(404);
  });

  it('serves the company public documents exactly as its subdomain does once both records are right', async () => {
    const [mine] = (await admin.get('/api/v1/custom-domains')).body.items;
    zone.cname.set(DOMAIN, `${acme.subdomain}.localhost`);
    const r = await admin.post(`/api/v1/custom-domains/${mine.id}/verify`);
    expect(r.body).toMatchObject({ state: 'verified', last_error: null, verified_at: new Date(clock).toISOString() });
    for (const path of publicPaths()) {
      const own = await visit(`${acme.subdomain}.localhost`, path);
      const custom = await visit(DOMAIN, path);
      expect(own.status, path).toBe(200);
      expect(custom.status, path).toBe(200);
      expect(custom.headers.get('content-type'), path).toBe(own.headers.get('content-type'));
      expect(custom.text, path).toBe(own.text);
      expect(custom.headers.get('set-cookie'), path).toBeNull();
    }
    const page = await visit(DOMAIN, '/');
    expect(page.text).toContain('Acme Checkout API');
    expect(page.text).not.toContain('Other Ledger');
    expect((await visit(DOMAIN, `/incidents/${incidentId}`)).text).toContain('Checkout errors');
    // The subscribe form posts on the custom name as on the company host (same-origin there).
    const form = {
      origin: `http://${DOMAIN}:${t.port}`,
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': 'same-origin',
    };
    const subscribed = await visit(DOMAIN, '/subscribe', 'POST', form, 'email=reader%40example.com');
    expect(subscribed.status, subscribed.text.slice(0, 300)).toBe(200);
    expect(subscribed.text).toContain('reader@example.com');
    const forged = await visit(
      DOMAIN,
      '/subscribe',
      'POST',
      { ...form, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      'email=x%40example.com',
    );
    expect(forged.status).toBe(403);
    const ask = await t.client().get(`/api/v1/custom-domains/ask?domain=${DOMAIN}`);
    expect(ask.status).toBe(200);
    expect(ask.body).toEqual({ domain: DOMAIN });
    for (const name of [`${acme.subdomain}.localhost`, 'localhost', 'unknown.example', OTHER_DOMAIN]) {
      expect((await t.client().get(`/api/v1/custom-domains/ask?domain=${name}`)).status, name).toBe(404);
    }
  });

  it('is public-only: console, sign-in, /api/v1 and the handoff are 404 there and no cookie is set or read', async () => {
    const session = admin.cookieHeader(`${acme.subdomain}.localhost`);
    expect(session).not.toBe('');
    const credentials = JSON.stringify({ email: 'nobody@example.com', password: 'x' });
    for (const [method, path, body] of [
      ['GET', '/company-login'],
      ['GET', '/dashboard'],
      ['GET', '/monitors'],
      ['GET', '/monitors/status-page'],
      ['GET', '/signup'],
      ['GET', '/setup'],
      ['GET', '/public-status'],
      ['GET', '/auth/handoff?code=abc'],
      ['GET', '/api/v1/auth/me'],
      ['GET', '/api/v1/custom-domains'],
      ['GET', `/api/v1/public/public-status/${acme.subdomain}`],
      ['POST', '/api/v1/auth/login', credentials],
      ['POST', '/api/v1/auth/refresh-token', '{}'],
      ['DELETE', `/api/v1/custom-domains/x`],
    ] as const) {
      const r = await visit(
        DOMAIN,
        path,
        method,
        { cookie: session, authorization: 'Bearer x', origin: `http://${DOMAIN}:${t.port}`, 'content-type': 'application/json' },
        body,
      );
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.headers.get('set-cookie'), `${method} ${path}`).toBeNull();
      expect(r.text).not.toContain(adminId);
    }
    // The pages' Login link leads to the company's own host, where signing in happens.
    const login = await visit(DOMAIN, '/login', 'GET', { cookie: session });
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe(`http://${acme.subdomain}.localhost:${t.port}/login`);
    expect(login.headers.get('set-cookie')).toBeNull();
    // The page itself, visited with a session cookie, neither reads nor renews it.
    const page = await visit(DOMAIN, '/', 'GET', { cookie: session });
    expect(page.status).toBe(200);
    expect(page.headers.get('set-cookie')).toBeNull();
  });

  it('never serves one company\u2019s page on another company\u2019s domain', async () => {
    const added = await otherAdmin.post('/api/v1/custom-domains', { domain: OTHER_DOMAIN });
    zone.txt.set(`_statuswatch-challenge.${OTHER_DOMAIN}`, [added.body.records[1].value]);
    zone.cname.set(OTHER_DOMAIN, `${other.subdomain}.localhost`);
    expect((await otherAdmin.post(`/api/v1/custom-domains/${added.body.id}/verify`)).body.state).toBe('verified');
    for (const path of ['/', '/api/v2/summary.json', '/feed.atom']) {
      const theirs = await visit(OTHER_DOMAIN, path);
      expect(theirs.status).toBe(200);
      expect(theirs.text).toContain('Other');
      expect(theirs.text).not.toContain('Acme');
    }
    // Acme's incident is not found through the other company's name.
    expect((await visit(OTHER_DOMAIN, `/incidents/${incidentId}`)).status).toBe(404);
    // A super admin removes it (for the chosen company); it stops answering at once.
    expect((await root.delete(`/api/v1/custom-domains/${added.body.id}?tenant=${other.id}`)).status).toBe(204);
    expect((await visit(OTHER_DOMAIN, '/')).status).not.toBe(200);
  });

  it('the daily re-check unverifies a domain whose TXT record went away, tells the admins, and the name stops answering', async () => {
    const job = customDomains.run.bind(customDomains);
    clock += 2 * HOUR;
    await job(t.services, clock); // checked less than a day ago: not asked again
    // (hours later the sessions have expired: the rows are read as the job left them)
    const stored = () => customDomainsRepo(t.services.db).findByDomain(DOMAIN);
    expect((await stored())?.state).toBe('verified');
    zone.txt.delete(`_statuswatch-challenge.${DOMAIN}`);
    clock += 23 * HOUR;
    const before = zone.asked.length;
    await job(t.services, clock);
    expect(zone.asked.slice(before)).toContain(`TXT _statuswatch-challenge.${DOMAIN}`);
    const mine = await stored();
    expect(mine).toMatchObject({ state: 'failed', verified_at: NOW, checked_at: clock });
    expect(mine?.last_error).toContain('No TXT record');
    for (const path of publicPaths()) expect((await visit(DOMAIN, path)).status, path).toBe(404);
    expect((await t.client().get(`/api/v1/custom-domains/ask?domain=${DOMAIN}`)).status).toBe(404);
    const notes = await t.services.db.k
      .selectFrom('notifications')
      .select(['title', 'type', 'user_id'])
      .where('company_id', '=', acme.id)
      .where('type', '=', 'system')
      .execute();
    expect(notes).toEqual([{ title: `Custom domain ${DOMAIN} is no longer served`, type: 'system', user_id: adminId }]);

    // A name that was verified once stays with its company while it fails; a claim that never
    // proved control gives way a day after it was added.
    await signIn(otherAdmin, otherAdminUser);
    expect((await otherAdmin.post('/api/v1/custom-domains', { domain: DOMAIN })).status).toBe(409);
    const taken = await otherAdmin.post('/api/v1/custom-domains', { domain: SQUATTED });
    expect(taken.status).toBe(201);
    expect(taken.body.company_id).toBe(other.id);
    expect((await customDomainsRepo(t.services.db).list(acme.id)).map((d) => d.domain)).toEqual([DOMAIN]);
  });

  it('a DNS that does not answer proves nothing: the re-check keeps the name verified and says why it could not check', async () => {
    const row = (await customDomainsRepo(t.services.db).findByDomain(DOMAIN))!;
    zone.txt.set(`_statuswatch-challenge.${DOMAIN}`, [row.token]);
    await customDomainsRepo(t.services.db).markVerified(row.id, clock);
    zone.silent.add(DOMAIN);
    zone.silent.add(`_statuswatch-challenge.${DOMAIN}`);
    clock += 25 * HOUR;
    await customDomains.run(t.services, clock);
    const after = await customDomainsRepo(t.services.db).findByDomain(DOMAIN);
    // checked_at stays at the last real check, so the next hourly run asks again
    expect(after).toMatchObject({ state: 'verified', checked_at: clock - 25 * HOUR });
    expect(after?.last_error).toMatch(
      new RegExp(`^The DNS lookup of ${DOMAIN.replace(/\./g, '\\.')} failed \\(E[A-Z]+\\); try again later\\.$`),
    );
    expect((await visit(DOMAIN, '/')).status).toBe(200);
    zone.silent.clear();
  });
});
