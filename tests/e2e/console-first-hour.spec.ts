// The first hour of a new company (issue 25 items 6, 7 and 8): its admin finds the company's name
// and status page address in the header and on the dashboard, adds a first monitor whose "Show on
// the public status page" box starts ticked (a second one's does not), watches it fail and recover
// within minutes, and sees its latest checks drawn densely in the list's sparkline and the monitor
// page's chart, the monitor on the public page, and the Reports screen opening on this month with
// the incident. The super admin's header says "Global view" or the chosen tenant. Screenshots at
// 1366 and 390 px.
import type { Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  mainUrl,
  seedCompany,
  seedUser,
  signInUi,
  tenantUrl,
  test,
  shotsIn,
  type SeededCompany,
  type SeededUser,
} from './console-fixtures.ts';

const shot = shotsIn('console-first-hour');
test.describe.configure({ mode: 'serial' });

// the first three answers fail: an outage, its automatic incident, and its recovery
let answers = 0;
const target = loopbackTarget((_req, res) => {
  answers++;
  res.writeHead(answers <= 3 ? 503 : 200).end('ok');
});

let company: SeededCompany;
let admin: SeededUser;
let long: SeededCompany;
let longAdmin: SeededUser;
let monitorId: string;
const today = new Date().toISOString().slice(0, 10);
const firstOfMonth = `${today.slice(0, 8)}01`;

test.beforeAll(async () => {
  const api = await adminApi();
  company = await seedCompany(api, { name: 'First Hour Co' });
  // a long name and subdomain, for the header at phone width
  long = await seedCompany(api, { name: 'The Very Long Named Company of the First Hour, Incorporated' });
  longAdmin = await seedUser(api, 2, long.id);
  admin = await seedUser(api, 2, company.id);
  await api.dispose();
});

/** The page fits the window: nothing wider than it, the header included. */
async function fits(page: Page, width: number) {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const header = page.locator('header.sw-header');
  expect(await header.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
}

test('the header and the dashboard name the company and its status page; the first monitor is public', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
  const address = `${company.subdomain}.localhost:${new URL(tenantUrl(company.subdomain)).port}`;
  const header = page.getByTestId('header-company');
  await expect(header).toContainText('First Hour Co');
  await expect(header.getByRole('link', { name: address })).toHaveAttribute('href', tenantUrl(company.subdomain, '/'));
  const onDashboard = page.getByTestId('status-page-address');
  await expect(onDashboard).toHaveText(`Status page: ${address}`);
  await expect(onDashboard.getByRole('link', { name: address })).toHaveAttribute('href', tenantUrl(company.subdomain, '/'));
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'dashboard-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(header).toContainText('First Hour Co');
  await fits(page, 390);
  await shot(page, 'dashboard-390');
  await page.setViewportSize({ width: 1366, height: 900 });

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Monitors/ })
    .click();
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  // the company's page shows no monitor yet: its first one goes there unless unticked
  await expect(dialog.getByLabel('Show on the public status page')).toBeChecked();
  await dialog.getByLabel('Name').fill('Storefront');
  await dialog.getByLabel('URL').fill(`http://127.0.0.1:${target.port()}/`);
  await dialog.getByLabel('Check every (seconds)').fill('1');
  await dialog.getByLabel('Confirmations before alerting').fill('1');
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor "Storefront" created.' })).toBeVisible();
  monitorId = (await page.getByRole('link', { name: 'Storefront' }).getAttribute('href'))!.split('/').pop()!;

  // a second monitor follows the old default: private
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Monitor' }).getByLabel('Show on the public status page')).not.toBeChecked();
  await page.keyboard.press('Escape');
});

test('the header of a company with a long name fits a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await signInUi(page, tenantUrl(long.subdomain), longAdmin);
  await expect(page.getByTestId('header-company')).toContainText('The Very Long Named Company');
  await expect(page.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
  await fits(page, 375);
  await shot(page, 'long-name-375');
});

test('a few checks draw a dense sparkline and chart; the monitor is on the public page', async ({ page }) => {
  test.setTimeout(90_000);
  // a few seconds of checks: the outage and the recovery
  await expect.poll(() => answers, { timeout: 30_000 }).toBeGreaterThanOrEqual(10);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Storefront' }) });
  const spark = row.getByRole('img', { name: /Response time of Storefront, each of its latest \d+ checks/ });
  await expect(spark).toBeVisible();
  // every timed check is a point of the line (the failed ones break it)
  const drawn = async () =>
    spark.evaluate(
      (svg) => (svg.querySelector('path')?.getAttribute('d')?.match(/[ML]/g)?.length ?? 0) + svg.querySelectorAll('circle').length,
    );
  await expect.poll(drawn).toBeGreaterThanOrEqual(5);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'monitors-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, 390);
  await shot(page, 'monitors-390');
  await page.setViewportSize({ width: 1366, height: 900 });

  await page.goto(tenantUrl(company.subdomain, `/monitors/${monitorId}`));
  // the chart opens on the latest checks, one point each, instead of an empty 24-hour grid
  await expect(page.getByRole('button', { name: 'Latest checks' })).toHaveAttribute('aria-pressed', 'true');
  const chart = page.getByTestId('response-chart');
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(chart).toHaveAttribute(
    'aria-label',
    /Response time of each of the latest ([5-9]|\d\d+) checks\. \d+ of \d+ checks timed: average/,
  );
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'monitor-page-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, 390);
  await shot(page, 'monitor-page-390');

  await page.goto(tenantUrl(company.subdomain, '/'));
  await expect(page.getByText('Storefront', { exact: true })).toBeVisible();
});

test('the reports screen opens on this month with the incident of minutes ago', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/reports'));
  await expect(page.getByLabel('Period')).toHaveValue('this_month');
  await expect(page.getByLabel('Period').locator('option:checked')).toHaveText('This month');
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(firstOfMonth);
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(today);
  const report = page.getByTestId('sla-report');
  await expect(report.getByRole('heading', { name: `First Hour Co: ${firstOfMonth} to ${today}` })).toBeVisible();
  const row = report.getByRole('row', { name: /Storefront/ });
  await expect(row.getByText('1 incident')).toBeVisible();
  // figures, not the dashes a new company saw on "Last month"
  await expect(row.locator('td[data-label="Uptime"]')).toHaveText(/\d/);
  await expect(row.locator('td[data-label="Incidents"]')).toHaveText('1');
  // the new periods are there to pick
  await page.getByLabel('Period').selectOption('last_7_days');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(today);
  await expect(report.getByRole('row', { name: /Storefront/ }).getByText('1 incident')).toBeVisible();
  await page.getByLabel('Period').selectOption('last_30_days');
  await expect(report.getByRole('heading', { name: new RegExp(`First Hour Co: \\d{4}-\\d{2}-\\d{2} to ${today}`) })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await page.getByLabel('Period').selectOption('this_month');
  await shot(page, 'reports-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, 390);
  await shot(page, 'reports-390');
});

test('the super admin\'s header says "Global view", then the chosen tenant and its status page', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/dashboard'));
  await expect(page.getByTestId('tenant-indicator')).toHaveText('Global view');
  await page.getByLabel('Tenant', { exact: true }).selectOption(company.id);
  await expect(page.getByTestId('tenant-indicator')).toHaveText('Tenant: First Hour Co');
  await expect(page.getByTestId('header-company').getByRole('link')).toHaveAttribute('href', tenantUrl(company.subdomain, '/'));
  await expect(page.getByRole('heading', { name: 'First Hour Co Dashboard' })).toBeVisible();
  await expect(page.getByTestId('status-page-address').getByRole('link')).toHaveAttribute('href', tenantUrl(company.subdomain, '/'));
  await shot(page, 'super-admin-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await fits(page, 390);
  await shot(page, 'super-admin-390');
  await page.getByLabel('Tenant', { exact: true }).selectOption('');
});
