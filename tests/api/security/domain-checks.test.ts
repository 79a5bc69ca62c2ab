// Domains and DNS against loopback fixtures on both databases: a DNS server serving the zones
// (SPF within and over the lookup limit, +all, DMARC, DKIM, MTA-STS, no DNSSEC and a signed
// zone, dangling CNAMEs, records that change between runs), an RDAP server answering
// registration data, an HTTPS host serving an MTA-STS policy. Each finding, value and warning is
// asserted as the user sees it through the API and the notifications; nothing is asked about an
// unverified domain; a company never sees another's domains.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { securityAssetsRepo } from '../../../src/server/db/repositories/security-assets-repo.ts';
import { JOBS } from '../../../src/server/jobs/registry.ts';
import { createJobRunner } from '../../../src/server/jobs/runner.ts';
import { startDnsZoneServer, type DnsZoneServer } from '../../fixtures/targets/dns-zone-server.ts';
import { rdapDomain, startMtaStsHost, startRdapServer, type PolicyHost, type RdapServer } from '../../fixtures/targets/rdap-server.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

let dns: DnsZoneServer;
let rdap: RdapServer;
let policyHost: PolicyHost;

/** The zones as the first run sees them */
function serveZones() {
  dns.zone.clear();
  dns.validated.clear();
  dns.asked.length = 0;
  rdap.asked.length = 0;
  // acme.test: SPF through two includes (4 lookups), DMARC p=none, two DKIM selectors, MTA-STS testing, no DS
  dns.set('acme.test', [
    { type: 'NS', value: 'ns1.dnshost.test' },
    { type: 'NS', value: 'ns2.dnshost.test' },
    { type: 'A', value: '192.0.2.10' },
    { type: 'AAAA', value: '2001:db8::10' },
    { type: 'MX', value: '10 mx1.acme.test' },
    { type: 'TXT', value: 'v=spf1 include:_spf.mailer.test -all' },
    { type: 'TXT', value: 'site-verification=abc' },
    { type: 'CAA', value: '0 issue "letsencrypt.org"' },
  ]);
  dns.set('_spf.mailer.test', [{ type: 'TXT', value: 'v=spf1 ip4:198.51.100.0/24 include:_spf2.mailer.test ~all' }]);
  dns.set('_spf2.mailer.test', [{ type: 'TXT', value: 'v=spf1 a mx -all' }]);
  dns.set('_dmarc.acme.test', [{ type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:dmarc@acme.test; pct=50' }]);
  dns.set('s1._domainkey.acme.test', [{ type: 'TXT', value: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' }]);
  dns.set('old._domainkey.acme.test', [{ type: 'TXT', value: 'v=DKIM1; p=' }]);
  dns.set('_mta-sts.acme.test', [{ type: 'TXT', value: 'v=STSv1; id=20261101T000000' }]);
  dns.set('mta-sts.acme.test', [{ type: 'A', value: '127.0.0.1' }]);
  dns.set('www.acme.test', [{ type: 'CNAME', value: 'acme.test' }]);
  dns.set('shop.acme.test', [{ type: 'CNAME', value: 'shops.gone-cdn.test' }]);
  dns.set('blog.acme.test', [{ type: 'CNAME', value: 'acme-blog.old-host.test' }]);
  // bulk.test: SPF of 14 lookups ending in +all, DMARC reject, signed and validated
  dns.set('bulk.test', [
    { type: 'NS', value: 'ns1.dnshost.test' },
    { type: 'TXT', value: 'v=spf1 a mx include:s1.spf.test include:s2.spf.test include:s3.spf.test +all' },
    { type: 'DS', value: '12345 13 2 3e2c6b5f1a' },
  ]);
  for (const s of ['s1', 's2', 's3']) dns.set(`${s}.spf.test`, [{ type: 'TXT', value: `v=spf1 a mx exists:${s}.x.test -all` }]);
  dns.set('_dmarc.bulk.test', [{ type: 'TXT', value: 'v=DMARC1; p=reject' }]);
  dns.validated.add('bulk.test');
  // bare.test: nothing but an address
  dns.set('bare.test', [{ type: 'A', value: '192.0.2.30' }]);
  // open.test: never verified, never asked about
  dns.set('open.test', [{ type: 'A', value: '192.0.2.40' }]);

  rdap.domains.clear();
  rdap.domains.set(
    'acme.test',
    rdapDomain({
      name: 'acme.test',
      registrar: 'Example Registrar, Inc.',
      registered: '2015-03-02T10:00:00Z',
      expires: iso(NOW + 20 * DAY + 3_600_000),
      nameservers: ['ns1.dnshost.test', 'ns2.dnshost.test'],
    }),
  );
  rdap.domains.set(
    'bare.test',
    rdapDomain({
      name: 'bare.test',
      registrar: 'Bare Names Ltd',
      registered: '2020-01-01T00:00:00Z',
      expires: iso(NOW - DAY),
      nameservers: [],
    }),
  );
  policyHost.policy = 'version: STSv1\nmode: testing\nmx: mx1.acme.test\nmax_age: 86400\n';
}

beforeAll(async () => {
  dns = await startDnsZoneServer();
  rdap = await startRdapServer();
  policyHost = await startMtaStsHost('mta-sts.acme.test');
});
afterAll(async () => {
  await dns?.close();
  await rdap?.close();
  await policyHost?.close();
});

describe.each(DB_KINDS)('domain checks on %s', (kind) => {
  let t: TestApp;
  let clock = NOW;
  afterEach(async () => t?.close());

  async function setUp(env: Record<string, string> = {}) {
    clock = NOW;
    serveZones();
    t = await startTestApp({
      db: kind,
      now: () => clock,
      env: { DNS_RESOLVERS: dns.server, RDAP_BASE_URLS: `test=${rdap.url}`, ALLOW_PRIVATE_TARGETS: 'true', ...env },
    });
    t.services.monitoring = { ...t.services.monitoring, extraCa: [policyHost.caPem] };
    t.services.securityDomains = { mtaStsPort: policyHost.port };
    const a = await seedCompany(t.services);
    const b = await seedCompany(t.services);
    const admin = await seedUser(t.services, { userType: 2, companyId: a.id });
    const viewer = await seedUser(t.services, { userType: 3, companyId: a.id });
    const otherAdmin = await seedUser(t.services, { userType: 2, companyId: b.id });
    const superAdmin = await seedUser(t.services, { userType: 1 });
    const assets = securityAssetsRepo(t.services.db);
    const asset = async (id: string, company: string, hostname: string, kindOf: 'domain' | 'host', verified: boolean) => {
      await assets.insert({
        id,
        company_id: company,
        hostname,
        kind: kindOf,
        verification_token: `tok-${id}`,
        verification_method: null,
        verified_at: null,
        last_verification_at: null,
        last_verification_error: null,
        created_at: NOW - DAY,
        updated_at: NOW - DAY,
      });
      if (verified) {
        await assets.markVerified(id, 'dns', NOW - DAY);
        // the proof stays published: the daily re-verification (its own job) keeps them verified
        dns.set(`_statuswatch.${hostname}`, [{ type: 'TXT', value: `statuswatch-verification=tok-${id}` }]);
      }
      // control proven just now: the first re-verification is a day away
      await t.services.db.k.updateTable('security_assets').set({ last_verification_at: NOW }).where('id', '=', id).execute();
    };
    await asset('d-acme', a.id, 'acme.test', 'domain', true);
    await asset('h-www', a.id, 'www.acme.test', 'host', true);
    await asset('h-shop', a.id, 'shop.acme.test', 'host', true);
    await asset('d-bulk', a.id, 'bulk.test', 'domain', true);
    await asset('d-bare', b.id, 'bare.test', 'domain', true);
    await asset('d-open', a.id, 'open.test', 'domain', false);
    const host = (c: { subdomain: string }) => `${c.subdomain}.${t.config.productDomain}`;
    const client = async (user: { email: string; password: string }, on: string) => {
      const c = new ApiClient(t.baseUrl, on);
      await signIn(c, user);
      return c;
    };
    /** Signs the company admin in again (after the clock moved past the session's life) */
    const adminAgain = () => client(admin, host(a));
    return {
      a,
      b,
      adminAgain,
      admin: await client(admin, host(a)),
      viewer: await client(viewer, host(a)),
      other: await client(otherAdmin, host(b)),
      root: await client(superAdmin, t.config.productDomain),
    };
  }

  // the domain checks alone: the TLS analyses and re-verification of the same assets have their own tests
  const runJobs = () =>
    createJobRunner(t.services, { log: () => undefined, jobs: JOBS.filter((j) => j.name === 'domain-checks') }).runDue();
  const findingsOf = (d: { findings: Array<Record<string, unknown>> }) =>
    d.findings
      .map(({ key, severity, title, evidence, status }) => ({ key, severity, title, evidence, status }))
      .sort((x, y) => String(x.key).localeCompare(String(y.key)));
  const notifications = async (companyId: string) =>
    (
      await t.services.db.k
        .selectFrom('notifications')
        .innerJoin('users', 'users.id', 'notifications.user_id')
        .select([
          'notifications.title',
          'notifications.message',
          'notifications.severity',
          'notifications.type',
          'notifications.created_at',
        ])
        .where('notifications.company_id', '=', companyId)
        .where('users.user_type', '=', 2)
        .orderBy('notifications.created_at')
        .orderBy('notifications.title')
        .execute()
    ).map(({ title, message, severity, type }) => ({ title, message, severity, type }));
  const get = async (c: ApiClient, id: string) => {
    const r = await c.get(`/api/v1/security/domains/${id}`);
    expect(r.status).toBe(200);
    return r.body;
  };

  it('checks registration, records, e-mail authentication, DNSSEC and CNAMEs of verified domains, and only those', async () => {
    const { a, b, admin, other } = await setUp();
    expect(
      (
        await admin.put('/api/v1/security/domains/d-acme/settings', {
          dkim_selectors: ['s1', 'old', 'Gone'],
          watched_names: ['blog.acme.test'],
        })
      ).status,
    ).toBe(200);
    await runJobs();

    const acme = await get(admin, 'd-acme');
    expect(acme.result).toEqual({
      checked_at: iso(NOW),
      registration_expires_at: iso(NOW + 20 * DAY + 3_600_000),
      registrar: 'Example Registrar, Inc.',
      registered_at: '2015-03-02T10:00:00.000Z',
      registration_status: ['client transfer prohibited'],
      registry_nameservers: ['ns1.dnshost.test', 'ns2.dnshost.test'],
      rdap_error: null,
      records: [
        { type: 'NS', values: ['ns1.dnshost.test', 'ns2.dnshost.test'], changed_at: null },
        { type: 'A', values: ['192.0.2.10'], changed_at: null },
        { type: 'AAAA', values: ['2001:db8::10'], changed_at: null },
        { type: 'MX', values: ['10 mx1.acme.test'], changed_at: null },
        { type: 'TXT', values: ['site-verification=abc', 'v=spf1 include:_spf.mailer.test -all'], changed_at: null },
        { type: 'CAA', values: ['0 issue "letsencrypt.org"'], changed_at: null },
      ],
      last_changes: null,
      spf: {
        record: 'v=spf1 include:_spf.mailer.test -all',
        count: 1,
        all: '-',
        lookups: 4,
        mechanisms: ['include:_spf.mailer.test', '-all'],
        broken: [],
      },
      dmarc: {
        record: 'v=DMARC1; p=none; rua=mailto:dmarc@acme.test; pct=50',
        policy: 'none',
        subdomain_policy: null,
        pct: 50,
        rua: ['mailto:dmarc@acme.test'],
      },
      dkim: [
        { selector: 'gone', status: 'missing', key_type: null },
        { selector: 'old', status: 'revoked', key_type: null },
        { selector: 's1', status: 'present', key_type: 'rsa' },
      ],
      mta_sts: { id: '20261101T000000', mode: 'testing', error: null },
      dnssec: { status: 'unsigned', validated: false },
      cnames: [
        { name: 'blog.acme.test', target: 'acme-blog.old-host.test', dangling: true },
        { name: 'shop.acme.test', target: 'shops.gone-cdn.test', dangling: true },
        { name: 'www.acme.test', target: 'acme.test', dangling: false },
      ],
    });
    expect(findingsOf(acme)).toEqual([
      {
        key: 'cname.dangling.blog.acme.test',
        severity: 'high',
        title: 'blog.acme.test points at a name that does not exist (subdomain takeover risk)',
        evidence: 'blog.acme.test CNAME acme-blog.old-host.test; acme-blog.old-host.test answers NXDOMAIN',
        status: 'open',
      },
      {
        key: 'cname.dangling.shop.acme.test',
        severity: 'high',
        title: 'shop.acme.test points at a name that does not exist (subdomain takeover risk)',
        evidence: 'shop.acme.test CNAME shops.gone-cdn.test; shops.gone-cdn.test answers NXDOMAIN',
        status: 'open',
      },
      {
        key: 'dkim.gone.missing',
        severity: 'medium',
        title: 'No DKIM key for selector gone',
        evidence: 'No TXT record with p= at gone._domainkey.acme.test',
        status: 'open',
      },
      {
        key: 'dkim.old.revoked',
        severity: 'low',
        title: 'The DKIM key of selector old is revoked (empty p=)',
        evidence: 'p= is empty at old._domainkey.acme.test',
        status: 'open',
      },
      {
        key: 'dmarc.policy_none',
        severity: 'low',
        title: 'The DMARC policy of acme.test does not act on failing mail (p=none)',
        evidence: 'v=DMARC1; p=none; rua=mailto:dmarc@acme.test; pct=50',
        status: 'open',
      },
      {
        key: 'dnssec.unsigned',
        severity: 'low',
        title: 'acme.test is not signed with DNSSEC',
        evidence: 'No DS record for acme.test in its parent zone',
        status: 'open',
      },
      {
        key: 'mta_sts.not_enforced',
        severity: 'low',
        title: 'The MTA-STS policy of acme.test is not enforced (mode testing)',
        evidence: 'mode: testing',
        status: 'open',
      },
      {
        key: 'registration.expiring',
        severity: 'medium',
        title: 'The registration of acme.test expires in 20 days',
        evidence: `RDAP expiration ${iso(NOW + 20 * DAY).slice(0, 10)}`,
        status: 'open',
      },
    ]);

    const bulk = await get(admin, 'd-bulk');
    expect(bulk.result).toMatchObject({
      registration_expires_at: null,
      registrar: null,
      rdap_error: 'The registry has no registration data for this domain (RDAP 404)',
      spf: { all: '+', lookups: 14, count: 1, broken: [] },
      dmarc: { policy: 'reject' },
      dnssec: { status: 'signed', validated: true },
      mta_sts: null,
      cnames: [],
    });
    expect(findingsOf(bulk)).toEqual([
      {
        key: 'spf.pass_all',
        severity: 'high',
        title: 'The SPF record of bulk.test lets any server send as it (+all)',
        evidence: 'v=spf1 a mx include:s1.spf.test include:s2.spf.test include:s3.spf.test +all',
        status: 'open',
      },
      {
        key: 'spf.too_many_lookups',
        severity: 'medium',
        title: 'The SPF record of bulk.test needs 14 DNS lookups (the limit is 10)',
        evidence: 'v=spf1 a mx include:s1.spf.test include:s2.spf.test include:s3.spf.test +all',
        status: 'open',
      },
    ]);

    // The other company's domain: expired registration, no SPF, no DMARC
    const bare = (await other.get('/api/v1/security/domains/d-bare')).body;
    expect(bare.result.registrar).toBe('Bare Names Ltd');
    expect(findingsOf(bare).map((f) => `${f.key} ${f.severity} ${f.title}`)).toEqual([
      'dmarc.missing medium bare.test has no DMARC record',
      'dnssec.unsigned low bare.test is not signed with DNSSEC',
      'registration.expired critical The registration of bare.test has expired',
      'spf.missing medium bare.test has no SPF record',
    ]);

    // Nothing was asked about the unverified domain, of DNS or of RDAP
    expect(dns.asked.filter((q) => q.endsWith('open.test'))).toEqual([]);
    expect(rdap.asked.filter((p) => p.includes('open.test'))).toEqual([]);
    const open = await get(admin, 'd-open');
    expect(open).toMatchObject({ verified: false, result: null, findings: [] });

    // The security overview's contract: data.registration_expires_at (ms) and data.registrar
    const row = await t.services.db.k
      .selectFrom('security_results')
      .select('data')
      .where('asset_id', '=', 'd-acme')
      .where('source', '=', 'dns')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.data)).toMatchObject({
      registration_expires_at: NOW + 20 * DAY + 3_600_000,
      registrar: 'Example Registrar, Inc.',
    });

    expect(await notifications(a.id)).toEqual([
      {
        title: '2 new DNS problems on bulk.test',
        message:
          'The SPF record of bulk.test lets any server send as it (+all)\nThe SPF record of bulk.test needs 14 DNS lookups (the limit is 10)',
        severity: 'high',
        type: 'dns_warning',
      },
      {
        title: '7 new DNS problems on acme.test',
        message: [
          'The DMARC policy of acme.test does not act on failing mail (p=none)',
          'No DKIM key for selector gone',
          'The DKIM key of selector old is revoked (empty p=)',
          'The MTA-STS policy of acme.test is not enforced (mode testing)',
          'acme.test is not signed with DNSSEC',
          'blog.acme.test points at a name that does not exist (subdomain takeover risk)',
          'shop.acme.test points at a name that does not exist (subdomain takeover risk)',
        ].join('\n'),
        severity: 'high',
        type: 'dns_warning',
      },
      {
        title: 'The registration of acme.test expires in 20 days',
        message: `Registrar: Example Registrar, Inc.. Expiry date (RDAP): ${iso(NOW + 20 * DAY).slice(0, 10)}.`,
        severity: 'medium',
        type: 'dns_warning',
      },
    ]);
    expect((await notifications(b.id)).map((n) => `${n.severity} ${n.title}`)).toEqual([
      'medium 3 new DNS problems on bare.test',
      'critical The registration of bare.test has expired',
    ]);
  });

  it('reports record changes, fixed problems and each expiry threshold once', async () => {
    const { a, adminAgain } = await setUp();
    await runJobs();
    const before = await notifications(a.id);

    // A week later: MX and A changed, the shop CNAME points at a name that exists again
    clock = NOW + 7 * DAY;
    dns.set('acme.test', [
      ...(dns.zone.get('acme.test') ?? []).filter((r) => r.type !== 'MX' && r.type !== 'A'),
      { type: 'MX', value: '20 mx2.acme.test' },
      { type: 'A', value: '192.0.2.11' },
    ]);
    dns.set('shop.acme.test', [{ type: 'CNAME', value: 'acme.test' }]);
    await runJobs();
    const admin = await adminAgain();
    const acme = await get(admin, 'd-acme');
    const records = Object.fromEntries(
      acme.result.records.map((r: { type: string; values: string[]; changed_at: string | null }) => [r.type, r]),
    );
    expect(records.MX).toEqual({ type: 'MX', values: ['20 mx2.acme.test'], changed_at: iso(NOW + 7 * DAY) });
    expect(records.A).toEqual({ type: 'A', values: ['192.0.2.11'], changed_at: iso(NOW + 7 * DAY) });
    expect(records.NS.changed_at).toBeNull();
    expect(acme.result.last_changes).toEqual({
      at: iso(NOW + 7 * DAY),
      changes: [
        { type: 'A', added: ['192.0.2.11'], removed: ['192.0.2.10'] },
        { type: 'MX', added: ['20 mx2.acme.test'], removed: ['10 mx1.acme.test'] },
      ],
    });
    expect(acme.findings.map((f: { key: string }) => f.key)).not.toContain('cname.dangling.shop.acme.test');
    const fixed = await t.services.db.k
      .selectFrom('security_findings')
      .select(['status'])
      .where('key', '=', 'cname.dangling.shop.acme.test')
      .executeTakeFirstOrThrow();
    expect(fixed.status).toBe('fixed');
    expect(acme.findings.find((f: { key: string }) => f.key === 'registration.expiring').title).toBe(
      'The registration of acme.test expires in 13 days',
    );

    const after = (await notifications(a.id)).slice(before.length);
    expect(after).toEqual([
      {
        title: 'DNS records of acme.test changed',
        message: 'A: added 192.0.2.11; removed 192.0.2.10\nMX: added 20 mx2.acme.test; removed 10 mx1.acme.test',
        severity: 'medium',
        type: 'dns_warning',
      },
      {
        title: 'The registration of acme.test expires in 13 days',
        message: `Registrar: Example Registrar, Inc.. Expiry date (RDAP): ${iso(NOW + 20 * DAY).slice(0, 10)}.`,
        severity: 'medium',
        type: 'dns_warning',
      },
    ]);

    // The same day again (an admin's check): nothing new, nothing repeated
    clock = NOW + 7 * DAY + 120_000;
    expect((await admin.post('/api/v1/security/domains/d-acme/check')).status).toBe(200);
    expect((await notifications(a.id)).length).toBe(before.length + 2);
    // A check within the minute is refused
    const again = await admin.post('/api/v1/security/domains/d-acme/check');
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('60');
  });

  it('keeps each company to its own domains and lets viewers only read', async () => {
    const { admin, viewer, other, root } = await setUp();
    await runJobs();
    expect((await viewer.get('/api/v1/security/domains')).body.domains.map((d: { hostname: string }) => d.hostname)).toEqual([
      'acme.test',
      'bulk.test',
      'open.test',
    ]);
    expect((await viewer.put('/api/v1/security/domains/d-acme/settings', { dkim_selectors: ['s1'], watched_names: [] })).status).toBe(403);
    expect((await viewer.post('/api/v1/security/domains/d-acme/check')).status).toBe(403);
    expect((await other.get('/api/v1/security/domains')).body.domains.map((d: { hostname: string }) => d.hostname)).toEqual(['bare.test']);
    expect((await other.get('/api/v1/security/domains/d-acme')).status).toBe(404);
    expect((await other.put('/api/v1/security/domains/d-acme/settings', { dkim_selectors: [], watched_names: [] })).status).toBe(404);
    expect((await root.get('/api/v1/security/domains')).body.domains.map((d: { hostname: string }) => d.hostname)).toEqual([
      'acme.test',
      'bare.test',
      'bulk.test',
      'open.test',
    ]);

    const unverified = await admin.post('/api/v1/security/domains/d-open/check');
    expect(unverified.status).toBe(409);
    expect(unverified.body.detail).toBe('open.test is not verified: nothing is checked until its company proves control of it.');
    const outside = await admin.put('/api/v1/security/domains/d-acme/settings', {
      dkim_selectors: [],
      watched_names: ['shop.example.com'],
    });
    expect(outside.status).toBe(400);
    expect(outside.body.detail).toBe('shop.example.com is not a name under acme.test');
    const badSelector = await admin.put('/api/v1/security/domains/d-acme/settings', {
      dkim_selectors: ['bad selector'],
      watched_names: [],
    });
    expect(badSelector.status).toBe(400);
  });

  it('never asks about an internal zone while private targets are closed', async () => {
    const { a } = await setUp({ ALLOW_PRIVATE_TARGETS: 'false' });
    const assets = securityAssetsRepo(t.services.db);
    await assets.insert({
      id: 'd-intra',
      company_id: a.id,
      hostname: 'intra.internal',
      kind: 'domain',
      verification_token: 'tok-intra',
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: NOW,
      updated_at: NOW,
    });
    await assets.markVerified('d-intra', 'dns', NOW);
    await runJobs();
    expect(dns.asked.filter((q) => q.endsWith('intra.internal'))).toEqual([]);
    expect(dns.asked).toContain('NS acme.test');
    expect(await t.services.db.k.selectFrom('security_results').select('asset_id').where('asset_id', '=', 'd-intra').execute()).toEqual([]);
  });

  it('answers 404 and checks nothing while ENABLE_DOMAIN_CHECKS is off', async () => {
    const { admin } = await setUp({ FLAG_ENABLE_DOMAIN_CHECKS: 'false' });
    await runJobs();
    expect(dns.asked).toEqual([]);
    const r = await admin.get('/api/v1/security/domains');
    expect(r.status).toBe(404);
    expect(r.body.detail).toBe('Domain checks are not available.');
  });
});
