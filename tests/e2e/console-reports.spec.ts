// SLA reports in the console (issue 17, item 1): a monitor checks a loopback target that fails
// every third answer; the company admin opens Reports, picks today as a custom range and reads
// the monitor's and the company's figures with the SLA target missed and its budget, downloads
// the CSV and the PDF, and schedules a monthly report (then disables it: no Delete for them).
// A viewer reads the same report without schedule controls; a super admin picks the company in
// the header and may delete the schedule. Axe on each; screenshots at 1280 and 375 px.
import { readFileSync } from 'node:fs';
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
  type SeededCompany,
  type SeededUser,
  shotsIn,
} from './console-fixtures.ts';

const shot = shotsIn('console-reports');
// The three users share one company, its monitor and the schedule the admin makes.
test.describe.configure({ mode: 'serial' });
let answers = 0;
const target = loopbackTarget((_req, res) => {
  answers++;
  res.writeHead(answers % 3 === 0 ? 500 : 200).end('ok');
});

let company: SeededCompany;
let admin: SeededUser;
let viewer: SeededUser;
const today = new Date().toISOString().slice(0, 10);

test.beforeAll(async () => {
  const api = await adminApi();
  company = await seedCompany(api, { name: 'Report Co' });
  admin = await seedUser(api, 2, company.id);
  viewer = await seedUser(api, 3, company.id);
  const m = await api.post('/api/v1/monitors', {
    data: {
      name: 'Checkout API',
      type: 'http',
      url: `http://127.0.0.1:${target.port()}/`,
      interval_seconds: 1,
      confirmations: 1,
      is_public: false,
      sla_target: 99.9,
      company_id: company.id,
    },
  });
  expect(m.status(), await m.text()).toBe(201);
  // A few seconds of checks, some of them failed.
  await expect.poll(() => answers, { timeout: 20_000 }).toBeGreaterThanOrEqual(6);
});

async function todaysReport(page: import('@playwright/test').Page) {
  await page.getByLabel('Period').selectOption('custom');
  await page.getByLabel('From', { exact: true }).fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  const report = page.getByTestId('sla-report');
  await expect(report.getByRole('heading', { name: `Report Co: ${today} to ${today}` })).toBeVisible();
  return report;
}

test('a company admin reads the report, downloads CSV and PDF, and schedules it', async ({ page }) => {
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/reports'));
  const report = await todaysReport(page);
  const row = report.getByRole('row', { name: /Checkout API/ });
  await expect(row).toContainText('Missed · target 99.9 %');
  await expect(row).toContainText(/Budget .* used \(\d+(\.\d+)? %\)/);
  await expect(report.getByRole('row', { name: /Company total/ })).toContainText('Some targets missed');

  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(csv.suggestedFilename()).toBe(`sla-report-${today}-${today}.csv`);
  const text = readFileSync((await csv.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toMatch(/^monitor_id,name,from,to,uptime_percent,downtime_minutes,maintenance_minutes,incidents/);
  expect(text).toContain('Checkout API');
  const [pdf] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  expect(
    readFileSync((await pdf.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  await page.getByRole('button', { name: 'Schedule a report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule a report' });
  await dialog.getByLabel('Recipients').fill('not-an-address');
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog.getByText('Not an e-mail address: not-an-address')).toBeVisible();
  await dialog.getByLabel('Recipients').fill('ops@report.example, cfo@report.example');
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(dialog).toHaveCount(0);
  const schedule = page.getByRole('row', { name: /ops@report.example, cfo@report.example/ });
  await expect(schedule).toContainText('Monthly');
  await expect(schedule).toContainText('Enabled');
  await expect(schedule.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await schedule.getByRole('button', { name: 'Disable' }).click();
  await expect(schedule).toContainText('Disabled');

  await expectNoSeriousA11yViolations(page);
  await shot(page, 'reports-admin-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'reports-admin-375');
});

test('a viewer reads the report and the schedules but changes nothing', async ({ page }) => {
  await signInUi(page, tenantUrl(company.subdomain), viewer);
  await page.goto(tenantUrl(company.subdomain, '/reports'));
  const report = await todaysReport(page);
  await expect(report.getByRole('row', { name: /Checkout API/ })).toContainText('target 99.9 %');
  await expect(page.getByRole('heading', { name: 'Scheduled reports' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Schedule a report' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Disable|Enable|Delete/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'reports-viewer-1280');
});

test('a super admin picks the company, reads its report and may delete a schedule', async ({ page }) => {
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/reports'));
  await expect(page.getByText('Choose a company in the header to see its report.')).toBeVisible();
  await page.getByLabel('Tenant', { exact: true }).selectOption(company.id);
  const report = await todaysReport(page);
  await expect(report.getByRole('row', { name: /Checkout API/ })).toBeVisible();
  const schedule = page.getByRole('row', { name: /ops@report.example/ });
  await schedule.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete schedule' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Schedule deleted.')).toBeVisible();
  await expect(schedule).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'reports-super-admin-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(report.getByRole('row', { name: /Checkout API/ })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'reports-super-admin-375');
});
