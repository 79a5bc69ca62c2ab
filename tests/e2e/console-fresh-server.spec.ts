// The console on a server of its own: a fresh data directory (no company, monitor, incident or
// span anywhere, so the super admin dashboard shows its empty states) and another product name
// (PRODUCT_NAME), which the console shows instead of the default.
import { test, expect } from '@playwright/test';
import { E2E_ADMIN } from './support/global-setup.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { expectNoSeriousA11yViolations, signInUi } from './console-fixtures.ts';

const PRODUCT = 'Beacon Watch';
let server: RunningServer;
const url = (path = '/') => `http://localhost:${server.port}${path}`;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  server = await startServer({ ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, PRODUCT_NAME: PRODUCT });
});
test.afterAll(async () => {
  await server?.stop();
});

test('super admin dashboard with no data: the three cards and their empty texts', async ({ page }) => {
  await signInUi(page, url(), E2E_ADMIN);
  await expect(page).toHaveURL(url('/dashboard'));
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();

  const top = page.getByTestId('card-top-tenants');
  await expect(top.getByRole('heading', { name: 'Top Tenants by Error Rate' })).toBeVisible();
  await expect(top.getByText('No Data', { exact: true })).toBeVisible();
  await expect(top.getByText('No metrics data available for the last 24 hours')).toBeVisible();
  await expect(top.getByText('Showing top 5 tenants by error rate')).toBeVisible();

  const incidents = page.getByTestId('card-incidents');
  await expect(incidents.getByRole('heading', { name: 'Recent Incidents' })).toBeVisible();
  await expect(incidents.getByText('No Data', { exact: true })).toBeVisible();
  await expect(incidents.getByText('No incidents reported in the last 24 hours')).toBeVisible();
  await expect(incidents.getByText('Last 10 incidents across all tenants')).toBeVisible();

  const monitors = page.getByTestId('card-monitors');
  await expect(monitors.getByRole('heading', { name: 'Monitors Status (Global)' })).toBeVisible();
  await expect(monitors.getByText('No Data', { exact: true })).toBeVisible();
  await expect(monitors.getByText('No monitor data available')).toBeVisible();
  await expect(monitors.getByTestId('critical-banner')).toHaveCount(0);

  await page.screenshot({ path: '.tmp/screens/super-dashboard-empty-1280.png', fullPage: true });
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await page.screenshot({ path: '.tmp/screens/super-dashboard-empty-375.png', fullPage: true });
});

test('the navigation column shows the product name the server runs with', async ({ page }) => {
  await signInUi(page, url(), E2E_ADMIN);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByText(PRODUCT, { exact: true })).toBeVisible();
  await expect(page.getByText('StatusWatch', { exact: true })).toHaveCount(0);
  await expect(page).toHaveTitle(`Dashboard · ${PRODUCT}`);
  await page.screenshot({ path: '.tmp/screens/shell-product-name-1280.png' });
  await page.setViewportSize({ width: 375, height: 800 });
  // collapsed below 768 px: the name is hidden; opened again it shows over the page
  await expect(nav).toHaveCSS('width', '60px');
  await nav.getByRole('button', { name: 'Expand navigation' }).click();
  await expect(nav).toHaveCSS('width', '240px');
  await expect(nav.getByText(PRODUCT, { exact: true })).toBeVisible();
  await page.screenshot({ path: '.tmp/screens/shell-product-name-375.png' });
});
