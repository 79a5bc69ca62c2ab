// /ssl-monitoring in Chromium: https monitors of a company (loopback TLS servers with a good, a
// weak and an expired certificate, the server trusting the test CA) analysed with "Analyse now"
// by a company admin; the table shows grade, days left, key, protocols and problems, and the
// detail each problem; viewers read without the button; super admins see every company's. axe
// finds nothing serious; screenshots at 1280 and 375 px.
import path from 'node:path';
import { makeCerts, startTlsTargets, type TlsTargets } from '../fixtures/targets/tls-targets.ts';
import {
  adminApi,
  E2E_ADMIN,
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

const made = makeCerts();
test.use({ serverEnv: { NODE_EXTRA_CA_CERTS: path.join(made.dir, 'ca.pem') } });
const shot = shotsIn('console-ssl-monitoring');

let targets: TlsTargets;
let company: SeededCompany;
let admin: SeededUser;
let viewer: SeededUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  targets = await startTlsTargets(made);
  const api = await adminApi();
  company = await seedCompany(api);
  admin = await seedUser(api, 2, company.id);
  viewer = await seedUser(api, 3, company.id);
  const monitor = async (data: Record<string, unknown>) => {
    const r = await api.post('/api/v1/monitors', { data: { company_id: company.id, interval_seconds: 300, confirmations: 1, ...data } });
    expect(r.status(), await r.text()).toBe(201);
  };
  await monitor({ type: 'ssl', name: 'Website', host: 'localhost', port: targets.port.good });
  await monitor({ type: 'http', name: 'Legacy shop', url: `https://localhost:${targets.port.weak}/` });
  await monitor({ type: 'ssl', name: 'Old portal', host: 'localhost', port: targets.port.expired });
});
test.afterAll(async () => targets?.close());

test('a company admin analyses each certificate and reads grades, expiry and problems', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/ssl-monitoring'));
  await expect(page.getByRole('main').getByRole('heading', { name: 'SSL/TLS monitoring' })).toBeVisible();
  for (const name of ['Website', 'Legacy shop', 'Old portal']) {
    await page.getByRole('button', { name: `Analyse now: ${name}` }).click();
    await expect(page.getByRole('alert')).toHaveText('Analysed just now.');
  }
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name }) });
  await expect(row('Website').getByLabel('Grade A+')).toBeVisible();
  await expect(row('Website')).toContainText('EC 256');
  await expect(row('Website')).toContainText('TLS 1.2, TLS 1.3');
  await expect(row('Website')).toContainText(/\d+ days left/);
  await expect(row('Legacy shop').getByLabel('Grade C')).toBeVisible();
  await expect(row('Legacy shop')).toContainText('RSA 1024');
  await expect(row('Legacy shop')).toContainText('TLS 1.0, TLS 1.1, TLS 1.2');
  await expect(row('Legacy shop')).toContainText('1 high, 3 medium, 3 low');
  await expect(row('Old portal').getByLabel('Grade T (not trusted)')).toBeVisible();
  await expect(row('Old portal')).toContainText(/Expired \d+ days ago/);
  // Worst first.
  await expect(page.getByRole('link', { name: /Website|Legacy shop|Old portal/ })).toHaveText(['Old portal', 'Legacy shop', 'Website']);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'list-1280');

  await page.getByRole('link', { name: 'Legacy shop' }).click();
  await expect(page.getByRole('heading', { name: /Legacy shop/ })).toBeVisible();
  await expect(page.getByText('TLS 1.0 is offered')).toBeVisible();
  await expect(page.getByText('RSA key of 1024 bits (2048 or more expected)')).toBeVisible();
  await expect(page.getByText('Certificate signed with ecdsa-with-SHA1')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'detail-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByText('TLS 1.0 is offered')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'detail-375');
  await page.goto(tenantUrl(company.subdomain, '/ssl-monitoring'));
  await expect(page.getByRole('link', { name: 'Website' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'list-375');
});

test('a viewer reads the certificates but has no Analyse now', async ({ page }) => {
  await signInUi(page, tenantUrl(company.subdomain), viewer);
  await page.goto(tenantUrl(company.subdomain, '/ssl-monitoring'));
  await expect(page.getByRole('link', { name: 'Website' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Analyse/ })).toHaveCount(0);
  await page.getByRole('link', { name: 'Old portal' }).click();
  await expect(page.getByText('The certificate has expired')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Analyse now' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
});

test('a super admin sees the company’s certificates among all', async ({ page }) => {
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/ssl-monitoring'));
  await expect(page.getByRole('link', { name: 'Legacy shop' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Analyse now: Website' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'super-admin-1280');
});
