// SSL/TLS monitoring over HTTP, on both databases, against loopback TLS servers: a company sees
// its verified host assets and uncovered https monitors with grade, expiry and problems; company
// admins analyse now (once a minute), viewers only read; another company's target is 404; super
// admins see every company's; ENABLE_SSL_MONITORING off closes the calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flagsRepo } from '../../../src/server/db/repositories/flags-repo.ts';
import { newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { securityAssetsRepo } from '../../../src/server/db/repositories/security-assets-repo.ts';
import { startTlsTargets, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)('SSL/TLS monitoring API on %s', (kind) => {
  let t: TestApp;
  let tls: TlsTargets;
  const clock = Date.now();
  let admin: ApiClient;
  let viewer: ApiClient;
  let otherAdmin: ApiClient;
  let root: ApiClient;
  let globexId = '';

  beforeAll(async () => {
    tls = await startTlsTargets();
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    t.services.monitoring = {
      ...t.services.monitoring,
      extraCa: [tls.caPem],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
      assetTlsPort: (h) => (h === 'localhost' ? tls.port.good : undefined),
    };
    const acme = await seedCompany(t.services);
    const globex = await seedCompany(t.services);
    globexId = globex.id;
    const assets = securityAssetsRepo(t.services.db);
    const asset = (id: string, company: string, hostname: string) => ({
      id,
      company_id: company,
      hostname,
      kind: 'host' as const,
      verification_token: `tok-${id}`,
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: clock,
      updated_at: clock,
    });
    await assets.insert(asset('acme-www', acme.id, 'localhost'));
    await assets.markVerified('acme-www', 'file', clock, ['127.0.0.1']);
    await assets.insert(asset('acme-unverified', acme.id, 'unverified.localhost'));
    const monitor = (id: string, company: string, name: string, type: 'ssl' | 'http', config: object) =>
      t.services.db.k
        .insertInto('monitors')
        .values(
          newMonitorRow({
            id,
            company_id: company,
            name,
            type,
            config: JSON.stringify(config),
            is_public: false,
            interval_seconds: 60,
            timeout_seconds: 10,
            confirmations: 1,
            next_due_at: clock + 86_400_000,
            created_at: clock,
          }),
        )
        .execute();
    await monitor('acme-shop', acme.id, 'Shop', 'http', { url: `https://127.0.0.1:${tls.port.weak}/` });
    await monitor('globex-api', globex.id, 'Globex API', 'ssl', { host: 'localhost', port: tls.port.expired });
    const host = (c: { subdomain: string }) => `${c.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host(acme));
    viewer = new ApiClient(t.baseUrl, host(acme));
    otherAdmin = new ApiClient(t.baseUrl, host(globex));
    root = new ApiClient(t.baseUrl, t.config.productDomain);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(otherAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }));
    await signIn(root, await seedUser(t.services, { userType: 1 }));
  });
  afterAll(async () => {
    await t?.close();
    await tls?.close();
  });

  it('lists the verified asset and the uncovered https monitor, never the unverified asset', async () => {
    const r = await admin.get('/api/v1/security/ssl');
    expect(r.status).toBe(200);
    expect(r.body.items.map((i: { id: string; kind: string; grade: null }) => [i.id, i.kind, i.grade])).toEqual([
      ['acme-www', 'asset', null],
      ['acme-shop', 'monitor', null],
    ]);
  });

  it('company admins analyse now; the result shows grade, expiry, key, protocols and problems', async () => {
    const www = await admin.post('/api/v1/security/ssl/acme-www/check');
    expect(www.status).toBe(200);
    expect(www.body).toMatchObject({ id: 'acme-www', host: 'localhost', grade: 'A+', problems: [] });
    expect(www.body.days_left).toBeGreaterThanOrEqual(198);
    expect(www.body.analysis).toMatchObject({ key_type: 'EC', key_bits: 256, protocols: ['TLSv1.2', 'TLSv1.3'], trusted: true });
    const shop = await admin.post('/api/v1/security/ssl/acme-shop/check');
    expect(shop.body.grade).toBe('C');
    expect(shop.body.problems.map((p: { key: string }) => p.key).sort()).toEqual([
      'tls.cert.weak_signature',
      'tls.cipher.cbc_sha1',
      'tls.cipher.rsa_kx',
      'tls.key.weak',
      'tls.protocol.no_tls1_3',
      'tls.protocol.tls1_0',
      'tls.protocol.tls1_1',
    ]);
    // Worst first.
    expect((await admin.get('/api/v1/security/ssl')).body.items.map((i: { id: string }) => i.id)).toEqual(['acme-shop', 'acme-www']);
    // Again within the minute: 429.
    expect((await admin.post('/api/v1/security/ssl/acme-www/check')).status).toBe(429);
  });

  it('viewers read but cannot analyse; another company gets 404; unverified assets are no target', async () => {
    expect((await viewer.get('/api/v1/security/ssl/acme-www')).body.grade).toBe('A+');
    expect((await viewer.post('/api/v1/security/ssl/acme-www/check')).status).toBe(403);
    expect((await otherAdmin.get('/api/v1/security/ssl/acme-www')).status).toBe(404);
    expect((await otherAdmin.post('/api/v1/security/ssl/acme-www/check')).status).toBe(404);
    expect((await admin.post('/api/v1/security/ssl/acme-unverified/check')).status).toBe(404);
    expect((await otherAdmin.get('/api/v1/security/ssl')).body.items.map((i: { id: string }) => i.id)).toEqual(['globex-api']);
  });

  it('super admins see every company and may analyse; an expired certificate is T', async () => {
    const all = await root.get('/api/v1/security/ssl');
    expect(all.body.items.map((i: { id: string }) => i.id).sort()).toEqual(['acme-shop', 'acme-www', 'globex-api']);
    expect((await root.get(`/api/v1/security/ssl?tenant=${globexId}`)).body.items.map((i: { id: string }) => i.id)).toEqual(['globex-api']);
    const r = await root.post('/api/v1/security/ssl/globex-api/check');
    expect(r.body).toMatchObject({ grade: 'T', analysis: { grade_if_trusted: 'A', trust_error: 'CERT_HAS_EXPIRED' } });
    expect(r.body.days_left).toBeLessThan(0);
    expect(r.body.problems.map((p: { key: string }) => p.key)).toEqual(['tls.cert.expired', 'tls.cipher.cbc_sha1']);
  });

  it('ENABLE_SSL_MONITORING off closes the calls (403)', async () => {
    await flagsRepo(t.services.db).upsert('ENABLE_SSL_MONITORING', false, clock, 'test');
    expect((await admin.get('/api/v1/security/ssl')).status).toBe(403);
    await flagsRepo(t.services.db).upsert('ENABLE_SSL_MONITORING', true, clock, 'test');
    expect((await admin.get('/api/v1/security/ssl')).status).toBe(200);
  });
});
