// The monitor page /monitors/{id} (issue 13) in Chromium against the built server: a company
// admin opens a monitor of a loopback target from the list and sees its status, uptime, the
// response-time chart drawn from the rollups, the hourly blocks, recent checks, and pauses and
// resumes it; a viewer reads the same page without a button. axe and screenshots at 1280 and 375.
import {
  adminApi,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  signInUi,
  tenantUrl,
  expect,
  test,
  loopbackTarget,
  shotsIn,
} from './console-fixtures.ts';

const shot = shotsIn('console-monitor-page');

const target = loopbackTarget((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});

test('a company admin opens a monitor, reads its figures and chart, pauses and resumes it; a viewer only reads', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'starter' });
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  const made = await api.post('/api/v1/monitors', {
    data: {
      type: 'http',
      company_id: company.id,
      name: 'Storefront',
      url: `http://127.0.0.1:${target.port()}/health`,
      interval_seconds: 1,
      confirmations: 1,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
  const id = (await made.json()).id as string;
  // checked by the engine at least twice before the page is opened
  await expect(async () => {
    const checks = await api.get(`/api/v1/monitors/${id}/checks`);
    expect((await checks.json()).length).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 20_000 });

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await page.getByRole('link', { name: 'Storefront' }).click();
  await expect(page).toHaveURL(new RegExp(`/monitors/${id}$`));
  await expect(page.getByRole('heading', { name: 'Storefront', level: 2 })).toBeVisible();
  await expect(page.getByTestId('monitor-status')).toHaveText('Up');
  await expect(page.getByText(/^Up since \d/)).toBeVisible();

  const uptime = page.getByTestId('uptime');
  for (const span of ['24 hours', '7 days', '30 days', '90 days']) await expect(uptime.getByText(span, { exact: true })).toBeVisible();
  await expect(uptime.getByText('100.00%').first()).toBeVisible();

  // the chart library draws a canvas; a monitor checked for seconds opens on its latest checks
  // (issue 25), the ranges redraw it from hourly and daily rollups
  const chart = page.getByTestId('response-chart');
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Latest checks' })).toHaveAttribute('aria-pressed', 'true');
  await expect(chart).toHaveAttribute('aria-label', /of each of the latest \d+ checks\. \d+ of \d+ checks timed: average [\d,]+ ms/);
  await page.getByRole('button', { name: '24 hours' }).click();
  await expect(chart).toHaveAttribute('aria-label', /Over the range: average [\d,]+ ms, p50 [\d,]+ ms, p95 [\d,]+ ms, p99 [\d,]+ ms/);
  await page.getByRole('button', { name: '90 days' }).click();
  await expect(page.getByRole('button', { name: '90 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('response-chart')).toHaveAttribute('aria-label', /per day over 90 days/);
  await expect(page.getByTestId('response-chart').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('response-times').getByText('Connect', { exact: true })).toBeVisible();

  // the status page's 24 blocks and 90 bars, the current hour operational
  await expect(page.getByRole('list', { name: 'Status per hour, last 24 hours' }).getByRole('listitem')).toHaveCount(24);
  await expect(page.getByRole('list', { name: 'Uptime per day, last 90 days' }).getByRole('listitem')).toHaveCount(90);
  await expect(page.getByRole('list', { name: 'Status per hour, last 24 hours' }).getByRole('listitem').last()).toHaveAttribute(
    'aria-label',
    /Operational · HTTP 200/,
  );

  const checks = page.getByTestId('checks');
  await expect(checks.getByRole('row').nth(1)).toContainText('Operational');
  await expect(checks.getByRole('row').nth(1)).toContainText('200');
  await expect(checks.getByRole('row').nth(1)).toContainText(/\d+ ms/);
  await expect(page.getByTestId('incidents').getByText('No incidents for this monitor.')).toBeVisible();

  await expectNoSeriousA11yViolations(page);
  await shot(page, 'monitor-page-1280');

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor paused.' })).toBeVisible();
  await expect(page.getByTestId('monitor-status')).toHaveText('Paused');
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor resumed.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();

  // edit opens the list's dialog with this monitor
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit Storefront' }).getByLabel('Name')).toHaveValue('Storefront');
  await page.keyboard.press('Escape');

  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByTestId('response-chart').locator('canvas')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'monitor-page-375');

  // a viewer: the same page, no button that changes anything
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signInUi(viewerPage, tenantUrl(company.subdomain), viewer);
  await viewerPage.goto(tenantUrl(company.subdomain, `/monitors/${id}`));
  await expect(viewerPage.getByRole('heading', { name: 'Storefront', level: 2 })).toBeVisible();
  await expect(viewerPage.getByTestId('response-chart').locator('canvas')).toBeVisible();
  for (const name of ['Edit', 'Pause', 'Resume']) await expect(viewerPage.getByRole('button', { name, exact: true })).toHaveCount(0);
  await expectNoSeriousA11yViolations(viewerPage);
  await viewerContext.close();
});
