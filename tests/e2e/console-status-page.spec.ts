// Status page settings (issue 13 item 6) in Chromium against the built server: a company admin
// on the company's host gives monitors public names, groups and reorders them with the keyboard,
// saves, and the public status page and the branded sign-in list follow, with no internal host
// left; a viewer reads the same layout without controls; a super admin edits the tenant chosen
// in the selector. axe on the screen; screenshots at 1280 and 375 px.
import {
  E2E_ADMIN,
  adminApi,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  mainUrl,
  seedCompany,
  seedUser,
  signInUi,
  tenantUrl,
  expect,
  test,
  shotsIn,
} from './console-fixtures.ts';

const shot = shotsIn('console-status-page');

const target = loopbackTarget((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});

test('a company admin names, groups and orders the public monitors; the status page and the sign-in list follow; a viewer only reads', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'professional' });
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  const url = `http://127.0.0.1:${target.port()}/`;
  for (const [name, is_public] of [
    ['127.0.0.1 200', true],
    ['Checkout', true],
    ['Billing', false],
  ] as const) {
    const r = await api.post('/api/v1/monitors', {
      data: { type: 'http', company_id: company.id, name, url, is_public, interval_seconds: 3600 },
    });
    expect(r.status(), await r.text()).toBe(201);
  }
  await api.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  const menu = page.getByRole('navigation', { name: 'Main' });
  await menu.getByRole('link', { name: 'Status Page' }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Status Page', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Status Page' })).toHaveAttribute('aria-current', 'page');
  await expect(menu.getByRole('link', { name: 'My Monitors' })).not.toHaveAttribute('aria-current', 'page');
  const own = page.getByRole('region', { name: /Listed on their own/ });
  // the host-like name is not shown publicly even before anyone names it, and the screen says so
  await expect(own.getByText('Looks like a host: visitors read "Service 1" until you set a public name')).toBeVisible();

  await page.getByLabel('Public name of 127.0.0.1 200', { exact: true }).fill('Public API');
  await expect(own.getByText('Visitors read "Public API"')).toBeVisible();
  await page.getByLabel('New group').fill('Core services');
  await page.getByRole('button', { name: 'Add group' }).click();
  await page.getByLabel('Group of 127.0.0.1 200').selectOption({ label: 'Core services' });
  await page.getByLabel('Group of Checkout').selectOption({ label: 'Core services' });
  const core = page.getByRole('region', { name: /Core services/ });
  await expect(core.getByRole('row')).toHaveCount(3); // header + 2
  // keyboard: Checkout moves up; the focus stays on the row that moved (its Up is then disabled)
  await core.getByRole('button', { name: 'Move Checkout up' }).focus();
  await page.keyboard.press('Enter');
  await expect(core.locator('tbody tr').first()).toContainText('Checkout');
  await expect(core.getByRole('button', { name: 'Move Checkout down' })).toBeFocused();
  await expect(page.getByText('Checkout moved to place 1 in Core services.')).toBeAttached();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-edited-1280');

  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert')).toHaveText('Status page saved. The public page shows the change now.');
  await expect(page.getByRole('button', { name: 'Save changes' })).toBeDisabled();
  const preview = page.getByRole('link', { name: /Preview status page/ });
  await expect(preview).toHaveAttribute('href', tenantUrl(company.subdomain, '/'));
  await expect(preview).toHaveAttribute('target', '_blank');

  // the public page follows: names in the saved order under their group, no internal host
  const [visitor] = await Promise.all([page.context().waitForEvent('page'), preview.click()]);
  await visitor.waitForLoadState();
  const group = visitor.getByRole('region', { name: 'Core services' });
  await expect(group.getByRole('heading', { level: 4 })).toHaveText(['Checkout', 'Public API']);
  await expect(visitor.locator('body')).not.toContainText('127.0.0.1');
  await expect(visitor.locator('body')).not.toContainText('Billing');
  await expectNoSeriousA11yViolations(visitor);
  await shot(visitor, 'public-page-1280');
  await visitor.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(visitor, 'public-page-375');
  await visitor.close();

  // ...and so does the branded sign-in page's list
  const signIn = await browser.newPage();
  await signIn.goto(tenantUrl(company.subdomain, '/company-login'));
  const list = signIn.getByRole('region', { name: 'Public API Status' });
  await expect(list.locator('.sw-status-domain')).toHaveText(['Checkout', 'Public API']);
  await expect(list).not.toContainText('127.0.0.1');
  await signIn.close();

  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-saved-375');

  // a viewer sees the layout and what visitors read, with nothing that would fail
  const ctx = await browser.newContext();
  const v = await ctx.newPage();
  await v.setViewportSize({ width: 1280, height: 900 });
  await signInUi(v, tenantUrl(company.subdomain), viewer);
  await v.goto(tenantUrl(company.subdomain, '/monitors/status-page'));
  const viewerCore = v.getByRole('region', { name: /Core services/ });
  await expect(viewerCore.getByRole('cell', { name: 'Public API' })).toBeVisible();
  await expect(v.getByText('You can see these settings; a company admin changes them.')).toBeVisible();
  await expect(v.getByRole('button', { name: /Save|Move|Add group|Remove/ })).toHaveCount(0);
  await expect(v.getByRole('checkbox')).toHaveCount(0);
  // the embed card only builds snippets to copy (nothing is saved): a viewer uses it too
  await expect(v.locator('main :is(input, textarea, select):not(.sw-embed *)')).toHaveCount(0);
  await expect(v.locator('.sw-embed').getByRole('textbox', { name: /^Script/ })).toBeVisible();
  // the languages offered, as text: English (the default) and UTC unless an admin chose more
  await expect(v.getByRole('region', { name: 'Languages' }).locator('dd')).toHaveText(['English', 'UTC']);
  await expectNoSeriousA11yViolations(v);
  await shot(v, 'viewer-1280');
  await ctx.close();
});

test('a super admin edits the status page of the tenant chosen in the selector', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const r = await api.post('/api/v1/monitors', {
    data: {
      type: 'http',
      company_id: company.id,
      name: 'db-01.corp',
      url: `http://127.0.0.1:${target.port()}/`,
      is_public: true,
      interval_seconds: 3600,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  await api.dispose();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/monitors/status-page'));
  await expect(page.getByText('Choose a tenant in the selector to edit its status page.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
  await page.getByLabel('Tenant', { exact: true }).selectOption({ label: company.name });
  await page.getByLabel('Public name of db-01.corp', { exact: true }).fill('Database');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('alert')).toHaveText('Status page saved. The public page shows the change now.');
  const status = await page.request.get(mainUrl(`/api/v1/public/public-status/${company.subdomain}`));
  const body = (await status.json()) as { monitors: Array<{ monitor_name: string }> };
  expect(body.monitors.map((m) => m.monitor_name)).toEqual(['Database']);
  await shot(page, 'super-admin-1280');
});
