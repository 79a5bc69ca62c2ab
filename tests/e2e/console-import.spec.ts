// Importing from another tool in the console (issue 33): a company admin opens Import from the
// navigation, uploads Uptime Kuma's database (the committed fixture laid out by Uptime Kuma 2.x's
// migrations), reads the dry run (what is created, what is not imported and why), imports it and
// finds the monitors; a second check of the same file has nothing to do. At 1280 and 375 px.
import { join } from 'node:path';
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

const KUMA_DB = join(import.meta.dirname, '../fixtures/uptime-kuma/kuma.db');
const shot = shotsIn('console-import');

test('a company admin checks an Uptime Kuma database, imports it, and a second check has nothing to do', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'enterprise' });
  const admin = await seedUser(api, 2, company.id);
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' }).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/settings/import'));
  await expect(page.getByRole('heading', { name: 'Import from another tool', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByText('Choose the export file to upload.')).toBeVisible();

  await expect(page.getByLabel('Tool').locator('option')).toHaveText([
    'Uptime Kuma',
    'Atlassian Statuspage',
    'UptimeRobot',
    'Better Stack Uptime',
  ]);
  await page.getByRole('button', { name: 'File', exact: true }).setInputFiles(KUMA_DB);
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByTestId('import-summary')).toHaveText('22 objects to create, 1 to update, 0 unchanged. Nothing has changed yet.');
  const changes = page.getByRole('list', { name: 'Changes' });
  await expect(changes.getByRole('listitem').filter({ hasText: 'monitor Website' }).first()).toContainText('Create');
  await expect(changes).toContainText('headers: {"Authorization":"(secret)"}');
  await expect(page.getByRole('heading', { name: 'Not imported (17)' })).toBeVisible();
  await expect(page.getByText('our probes do not reach a Docker daemon')).toBeVisible();
  await expect(page.getByText('KumaSlackSecret42')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'dry-run-1280');

  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Imported', exact: true })).toBeVisible();
  await expect(page.getByTestId('import-summary')).toHaveText('Done: 22 objects created, 1 updated.');
  await expect(page.getByText(/push URL of monitor "Nightly backup" \(shown once\)/)).toBeVisible();
  await shot(page, 'imported-1280');

  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'imported-375');
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page.getByTestId('import-summary')).toHaveText('Everything in the file is already here: importing it changes nothing.');
  await expect(page.getByRole('button', { name: 'Import', exact: true })).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'again-375');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await expect(page.getByRole('link', { name: 'Nightly backup' })).toBeVisible();
});

test('a viewer has no Import entry and the screen is not theirs', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const viewer = await seedUser(api, 3, company.id);
  await signInUi(page, tenantUrl(company.subdomain), viewer);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Import' })).toHaveCount(0);
  await page.goto(tenantUrl(company.subdomain, '/settings/import'));
  await expect(page.getByRole('heading', { name: 'Page Not Found', level: 1 })).toBeVisible();
});
