// Monitors are not a way to ask the platform's resolver about the internal network: a name that
// resolves to a blocked address and a name that does not resolve get the same answer, at
// creation (both accepted: names are judged when checked) and in check results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Resolver } from 'node:dns/promises';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import type { Resolver as GuardResolver } from '../../../src/server/net/ssrf.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { startDnsServer, type DnsTarget } from '../../fixtures/targets/dns-targets.ts';

describe('one answer for "not allowed" and "not found"', () => {
  let t: TestApp;
  let dns: DnsTarget;
  let admin: ApiClient;

  beforeAll(async () => {
    dns = await startDnsServer({ answer: true });
    dns.records.set('db.corp-example.test', ['10.0.0.5']);
    dns.records.set('meta.corp-example.test', ['169.254.169.254']);
    dns.missing.add('nope.corp-example.test');
    t = await startTestApp({ db: 'sqlite', env: { ALLOW_PRIVATE_TARGETS: 'false', MIN_CHECK_INTERVAL_SECONDS: '1' } });
    const r = new Resolver({ timeout: 1000, tries: 1 });
    r.setServers([`127.0.0.1:${dns.port}`]);
    const resolve: GuardResolver = async (h) => (await r.resolve4(h)).map((address) => ({ address, family: 4 }));
    t.services.monitoring = { resolve };
    const company = await seedCompany(t.services, { plan: 'enterprise' });
    const user = await seedUser(t.services, { userType: 2, companyId: company.id });
    admin = new ApiClient(t.baseUrl, `${company.subdomain}.${t.config.productDomain}`);
    await signIn(admin, user);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });

  it('answers the same for an internal name, a metadata name and a name that does not exist', async () => {
    const hosts = ['db.corp-example.test', 'meta.corp-example.test', 'nope.corp-example.test'];
    const created = [];
    for (const host of hosts) {
      const http = await admin.post('/api/v1/monitors', {
        name: `http ${host}`,
        type: 'http',
        url: `http://${host}/`,
        interval_seconds: 60,
        timeout_seconds: 2,
        confirmations: 1,
        is_public: false,
      });
      const tcp = await admin.post('/api/v1/monitors', {
        name: `tcp ${host}`,
        type: 'tcp',
        host,
        port: 5432,
        interval_seconds: 60,
        timeout_seconds: 2,
        confirmations: 1,
        is_public: false,
      });
      created.push(http, tcp);
    }
    expect(created.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);

    await createEngine(t.services).runDueNow();
    const errors = new Set<string>();
    for (const r of created) {
      const m = await admin.get(`/api/v1/monitors/${r.body.id}`);
      expect(m.body.status).toBe('down');
      errors.add(m.body.last_error);
    }
    expect([...errors]).toEqual(['Target refused: the host is not allowed or could not be resolved']);
  });

  it('still names the kind of a blocked address typed in as a literal (nothing to discover there)', async () => {
    const r = await admin.post('/api/v1/monitors', {
      name: 'literal',
      type: 'tcp',
      host: '10.0.0.5',
      port: 5432,
      interval_seconds: 60,
      is_public: false,
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toBe('Target refused: 10.0.0.5 is a private address');
  });
});
