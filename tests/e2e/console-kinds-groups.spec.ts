// The domain and group kinds and dependencies in the console (issue 28), in Chromium against the
// built server: a company admin tests a domain monitor against a loopback RDAP server (the phases
// of the RDAP request shown) and creates it; makes a group of two monitors by ticking them, with
// the "all" rule; makes one monitor depend on another; and opens each monitor page, which shows
// the domain, the group's children and the parent; a public group opens on the status page with
// the keyboard to list its children. axe, and screenshots at 1366 and 390 px.
import { registration, startRdapKindServer } from '../support/kind-servers/rdap.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  unique,
} from './console-fixtures.ts';

// Started as the module loads: the worker's server reads RDAP_BASE_URLS when it starts.
const rdap = await startRdapKindServer();
test.use({ serverEnv: { RDAP_BASE_URLS: `test=${rdap.url}` } });
const shot = shotsIn('console-kinds-groups');
// The dialog scrolls inside the window: what the window shows is what a user sees.
const view = shotsIn('console-kinds-groups', false);
const target = loopbackTarget((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));

test('a domain monitor: Test now shows the RDAP phases; its page shows the domain', async ({ page }) => {
  const domain = `${unique('shop')}.test`;
  const expiresAt = Date.now() + 200 * 86_400_000;
  rdap.domains.set(domain, registration({ name: domain, expires: expiresAt, registrar: 'Gandi SAS' }));
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await dialog.locator('#m-type').selectOption('domain');
  await expect(dialog.getByLabel('Check every (seconds)')).toHaveValue('3600');
  await dialog.getByLabel('Name').fill('Shop domain');
  await dialog.locator('#m-domain').fill(domain);
  await expect(dialog.getByLabel('Warn days before expiry')).toHaveValue('30, 14, 7, 1');
  await dialog.getByRole('button', { name: 'Test now' }).click();
  const result = dialog.getByRole('region', { name: 'Test result' });
  await expect(result).toContainText('Up');
  for (const phase of ['DNS', 'Connect', 'First byte', 'Total']) await expect(result.getByText(phase, { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await view(page, 'domain-dialog-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await view(page, 'domain-dialog-390');
  await page.setViewportSize({ width: 1366, height: 900 });

  // An hourly floor the server explains, then created
  await dialog.getByLabel('Check every (seconds)').fill('60');
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(dialog.locator('#m-interval_seconds-error')).toContainText('Interval must be at least 3600 seconds for domain monitors');
  await dialog.getByLabel('Check every (seconds)').fill('3600');
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor "Shop domain" created.' })).toBeVisible();
  await page.getByRole('link', { name: 'Shop domain' }).click();
  await expect(page.getByRole('heading', { name: 'Shop domain' })).toBeVisible();
  const details = page.getByTestId('details');
  await expect(details).toContainText(domain);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('monitor-status')).toHaveText('Up', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId('registration')).toHaveText(
    `Expires ${new Date(expiresAt).toISOString().slice(0, 10)} · Gandi SAS · client transfer prohibited`,
  );
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'domain-page-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'domain-page-390');
});

test('a group of ticked monitors and a dependency: their pages show children and parent', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const make = async (name: string) => {
    const r = await api.post('/api/v1/monitors', {
      data: {
        type: 'http',
        company_id: company.id,
        name,
        url: `http://127.0.0.1:${target.port()}/${name}`,
        interval_seconds: 60,
        is_public: false,
      },
    });
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as { id: string };
  };
  await make('Web A');
  await make('Web B');
  const db = await make('Database');

  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await dialog.locator('#m-type').selectOption('group');
  await expect(dialog.getByLabel('Confirmations before alerting')).toBeHidden();
  await dialog.getByLabel('Name').fill('Checkout');
  const children = dialog.getByRole('group', { name: 'Children' });
  await children.getByLabel('Web A').check();
  await children.getByLabel('Web B').press('Space'); // keyboard too
  await expect(children.getByLabel('Web B')).toBeChecked();
  await dialog.getByLabel('Down when').selectOption('all');
  await dialog.getByRole('button', { name: 'Test now' }).click();
  const result = dialog.getByRole('region', { name: 'Test result' });
  await expect(result).toContainText('Up');
  await expect(result.getByText('Total', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await children.scrollIntoViewIfNeeded();
  await view(page, 'group-dialog-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await children.scrollIntoViewIfNeeded();
  await view(page, 'group-dialog-390');
  await page.setViewportSize({ width: 1366, height: 900 });
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor "Checkout" created.' })).toBeVisible();

  await page.getByRole('link', { name: 'Checkout' }).click();
  const links = page.getByTestId('monitor-links');
  await expect(links).toContainText('Down when all children are down');
  await expect(page.getByTestId('monitor-children').getByRole('link')).toHaveText(['Web A', 'Web B']);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('monitor-status')).toHaveText('Up', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'group-page-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'group-page-390');
  await page.setViewportSize({ width: 1366, height: 900 });

  // Web A depends on the database: ticked in its edit dialog, shown on its page.
  await page.getByTestId('monitor-children').getByRole('link', { name: 'Web A' }).click();
  await expect(page.getByRole('heading', { name: 'Web A' })).toBeVisible();
  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Web A' });
  await edit.getByRole('group', { name: 'Depends on' }).getByLabel('Database').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  const parents = page.getByTestId('monitor-parents');
  await expect(parents.getByRole('link', { name: 'Database' })).toHaveAttribute('href', `/monitors/${db.id}`);
  await shot(page, 'depends-page-1366');
});

test('a public group on the status page opens with the keyboard to show its children', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const make = async (data: Record<string, unknown>) => {
    const r = await api.post('/api/v1/monitors', { data: { company_id: company.id, interval_seconds: 60, is_public: true, ...data } });
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as { id: string };
  };
  const web = await make({ type: 'http', name: 'Storefront', url: `http://127.0.0.1:${target.port()}/shop` });
  const pay = await make({ type: 'http', name: 'Payments', url: `http://127.0.0.1:${target.port()}/pay` });
  await make({ type: 'group', name: 'Checkout', children: [web.id, pay.id], group_rule: 'any' });

  await page.setViewportSize({ width: 1366, height: 900 });
  const summary = page.getByText('2 components in Checkout');
  await expect(async () => {
    await page.goto(tenantUrl(company.subdomain, '/'));
    await expect(summary).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const children = page.locator('details.m-children li');
  await expect(children.first()).toBeHidden();
  await summary.focus();
  await page.keyboard.press('Enter');
  await expect(children).toHaveCount(2);
  await expect(children.nth(0)).toContainText('Storefront');
  await expect(children.nth(1)).toContainText('Payments');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'status-page-group-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'status-page-group-390');
});
