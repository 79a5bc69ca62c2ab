// The anomaly settings screen (issue 33, item 2) with Advanced analytics switched on by the
// operator (a server of this spec's own): an admin finds it under Settings, changes the latency
// sensitivity and sees it saved; a viewer reads it with nothing to change. At 1280 and 375 px.
import type { Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

test.use({ serverEnv: { FLAG_ENABLE_ADVANCED_ANALYTICS: 'true' } });
const shot = shotsIn('anomalies');

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an admin tunes anomaly watching from Settings; a viewer only reads it', async ({ page, browser }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);

  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings'));
  await page.getByRole('link', { name: 'Anomalies' }).click();
  await expect(page.getByRole('heading', { name: 'Anomalies', level: 2 })).toBeVisible();
  const latency = page.getByLabel('Response times');
  await expect(latency).toHaveValue('normal');
  await expect(page.getByLabel('Probes against your traffic')).toHaveValue('normal');
  await expect(page.getByText('No anomalies so far.')).toBeVisible();
  await latency.selectOption('high');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Anomaly settings saved.' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'admin');
  await page.reload();
  await expect(page.getByLabel('Response times')).toHaveValue('high');

  const context = await browser.newContext();
  const other = await context.newPage();
  await signInUi(other, tenantUrl(company.subdomain), viewer);
  await other.goto(tenantUrl(company.subdomain, '/settings/anomalies'));
  await expect(other.getByLabel('Response times')).toHaveValue('high');
  await expect(other.getByLabel('Response times')).toBeDisabled();
  await expect(other.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(other.getByText('Company admins can change these settings.')).toBeVisible();
  await shots(other, 'viewer');
  await context.close();
});
