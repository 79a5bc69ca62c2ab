// The Security overview (issue 16, items 1 and 6) in Chromium, on a server of its own whose DNS
// resolver is a loopback DNS server of this spec: a company admin sees each asset's grade, open
// findings by severity, certificate and registration expiry, reputation and last scan; adds a
// host, publishes the TXT record the screen shows and verifies it; accepts a finding's risk (a
// reason is required). A viewer reads the same without a button that would fail; the super admin
// sees every company's assets, or the chosen tenant's. Screenshots at 1280 and 375 px, axe.
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { securityAssetsRepo } from '../../src/server/db/repositories/security-assets-repo.ts';
import { securityFindingsRepo } from '../../src/server/db/repositories/security-findings-repo.ts';
import { createServices } from '../../src/server/services.ts';
import { startDnsServer, type DnsTarget } from '../fixtures/targets/dns-targets.ts';
import { seedCompany, seedUser } from '../support/fixtures.ts';
import { expectNoSeriousA11yViolations, shotsIn, signInUi } from './console-fixtures.ts';
import { startServer, type RunningServer } from './support/server.ts';

const DAY = 24 * 3_600_000;
let server: RunningServer;
let dns: DnsTarget;
let dataDir: string;
let acme: { id: string; subdomain: string };
let globex: { id: string; subdomain: string };
let users: Record<'admin' | 'viewer' | 'root', { email: string; password: string }>;
const mainUrl = (p = '/') => `http://localhost:${server.port}${p}`;
const tenantUrl = (c: { subdomain: string }, p = '/') => `http://${c.subdomain}.localhost:${server.port}${p}`;
const shot = shotsIn('console-security');

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(90_000);
  dns = await startDnsServer({ answer: true });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-security-'));
  const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDb({ kind: 'sqlite', file: config.sqlitePath });
  const services = await createServices(config, { db });
  const now = Date.now();
  acme = await seedCompany(services, { name: 'Acme Shop', subdomain: 'acmesec' });
  globex = await seedCompany(services, { name: 'Globex', subdomain: 'globexsec' });
  users = {
    admin: await seedUser(services, { userType: 2, companyId: acme.id }),
    viewer: await seedUser(services, { userType: 3, companyId: acme.id }),
    root: await seedUser(services, { userType: 1 }),
  };
  const assets = securityAssetsRepo(db);
  const findings = securityFindingsRepo(db);
  const asset = async (id: string, companyId: string, hostname: string, kind: 'domain' | 'host') => {
    await assets.insert({
      id,
      company_id: companyId,
      hostname,
      kind,
      verification_token: `token-${id}`,
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: now,
      updated_at: now,
    });
    await assets.markVerified(id, 'dns', now);
  };
  await asset('acme-domain', acme.id, 'acme-shop.test', 'domain');
  await asset('acme-www', acme.id, 'www.acme-shop.test', 'host');
  await asset('globex-domain', globex.id, 'globex.test', 'domain');
  const result = (assetId: string, companyId: string, source: 'ssl' | 'dns' | 'scan' | 'threat', grade: string | null, data: object) =>
    findings.saveResult({ asset_id: assetId, company_id: companyId, source, checked_at: now, grade, data: JSON.stringify(data) });
  await result('acme-www', acme.id, 'ssl', 'B', { cert_expires_at: now + 20 * DAY, issuer: 'Test CA' });
  await result('acme-www', acme.id, 'scan', null, { finished_at: now - 3_600_000 });
  await result('acme-domain', acme.id, 'dns', null, { registration_expires_at: now + 200 * DAY, registrar: 'Example Registrar' });
  await result('acme-domain', acme.id, 'threat', null, { reputation: 'clean', listings: [] });
  // checked today: the daily domain check (its own spec) is not due while this one runs
  await result('globex-domain', globex.id, 'dns', null, { registration_expires_at: null, registrar: null });
  await findings.record(
    { id: 'acme-www', company_id: acme.id },
    'scan',
    [
      { key: 'path./.env', severity: 'critical', cvss: 9.1, title: 'Exposed .env file', evidence: 'GET /.env answered 200: DB_PASSWORD=…' },
      {
        key: 'header.csp',
        severity: 'medium',
        title: 'No Content-Security-Policy header',
        evidence: 'The response has no Content-Security-Policy header',
      },
    ],
    now,
  );
  await findings.record(
    { id: 'globex-domain', company_id: globex.id },
    'dns',
    [{ key: 'dmarc.none', severity: 'low', title: 'DMARC policy is none', evidence: 'v=DMARC1; p=none' }],
    now,
  );
  await db.close();
  server = await startServer({
    DATA_DIR: dataDir,
    RUN_ENGINE: 'false',
    ALLOW_PRIVATE_TARGETS: 'true',
    DNS_RESOLVERS: `127.0.0.1:${dns.port}`,
  });
});
test.afterAll(async () => {
  await server?.stop();
  await dns?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const assetRow = (page: Page, host: string) => page.getByRole('row', { name: new RegExp(`^${host.replace(/\./g, '\\.')} `) });

test('a company admin sees the overview, adds and verifies a host by its TXT record, and accepts a finding', async ({ page }) => {
  await signInUi(page, tenantUrl(acme), users.admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security' }).click();
  await expect(page).toHaveURL(tenantUrl(acme, '/security'));
  await expect(page.getByRole('heading', { name: 'Assets (2)' })).toBeVisible();
  const www = assetRow(page, 'www.acme-shop.test');
  await expect(www.getByRole('cell', { name: 'B', exact: true })).toBeVisible();
  await expect(www).toContainText('1 critical');
  await expect(www).toContainText('1 medium');
  await expect(www).toContainText('Verified');
  await expect(assetRow(page, 'acme-shop.test')).toContainText('clean');
  await expect(page.getByText('globex.test')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Findings (2)' })).toBeVisible();

  await page.getByRole('button', { name: 'Add asset' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add asset' });
  await dialog.getByLabel('Host name').fill('https://api.acme-other.test/');
  await dialog.getByLabel('Kind').selectOption('host');
  await dialog.getByRole('button', { name: 'Add asset' }).click();
  await expect(dialog.getByText('Enter a host name (letters, digits and hyphens between dots), not an address or a URL.')).toBeVisible();
  await dialog.getByLabel('Host name').fill('api.acme-other.test');
  await dialog.getByRole('button', { name: 'Add asset' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: 'api.acme-other.test added.' })).toBeVisible();
  await expect(assetRow(page, 'api.acme-other.test')).toContainText('Not verified');

  const proof = page.getByRole('article', { name: 'api.acme-other.test' });
  const value = (await proof.locator('code').nth(1).textContent())!;
  expect(value).toMatch(/^statuswatch-verification=[A-Za-z0-9_-]{24}$/);
  await expect(proof.locator('code').first()).toHaveText('api.acme-other.test');
  await expect(proof.getByRole('button', { name: 'Copy the TXT record value for api.acme-other.test' })).toBeVisible();
  await expect(proof.locator('code').nth(2)).toHaveText('https://api.acme-other.test/.well-known/statuswatch-verification.txt');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-unverified-1280');

  dns.txt.set('api.acme-other.test', [value]);
  await proof.getByRole('button', { name: 'Verify api.acme-other.test now' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'api.acme-other.test is verified.' })).toBeVisible();
  await expect(assetRow(page, 'api.acme-other.test')).toContainText('Verified');
  await expect(page.getByRole('article', { name: 'api.acme-other.test' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Accept risk: Exposed .env file on www.acme-shop.test' }).click();
  const accept = page.getByRole('dialog', { name: 'Accept risk' });
  await accept.getByRole('button', { name: 'Accept risk' }).click();
  await expect(accept.getByText('Say why the risk is accepted.')).toBeVisible();
  await accept.getByLabel('Reason').fill('Placeholder values on a demo host');
  await accept.getByRole('button', { name: 'Accept risk' }).click();
  await expect(accept).toHaveCount(0);
  const row = page.getByRole('row', { name: /Exposed \.env file/ });
  await expect(row).toContainText('accepted risk');
  await expect(row).toContainText('Placeholder values on a demo host');
  await expect(assetRow(page, 'www.acme-shop.test')).not.toContainText('critical');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'admin-375');

  await page.setViewportSize({ width: 1280, height: 800 });
  await row.getByRole('button', { name: /^Reopen/ }).click();
  await expect(page.getByRole('row', { name: /Exposed \.env file/ })).toContainText('open');
  await expect(assetRow(page, 'www.acme-shop.test')).toContainText('1 critical');
});

test('a viewer reads the overview and findings with no button that would fail', async ({ page }) => {
  await signInUi(page, tenantUrl(acme), users.viewer);
  await page.goto(tenantUrl(acme, '/security'));
  await expect(page.getByRole('heading', { name: 'Assets (3)' })).toBeVisible();
  await expect(assetRow(page, 'www.acme-shop.test')).toContainText('1 critical');
  await expect(page.getByRole('heading', { name: 'Findings (2)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add asset' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Verify/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Accept risk|Reopen|Remove/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'viewer-1280');
  // the overview leads to each analysis's own screen
  const analyses = page.getByRole('navigation', { name: 'Security analyses' }).getByRole('link');
  await expect(analyses).toHaveText(['SSL/TLS', 'Domains and DNS', 'Vulnerability scans', 'Threat intelligence']);
  await analyses.filter({ hasText: 'Domains and DNS' }).click();
  await expect(page).toHaveURL(tenantUrl(acme, '/domain-checks'));
});

test('the super admin sees every company, or the chosen tenant, and may remove an asset', async ({ page }) => {
  await signInUi(page, mainUrl(), users.root);
  await page.goto(mainUrl('/security'));
  await expect(page.getByRole('heading', { name: 'Assets (4)' })).toBeVisible();
  await expect(assetRow(page, 'globex.test')).toContainText('Globex');
  await expect(assetRow(page, 'acme-shop.test')).toContainText('Acme Shop');
  await expect(page.getByRole('heading', { name: 'Findings (3)' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add asset' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'root-all-1280');

  await page.getByLabel('Tenant', { exact: true }).selectOption(globex.id);
  await expect(page.getByRole('heading', { name: 'Assets (1)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Findings (1)' })).toBeVisible();
  await expect(page.getByRole('row', { name: /DMARC policy is none/ })).toBeVisible();
  await page.getByRole('button', { name: 'Remove globex.test' }).click();
  await page.getByRole('dialog', { name: 'Remove asset' }).getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByRole('heading', { name: 'Assets (0)' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Findings (0)' })).toBeVisible();
  await shot(page, 'root-tenant-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByLabel('Tenant', { exact: true }).selectOption('');
  await expect(page.getByRole('heading', { name: 'Assets (3)' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'root-all-375');
});

test('a host pointed elsewhere after its proof is not analysed, reads "Proof needs renewing", and is verified again for its new address', async ({
  page,
}) => {
  // api.acme-other.test was verified by its TXT record while it pointed at 127.0.0.1 (the DNS
  // fixture's answer for any name); now it points at another server.
  dns.records.set('api.acme-other.test', ['127.0.0.2']);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, tenantUrl(acme), users.admin);
  // The asset's id, read as the console reads it (the browser resolves *.localhost; Node does not).
  const listed = await page.evaluate(() => fetch('/api/v1/security/assets').then((r) => r.json()));
  const id = (listed as { assets: Array<{ id: string; hostname: string }> }).assets.find((a) => a.hostname === 'api.acme-other.test')!.id;
  await page.goto(tenantUrl(acme, `/ssl-monitoring/${id}`));
  await page.getByRole('button', { name: 'Analyse now' }).click();
  const reason =
    'api.acme-other.test now points to 127.0.0.2, but its proof of control vouches for 127.0.0.1. ' +
    'Nothing connects to it until an admin proves control again (Verify now).';
  await expect(page.getByRole('alert').filter({ hasText: `The proof of control of this host needs renewing: ${reason}` })).toBeVisible();

  await page.goto(tenantUrl(acme, '/security'));
  const row = assetRow(page, 'api.acme-other.test');
  await expect(row).toContainText('Proof needs renewing');
  const proof = page.getByRole('article', { name: 'api.acme-other.test' });
  await expect(proof).toContainText(reason);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-renewal-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'admin-renewal-390');

  await page.setViewportSize({ width: 1366, height: 900 });
  await proof.getByRole('button', { name: 'Verify api.acme-other.test now' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'api.acme-other.test is verified.' })).toBeVisible();
  await expect(row).toContainText('Verified');
  await expect(row).toContainText('For 127.0.0.2');
  await expect(proof).toHaveCount(0);
});
