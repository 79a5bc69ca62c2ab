// Threat intelligence end to end on both databases, against loopback servers only: a DNS
// blocklist zone (127.0.0.2 with a TXT reason) and a registry in one DNS server, feed files and a
// breach provider on a loopback HTTP server. A company's host listed by a blocklist and by a feed
// shows as listed with the reason; a host its checkout service called that a feed lists names the
// service; a lookalike registered between two runs raises one security_report; a company without
// threat_feed_enabled sees nothing and nothing is asked about it; companies never see each other.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { securityAssetsRepo } from '../../../src/server/db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../../src/server/db/repositories/security-findings-repo.ts';
import { flagsRepo } from '../../../src/server/db/repositories/flags-repo.ts';
import { threatFeeds } from '../../../src/server/jobs/threat-feeds.ts';
import { threatIntel } from '../../../src/server/jobs/threat-intel.ts';
import { SpanWriter } from '../../../src/server/telemetry/span-writer.ts';
import { startBlocklistDns, type BlocklistDns } from '../../fixtures/targets/dnsbl-server.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

const NOW = Date.UTC(2026, 5, 1, 12);
const HOUR = 3_600_000;

const URLHAUS = [
  '# URLhaus database dump',
  '# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter',
  '"1","2026-05-20 08:00:00","http://www.acme.test/inv.exe","online","","malware_download","exe","https://urlhaus.abuse.ch/url/1/","r"',
  '"2","2026-05-21 09:00:00","http://unrelated.example/x","online","","malware_download","","https://urlhaus.abuse.ch/url/2/","r"',
].join('\n');
const PLAIN = ['# botnet C2', 'evil.example', '198.51.100.0/24', '203.0.113.5'].join('\n');

interface Fakes {
  dns: BlocklistDns;
  http: http.Server;
  base: string;
  breachAsks: Array<{ url: string; auth: string | undefined }>;
}

async function startFakes(): Promise<Fakes> {
  const dns = await startBlocklistDns();
  const breachAsks: Fakes['breachAsks'] = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/urlhaus.csv') return res.end(URLHAUS);
    if (req.url === '/c2.txt') return res.end(PLAIN);
    if (req.url?.startsWith('/breaches')) {
      breachAsks.push({ url: req.url, auth: req.headers.authorization });
      res.setHeader('content-type', 'application/json');
      return res.end(
        JSON.stringify({ breaches: [{ name: 'ShopLeak', date: '2025-04-01', accounts: 1200, data_classes: ['email', 'password'] }] }),
      );
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { dns, http: server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, breachAsks };
}

describe.each(DB_KINDS)('threat intelligence on %s', (kind) => {
  let fakes: Fakes;
  let app: TestApp;
  let clock = NOW;
  const ids: Record<string, string> = {};
  const users: Record<string, { email: string; password: string; id: string; host?: string }> = {};

  beforeAll(async () => {
    fakes = await startFakes();
    app = await startTestApp({
      db: kind,
      now: () => clock,
      env: {
        DNS_RESOLVERS: `127.0.0.1:${fakes.dns.port}`,
        THREAT_DNSBL_ZONES: 'bl.test:ip,dbl.test:domain',
        THREAT_FEEDS: JSON.stringify([
          { name: 'URLhaus', url: `${fakes.base}/urlhaus.csv`, format: 'abusech-csv' },
          { name: 'C2 list', url: `${fakes.base}/c2.txt`, format: 'plain', threat: 'botnet C2' },
        ]),
        BREACH_LOOKUP_URL: `${fakes.base}/breaches`,
        BREACH_LOOKUP_KEY: 'provider-key',
        THREAT_LOOKALIKE_CHECKS_PER_RUN: '1000',
        THREAT_LOOKALIKE_QUERIES_PER_SECOND: '1000',
      },
    });
    const s = app.services;
    const k = s.db.k;
    for (const name of ['acme', 'beta', 'gamma']) ids[name] = (await seedCompany(s, { subdomain: name })).id;
    await k.updateTable('companies').set({ threat_feed_enabled: true }).where('id', 'in', [ids.acme, ids.beta]).execute();
    await k
      .updateTable('companies')
      .set({ services: '{"monitor":true,"security":true,"data_breach":true}' })
      .where('id', '=', ids.acme)
      .execute();
    // Company accounts work on their company's address.
    users.acmeAdmin = { ...(await seedUser(s, { userType: 2, companyId: ids.acme })), host: 'acme.localhost' };
    users.acmeViewer = { ...(await seedUser(s, { userType: 3, companyId: ids.acme })), host: 'acme.localhost' };
    users.gammaAdmin = { ...(await seedUser(s, { userType: 2, companyId: ids.gamma })), host: 'gamma.localhost' };
    users.superAdmin = await seedUser(s, { userType: 1 });

    const assets = securityAssetsRepo(s.db);
    const asset = async (id: string, company: string, hostname: string, assetKind: 'domain' | 'host', verified: boolean) => {
      await assets.insert({
        id,
        company_id: company,
        hostname,
        kind: assetKind,
        verification_token: `t-${id}`,
        verification_method: null,
        verified_at: null,
        last_verification_at: null,
        last_verification_error: null,
        created_at: NOW,
        updated_at: NOW,
      });
      if (verified) await assets.markVerified(id, 'dns', NOW);
    };
    await asset('acme-domain', ids.acme, 'acme.test', 'domain', true);
    await asset('acme-www', ids.acme, 'www.acme.test', 'host', true);
    await asset('acme-shop', ids.acme, 'shop.acme.test', 'host', false);
    await asset('beta-domain', ids.beta, 'beta.test', 'domain', true);
    await asset('gamma-domain', ids.gamma, 'gamma.test', 'domain', true);

    const dns = fakes.dns;
    dns.a.set('acme.test', ['192.0.2.20']);
    dns.a.set('www.acme.test', ['192.0.2.10']);
    dns.a.set('beta.test', ['192.0.2.30']);
    dns.a.set('gamma.test', ['192.0.2.40']);
    dns.a.set('10.2.0.192.bl.test', ['127.0.0.2']);
    dns.txt.set('10.2.0.192.bl.test', ['Listed for sending spam']);
    dns.a.set('gamma.test.dbl.test', ['127.0.0.2']);

    const writer = new SpanWriter(s.db);
    const span = (i: number, service: string, attributes: Record<string, string>, spanKind = 3) => ({
      trace_id: String(i).padStart(32, 'b'),
      span_id: String(i).padStart(16, '0'),
      parent_span_id: null,
      name: 'POST',
      service,
      kind: spanKind,
      start_us: (NOW - HOUR) * 1000,
      duration_ms: 10,
      status_code: 0,
      http_status: 200,
      is_error: false,
      is_request: false,
      error_message: null,
      attributes: JSON.stringify(attributes),
      events: '[]',
    });
    await writer.write(ids.acme, [
      span(1, 'checkout', { 'url.full': 'https://pay.evil.example/charge' }),
      span(2, 'checkout', { 'server.address': 'api.partner.example' }),
      span(3, 'frontend', { 'url.full': 'https://cdn.evil.example/x.js' }, 2), // a server span: not a call out
    ]);
    await writer.write(ids.beta, [span(4, 'billing', { 'net.peer.name': '198.51.100.7' })]);
    await writer.close();
  });

  afterAll(async () => {
    await app?.close();
    await fakes?.dns.close();
    await new Promise((r) => fakes?.http.close(r));
  });

  const runJobs = async () => {
    await threatFeeds.run(app.services, clock);
    await threatIntel.run(app.services, clock);
  };
  const viewAs = async (user: { email: string; password: string; host?: string }, query = '') => {
    const c = app.client();
    await signIn(c, user, user.host);
    return c.get(`/api/v1/security/threats${query}`, user.host ? { host: user.host } : {});
  };
  const securityReports = async (companyId: string) =>
    (
      await app.services.db.k
        .selectFrom('notifications')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('type', '=', 'security_report')
        .execute()
    ).map((n) => n.title);

  it('lists a host named by a blocklist and by a feed, with the reasons, and a trace peer naming the service', async () => {
    await runJobs();
    const r = await viewAs(users.acmeAdmin);
    expect(r.status).toBe(200);
    expect(r.body.enabled).toBe(true);
    expect(r.body.feeds).toEqual([
      { name: 'URLhaus', format: 'abusech-csv', threat: 'listed', indicators: 2, imported_at: clock, attempted_at: clock, error: null },
      { name: 'C2 list', format: 'plain', threat: 'botnet C2', indicators: 3, imported_at: clock, attempted_at: clock, error: null },
    ]);
    const byHost = Object.fromEntries(r.body.assets.map((a: any) => [a.hostname, a]));
    expect(Object.keys(byHost).sort()).toEqual(['acme.test', 'www.acme.test']); // shop.acme.test is not verified
    expect(byHost['www.acme.test']).toMatchObject({
      reputation: 'listed',
      addresses: ['192.0.2.10'],
      listings: ['bl.test: 192.0.2.10 127.0.0.2 (Listed for sending spam)', 'URLhaus: www.acme.test malware_download'],
    });
    expect(byHost['acme.test']).toMatchObject({ reputation: 'clean', listings: [], addresses: ['192.0.2.20'] });
    expect(r.body.trace_matches).toEqual([
      {
        company_id: ids.acme,
        service: 'checkout',
        host: 'pay.evil.example',
        indicator: 'evil.example',
        feed: 'C2 list',
        threat: 'botnet C2',
        tags: '',
        last_seen_at: NOW - HOUR,
      },
    ]);

    const stored = await securityFindingsRepo(app.services.db).listResults(ids.acme, 'threat');
    const data = JSON.parse(stored.find((x) => x.asset_id === 'acme-www')!.data);
    expect(data.reputation).toBe('listed');
    expect(data.listings).toHaveLength(2);
    const findings = await securityFindingsRepo(app.services.db).list({ companyId: ids.acme, source: 'threat' });
    expect(findings.map((f) => f.title).sort()).toEqual([
      '192.0.2.10 is listed on the blocklist bl.test',
      'www.acme.test is listed by URLhaus as malware_download',
    ]);
    expect(r.body.breach).toEqual({
      status: 'checked',
      domain: 'acme.example.com',
      checked_at: clock,
      breaches: [{ name: 'ShopLeak', date: '2025-04-01', accounts: 1200, data_classes: ['email', 'password'] }],
      error: null,
    });
    expect(fakes.breachAsks).toEqual([{ url: '/breaches?domain=acme.example.com', auth: 'Bearer provider-key' }]);
    const audit = await app.services.db.k
      .selectFrom('audit_events')
      .select(['event', 'tenant_id'])
      .where('event', '=', 'threat_intel_view')
      .execute();
    expect(audit).toContainEqual({ event: 'threat_intel_view', tenant_id: ids.acme });
  });

  it('raises one security_report for a lookalike registered between two runs', async () => {
    expect(await securityReports(ids.acme)).toEqual([]); // the first run only learnt which were registered
    fakes.dns.a.set('acrne.test', ['192.0.2.99']);
    clock += HOUR;
    await runJobs();
    expect(await securityReports(ids.acme)).toEqual(['Lookalike domain registered: acrne.test', 'Lookalike domain registered: acrne.test']); // admin and viewer
    clock += HOUR;
    await runJobs();
    expect(await securityReports(ids.acme)).toHaveLength(2); // still registered: no news
    const r = await viewAs(users.acmeViewer);
    expect(r.body.lookalikes.registered).toEqual([
      {
        company_id: ids.acme,
        domain: 'acme.test',
        candidate: 'acrne.test',
        technique: 'homoglyph',
        first_registered_at: NOW + HOUR,
        checked_at: clock,
      },
    ]);
    expect(r.body.lookalikes.candidates).toBeGreaterThan(50);
    expect(r.body.lookalikes.checked).toBe(r.body.lookalikes.candidates);
  });

  it('shows a company without threat_feed_enabled nothing, and asks nothing about it', async () => {
    const r = await viewAs(users.gammaAdmin);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      enabled: false,
      assets: [],
      trace_matches: [],
      lookalikes: { candidates: 0, checked: 0, registered: [] },
      breach: null,
    });
    expect(fakes.dns.asked.filter((q) => q.includes('gamma'))).toEqual([]);
    expect(await securityFindingsRepo(app.services.db).listResults(ids.gamma)).toEqual([]);
  });

  it('keeps each company to its own assets and peers; super admins choose', async () => {
    const acme = await viewAs(users.acmeAdmin, `?tenant=${ids.beta}`); // a company user's tenant is ignored
    expect(acme.body.assets.every((a: any) => a.company_id === ids.acme)).toBe(true);
    expect(acme.body.trace_matches.map((m: any) => m.host)).toEqual(['pay.evil.example']);
    const beta = await viewAs(users.superAdmin, `?tenant=${ids.beta}`);
    expect(beta.body.assets.map((a: any) => a.hostname)).toEqual(['beta.test']);
    expect(beta.body.trace_matches).toEqual([
      expect.objectContaining({ service: 'billing', host: '198.51.100.7', indicator: '198.51.100.0/24' }),
    ]);
    expect(beta.body.breach.status).toBe('disabled');
    const all = await viewAs(users.superAdmin);
    expect(all.body.assets.map((a: any) => a.hostname).sort()).toEqual(['acme.test', 'beta.test', 'www.acme.test']);
    expect(all.body.breach).toBeNull();
    expect((await viewAs(users.superAdmin, '?tenant=nope')).status).toBe(404);
  });

  it('answers 404 and runs nothing while ENABLE_THREAT_INTELLIGENCE is off', async () => {
    await flagsRepo(app.services.db).upsert('ENABLE_THREAT_INTELLIGENCE', false, clock, users.superAdmin.id);
    const asked = fakes.dns.asked.length;
    clock += HOUR;
    await runJobs();
    expect(fakes.dns.asked.length).toBe(asked);
    expect((await viewAs(users.acmeAdmin)).status).toBe(404);
    await flagsRepo(app.services.db).upsert('ENABLE_THREAT_INTELLIGENCE', true, clock, users.superAdmin.id);
  });
});
