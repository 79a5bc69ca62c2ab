// Domains and DNS in the console (issue 16, item 3): a company's verified domain, checked against
// loopback DNS, RDAP and MTA-STS fixtures (by the same check the daily job runs, on the server's
// database), shows its registrar and expiry, records, e-mail authentication, DNSSEC, a dangling
// CNAME and its findings. Company admins change the DKIM selectors; viewers only read; super
// admins see every company's domains.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { securityAssetsRepo } from '../../src/server/db/repositories/security-assets-repo.ts';
import { domainSettingsRepo } from '../../src/server/db/repositories/domain-settings-repo.ts';
import type { Services } from '../../src/server/domain/context.ts';
import { runDomainCheck } from '../../src/server/domain/security/domain-check-run.ts';
import { servicesOn } from '../support/alert-services.ts';
import { startDnsZoneServer, type DnsZoneServer } from '../fixtures/targets/dns-zone-server.ts';
import { rdapDomain, startMtaStsHost, startRdapServer, type PolicyHost, type RdapServer } from '../fixtures/targets/rdap-server.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  type SeededCompany,
  type SeededUser,
} from './console-fixtures.ts';

const DAY = 86_400_000;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-dns-'));
test.use({ serverEnv: { DATA_DIR: dataDir } });
const shot = shotsIn('console-domain-checks');

let dns: DnsZoneServer;
let rdap: RdapServer;
let policyHost: PolicyHost;
let checker: Services;
let acme: SeededCompany;
let other: SeededCompany;
let admin: SeededUser;
let viewer: SeededUser;

test.beforeAll(async () => {
  dns = await startDnsZoneServer();
  rdap = await startRdapServer();
  policyHost = await startMtaStsHost('mta-sts.acme-e2e.test');
  dns.set('acme-e2e.test', [
    { type: 'NS', value: 'ns1.dnshost.test' },
    { type: 'A', value: '192.0.2.10' },
    { type: 'MX', value: '10 mx1.acme-e2e.test' },
    { type: 'TXT', value: 'v=spf1 include:_spf.mailer.test -all' },
    { type: 'CAA', value: '0 issue "letsencrypt.org"' },
  ]);
  dns.set('_spf.mailer.test', [{ type: 'TXT', value: 'v=spf1 a mx -all' }]);
  dns.set('_dmarc.acme-e2e.test', [{ type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:dmarc@acme-e2e.test' }]);
  dns.set('s1._domainkey.acme-e2e.test', [{ type: 'TXT', value: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' }]);
  dns.set('_mta-sts.acme-e2e.test', [{ type: 'TXT', value: 'v=STSv1; id=1' }]);
  dns.set('mta-sts.acme-e2e.test', [{ type: 'A', value: '127.0.0.1' }]);
  dns.set('shop.acme-e2e.test', [{ type: 'CNAME', value: 'shops.gone-cdn.test' }]);
  dns.set('globex-e2e.test', [{ type: 'A', value: '192.0.2.20' }]);
  policyHost.policy = 'version: STSv1\nmode: enforce\nmx: mx1.acme-e2e.test\nmax_age: 86400\n';
  rdap.domains.set(
    'acme-e2e.test',
    rdapDomain({
      name: 'acme-e2e.test',
      registrar: 'Example Registrar, Inc.',
      registered: '2015-03-02T10:00:00Z',
      expires: new Date(Date.now() + 20 * DAY + 3_600_000).toISOString(),
      nameservers: ['ns1.dnshost.test'],
    }),
  );

  const api = await adminApi();
  acme = await seedCompany(api);
  other = await seedCompany(api);
  admin = await seedUser(api, 2, acme.id);
  viewer = await seedUser(api, 3, acme.id);

  // The check the daily job runs, on the server's database, asking the loopback fixtures.
  checker = await servicesOn({ file: path.join(dataDir, 'statuswatch.sqlite') }, undefined, {
    DNS_RESOLVERS: dns.server,
    RDAP_BASE_URLS: `test=${rdap.url}`,
  });
  checker.monitoring = { extraCa: [policyHost.caPem] };
  checker.securityDomains = { mtaStsPort: policyHost.port };
  const assets = securityAssetsRepo(checker.db);
  const add = async (id: string, company: string, hostname: string, kind: 'domain' | 'host') => {
    const now = Date.now();
    await assets.insert({
      id,
      company_id: company,
      hostname,
      kind,
      verification_token: `tok-${id}`,
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: now,
      updated_at: now,
    });
    await assets.markVerified(id, 'dns', now);
  };
  await add(`d-${acme.id}`, acme.id, 'acme-e2e.test', 'domain');
  await add(`h-${acme.id}`, acme.id, 'shop.acme-e2e.test', 'host');
  await add(`d-${other.id}`, other.id, 'globex-e2e.test', 'domain');
  await domainSettingsRepo(checker.db).put({
    asset_id: `d-${acme.id}`,
    company_id: acme.id,
    dkim_selectors: JSON.stringify(['s1']),
    watched_names: '[]',
    updated_at: Date.now(),
  });
  expect(await runDomainCheck(checker, `d-${acme.id}`)).toBe(true);
  expect(await runDomainCheck(checker, `d-${other.id}`)).toBe(true);
});

test.afterAll(async () => {
  await checker?.db.close();
  await dns?.close();
  await rdap?.close();
  await policyHost?.close();
});

test('a company admin reads registration, records, e-mail authentication and findings, and names DKIM selectors', async ({ page }) => {
  await signInUi(page, tenantUrl(acme.subdomain), admin);
  await page.goto(tenantUrl(acme.subdomain, '/domain-checks'));
  await expect(page.getByRole('heading', { name: 'Domains and DNS' })).toBeVisible();
  const card = page.getByRole('region', { name: 'acme-e2e.test' });
  await expect(card.getByText('Example Registrar, Inc.')).toBeVisible();
  await expect(card.getByText('20 days', { exact: true })).toBeVisible();
  await expect(card.getByRole('row', { name: /MX/ })).toContainText('10 mx1.acme-e2e.test');
  await expect(card.getByRole('row', { name: /CAA/ })).toContainText('0 issue "letsencrypt.org"');
  await expect(card.getByText('3 of 10 DNS lookups')).toBeVisible();
  await expect(card.getByText('p=none', { exact: true })).toBeVisible();
  await expect(card.getByText('mode enforce', { exact: true })).toBeVisible();
  await expect(card.getByText('unsigned', { exact: true })).toBeVisible();
  await expect(card.getByText('shop.acme-e2e.test → shops.gone-cdn.test')).toBeVisible();
  await expect(card.getByText('dangling (NXDOMAIN)', { exact: true })).toBeVisible();
  const findings = card.getByRole('list', { name: 'Findings' }).getByRole('listitem');
  await expect(findings).toHaveText([
    /high\s*shop\.acme-e2e\.test points at a name that does not exist \(subdomain takeover risk\)/,
    /medium\s*The registration of acme-e2e\.test expires in 20 days/,
    /low\s*The DMARC policy of acme-e2e\.test does not act on failing mail \(p=none\)/,
    /low\s*acme-e2e\.test is not signed with DNSSEC/,
  ]);
  await expect(page.getByText('globex-e2e.test')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-1280');

  await card.getByRole('button', { name: 'Settings of acme-e2e.test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Settings of acme-e2e.test' });
  await dialog.getByLabel('DKIM selectors').fill('s1\ngoogle');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Settings of acme-e2e.test saved. They apply from the next check.')).toBeVisible();
  await card.getByRole('button', { name: 'Settings of acme-e2e.test' }).click();
  await expect(page.getByRole('dialog').getByLabel('DKIM selectors')).toHaveValue('google\ns1');
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'admin-375');
});

test('a viewer reads the same without the buttons that change anything', async ({ page }) => {
  await signInUi(page, tenantUrl(acme.subdomain), viewer);
  await page.goto(tenantUrl(acme.subdomain, '/domain-checks'));
  const card = page.getByRole('region', { name: 'acme-e2e.test' });
  await expect(card.getByText('Example Registrar, Inc.')).toBeVisible();
  await expect(card.getByRole('button')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'viewer-1280');
});

test('a super admin sees the domains of every company', async ({ page }) => {
  const api = await adminApi();
  const root = await seedUser(api, 1, null);
  await signInUi(page, mainUrl(), root);
  await page.goto(mainUrl('/domain-checks'));
  await expect(page.getByRole('region', { name: 'acme-e2e.test' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'globex-e2e.test' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'super-admin-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'super-admin-375');
});
