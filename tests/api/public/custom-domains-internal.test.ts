// Custom domains refuse internal names (issue 25 item 18) the way DNS monitors and security
// assets do: .local, .internal, .corp, .lan, home.arpa, reverse zones of private ranges. Adding
// one is refused, and verifying one stored earlier fails, both before the platform's resolver
// (a loopback DNS server here, through DNS_RESOLVERS) is asked anything, with the same words
// whether the name exists in that DNS or not. A public name is still looked up and verified.
// Both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { startDnsZone, type DnsZone } from '../../fixtures/targets/dns-zone.ts';
import { customDomainsRepo } from '../../../src/server/db/repositories/custom-domains-repo.ts';
import { newId } from '../../../src/server/domain/ids.ts';

/** [a name the internal DNS holds, one it does not, the refusal both get] */
const INTERNAL: Array<[string, string, string]> = [
  ['status.acme.corp', 'status.ghost.corp', 'Enter a public domain: .corp is an internal zone.'],
  ['wiki.internal', 'ghost.internal', 'Enter a public domain: .internal is an internal zone.'],
  ['printer.local', 'ghost.local', 'Enter a public domain: .local is an internal zone.'],
  ['nas.lan', 'ghost.lan', 'Enter a public domain: .lan is an internal zone.'],
  ['router.home.arpa', 'ghost.home.arpa', 'Enter a public domain: .home.arpa is an internal zone.'],
  ['db.svc.cluster.local', 'ghost.svc.cluster.local', 'Enter a public domain: .local is an internal zone.'],
];
const REVERSE: Array<[string, string]> = [
  ['7.0.0.10.in-addr.arpa', 'Enter a public domain: 7.0.0.10.in-addr.arpa is the reverse zone of a non-public range.'],
  ['1.168.192.in-addr.arpa', 'Enter a public domain: 1.168.192.in-addr.arpa is the reverse zone of a non-public range.'],
];

describe.each(DB_KINDS)('internal names as custom domains on %s', (kind) => {
  let t: TestApp;
  let zone: DnsZone;
  let admin: ApiClient;
  let acme: { id: string; subdomain: string };

  beforeAll(async () => {
    zone = await startDnsZone();
    t = await startTestApp({ db: kind, env: { DNS_RESOLVERS: zone.server } });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: 'acme' });
    admin = new ApiClient(t.baseUrl, 'acme.localhost');
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    // the internal network's names, as its DNS would answer them
    for (const [existing] of INTERNAL) {
      zone.a.set(existing, ['10.0.0.7']);
      zone.cname.set(existing, 'acme.localhost');
    }
    zone.a.set('7.0.0.10.in-addr.arpa', ['10.0.0.7']);
  });
  afterAll(async () => {
    await t?.close();
    await zone?.close();
  });

  const asked = (name: string) => zone.asked.filter((q) => q.endsWith(` ${name}`) || q.endsWith(`.${name}`));

  it('refuses to add an internal name, in the same words whether it exists or not, asking the DNS nothing', async () => {
    for (const [existing, missing, text] of INTERNAL) {
      const a = await admin.post('/api/v1/custom-domains', { domain: existing });
      const b = await admin.post('/api/v1/custom-domains', { domain: missing });
      expect(a.status, `${existing}: ${a.text}`).toBe(400);
      expect(a.body.errors).toEqual({ domain: text });
      expect(b.status).toBe(400);
      expect(b.body).toEqual(a.body);
    }
    for (const [name, text] of REVERSE) {
      const r = await admin.post('/api/v1/custom-domains', { domain: `${name}.` });
      expect(r.status, r.text).toBe(400);
      expect(r.body.errors).toEqual({ domain: text });
    }
    for (const [existing, missing] of INTERNAL) expect([...asked(existing), ...asked(missing)]).toEqual([]);
    expect(zone.asked.filter((q) => q.includes('in-addr.arpa'))).toEqual([]);
    expect((await admin.get('/api/v1/custom-domains')).body.items).toEqual([]);
  });

  it('fails the verification of an internal name stored earlier without asking the DNS, the same for a name that exists or not', async () => {
    const stored = async (domain: string) => {
      const id = newId();
      await customDomainsRepo(t.services.db).insert({
        id,
        company_id: acme.id,
        domain,
        token: `sw-verify-${id.slice(0, 24)}`,
        state: 'pending',
        verified_at: null,
        checked_at: null,
        last_error: null,
        created_at: Date.now(),
        updated_at: Date.now(),
      });
      return id;
    };
    const existing = await stored('status.acme.corp');
    const missing = await stored('status.ghost.corp');
    const a = await admin.post(`/api/v1/custom-domains/${existing}/verify`);
    const b = await admin.post(`/api/v1/custom-domains/${missing}/verify`);
    expect(a.status, a.text).toBe(200);
    expect(a.body).toMatchObject({ state: 'failed', verified_at: null, last_error: 'Enter a public domain: .corp is an internal zone.' });
    expect(b.body).toMatchObject({ state: 'failed', verified_at: null, last_error: a.body.last_error });
    expect([...asked('status.acme.corp'), ...asked('status.ghost.corp')]).toEqual([]);
  });

  it('still looks up and verifies a public name through the same DNS', async () => {
    const domain = `status.acme-${kind}.example`;
    const r = await admin.post('/api/v1/custom-domains', { domain });
    expect(r.status, r.text).toBe(201);
    zone.txt.set(`_statuswatch-challenge.${domain}`, [r.body.records[1].value]);
    zone.cname.set(domain, 'acme.localhost');
    const v = await admin.post(`/api/v1/custom-domains/${r.body.id}/verify`);
    expect(v.body).toMatchObject({ state: 'verified', last_error: null });
    expect(asked(domain).length).toBeGreaterThan(0);
  });
});
