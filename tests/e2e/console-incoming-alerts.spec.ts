// The Incoming alerts section of /settings/alerts (issue 30 item 4), as a company admin: create
// an Alertmanager source marking a component, read its receive URL and token once, see the
// token work (a notification through it sets "Last received"), rotate it (the old one is then
// refused), delete the source. Screenshots at 1280 and 375 px.
import { type Page, request } from '@playwright/test';
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
} from './console-fixtures.ts';

const shot = shotsIn('incoming-alerts');

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a company admin creates an incoming alert source, reads its token once, rotates it and deletes the source', async ({ page }) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const monitor = await api.post('/api/v1/monitors', {
    data: { type: 'http', company_id: company.id, name: 'Public API', url: 'https://api.example.com/health', interval_seconds: 60 },
  });
  expect(monitor.status(), await monitor.text()).toBe(201);
  await signInUi(page, tenantUrl(company.subdomain), admin);

  await page.goto(tenantUrl(company.subdomain, '/settings/alerts'));
  const section = page.getByRole('region', { name: /Incoming alerts/ });
  await expect(section.getByText('No incoming alert sources yet.')).toBeVisible();
  await section.getByRole('button', { name: 'New source' }).click();
  const dialog = page.getByRole('dialog', { name: 'New incoming alert source' });
  await dialog.getByLabel('Name').fill('Prod Alertmanager');
  await dialog.getByLabel('Sends').selectOption('alertmanager');
  await dialog.getByLabel('Public API').check();
  await dialog.getByLabel('Impact on them').selectOption('critical');
  await shots(page, 'new-source');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Create' }).click();

  const once = page.getByRole('dialog', { name: 'Token of Prod Alertmanager' });
  const token = await once.getByLabel('Token', { exact: true }).inputValue();
  expect(token).toMatch(/^swi_/);
  await expect(once.getByLabel(/Receive URL/)).toHaveValue(tenantUrl(company.subdomain, '/api/v1/incoming/alertmanager'));
  await shots(page, 'token-once');
  await once.getByRole('button', { name: 'Done' }).click();

  const row = section.getByRole('row', { name: /Prod Alertmanager/ });
  await expect(row).toContainText('Public API');
  await expect(row).toContainText('Never');
  await expect(page.getByText(token)).toHaveCount(0);

  // The tool's notification through the token (a client of its own, no cookies): the row says when it last received one.
  const tool = await request.newContext({ baseURL: mainUrl() });
  const sent = await tool.post(`/api/v1/incoming/alertmanager/${token}`, {
    data: {
      status: 'firing',
      groupKey: '{}:{alertname="Down"}',
      alerts: [{ status: 'firing', labels: { alertname: 'Down' }, fingerprint: 'a1' }],
    },
  });
  expect(sent.status()).toBe(200);
  await page.reload();
  await expect(row).not.toContainText('Never');
  await shots(page, 'sources');
  await expectNoSeriousA11yViolations(page);

  await row.getByRole('button', { name: 'Rotate token of Prod Alertmanager' }).click();
  await page.getByRole('dialog', { name: 'Rotate token' }).getByRole('button', { name: 'Rotate' }).click();
  const rotated = page.getByRole('dialog', { name: 'Token of Prod Alertmanager' });
  expect(await rotated.getByLabel('Token', { exact: true }).inputValue()).not.toBe(token);
  await rotated.getByRole('button', { name: 'Done' }).click();
  const refused = await tool.post(`/api/v1/incoming/alertmanager/${token}`, {
    data: { status: 'resolved', groupKey: '{}:{alertname="Down"}', alerts: [] },
  });
  expect(refused.status()).toBe(401);

  await row.getByRole('button', { name: 'Delete Prod Alertmanager' }).click();
  await page.getByRole('dialog', { name: 'Delete source' }).getByRole('button', { name: 'Delete' }).click();
  await expect(section.getByText('No incoming alert sources yet.')).toBeVisible();
});
