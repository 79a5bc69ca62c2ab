// The Monitors screen (issue 13) in Chromium against the built server: a company admin on the
// company's host tests and creates an http monitor of a loopback target, sees it listed and
// checked, searches, filters, edits, pauses and resumes it; a push monitor shows its URL once;
// a viewer reads the same list without a button that would change anything. axe and screenshots.
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

const shot = shotsIn('console-monitors');

const target = loopbackTarget((req, res) => {
  res.writeHead(req.url === '/down' ? 500 : 200, { 'content-type': 'text/plain' });
  res.end('ok');
});

test('a company admin tests, creates, finds, edits, pauses and resumes a monitor; a viewer only reads', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'starter' });
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  // another monitor, so search and filters have something to leave out
  const other = await api.post('/api/v1/monitors', {
    data: {
      type: 'tcp',
      company_id: company.id,
      name: 'Database',
      host: '127.0.0.1',
      port: target.port(),
      interval_seconds: 60,
      is_public: false,
    },
  });
  expect(other.status(), await other.text()).toBe(201);

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await expect(page.getByRole('heading', { name: 'Monitors', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Database' })).toBeVisible();

  // Test now, then create
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await dialog.getByLabel('Name').fill('Website');
  await dialog.getByLabel('URL').fill(`http://127.0.0.1:${target.port()}/health`);
  await dialog.getByLabel('Check every (seconds)').fill('1');
  await dialog.getByLabel('Confirmations before alerting').fill('1');
  // the company's page shows no monitor yet, so the box starts ticked (issue 25); kept private here
  await expect(dialog.getByLabel('Show on the public status page')).toBeChecked();
  await dialog.getByLabel('Show on the public status page').uncheck();
  await dialog.getByRole('button', { name: 'Test now' }).click();
  const result = dialog.getByRole('region', { name: 'Test result' });
  await expect(result).toContainText('Up');
  await expect(result).toContainText('HTTP 200');
  for (const phase of ['DNS', 'Connect', 'First byte', 'Total']) await expect(result.getByText(phase, { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'monitors-dialog-1280');
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor "Website" created.' })).toBeVisible();

  // listed and checked by the engine (its row leaves 'Pending' and gains a response time)
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Website' }) });
  await expect(row.getByRole('link', { name: 'Website' })).toHaveAttribute('href', /^\/monitors\/[\w-]+$/);
  await expect(async () => {
    await page.reload();
    await expect(row.getByText('Up', { exact: true })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(row).toContainText(/\d+ ms/);
  await expect(row).toContainText(`127.0.0.1:${target.port()}/health`);

  // search by target, and filters by kind and visibility
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('/HEALTH');
  await expect(page.getByRole('link', { name: 'Database' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Website' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Monitors (1)' })).toBeVisible();
  await search.fill('');
  await expect(page.getByRole('link', { name: 'Database' })).toBeVisible();
  await page.getByLabel('Kind', { exact: true }).selectOption('tcp');
  await expect(page.getByRole('link', { name: 'Website' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Database' })).toBeVisible();
  await page.getByLabel('Kind', { exact: true }).selectOption('');
  await page.getByLabel('Visibility', { exact: true }).selectOption('public');
  await expect(page.getByText('No monitors match these filters.')).toBeVisible();
  await page.getByLabel('Visibility', { exact: true }).selectOption('');

  // sorting by name, from the column header and from the sort menu
  await page.getByRole('button', { name: 'Name' }).click();
  await expect(page.getByRole('row').nth(1)).toContainText('Database');
  await page.getByLabel('Sort by', { exact: true }).selectOption('name desc');
  await expect(page.getByRole('row').nth(1)).toContainText('Website');

  // edit: a server message beside its field, then a good save
  await page.getByRole('button', { name: 'Edit Website' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Website' });
  await edit.getByLabel('URL').fill('ftp://example.com/');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('URL must start with http:// or https://').first()).toBeVisible();
  await edit.getByLabel('URL').fill(`http://127.0.0.1:${target.port()}/health`);
  await edit.getByLabel('Name').fill('Website (public)');
  await edit.getByLabel('Show on the public status page').check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor "Website (public)" saved.' })).toBeVisible();
  await page.getByLabel('Visibility', { exact: true }).selectOption('public');
  await expect(page.getByRole('link', { name: 'Website (public)' })).toBeVisible();
  await page.getByLabel('Visibility', { exact: true }).selectOption('');

  // pause and resume, one and in bulk
  await page.getByRole('button', { name: 'Pause Website (public)' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '1 monitor paused.' })).toBeVisible();
  const edited = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Website (public)' }) });
  await expect(edited.getByText('Paused', { exact: true })).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('paused');
  await expect(page.getByRole('heading', { name: 'Monitors (1)' })).toBeVisible();
  await page.getByLabel('Status', { exact: true }).selectOption('');
  await expect(page.getByRole('heading', { name: 'Monitors (2)' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Select all loaded monitors' }).check();
  await page.getByRole('button', { name: 'Resume selected' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '2 monitors resumed.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause Website (public)' })).toBeVisible();

  // a push monitor shows its URL and a curl line once
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const push = page.getByRole('dialog', { name: 'Add Monitor' });
  await push.locator('#m-type').selectOption('push');
  await expect(push.getByRole('button', { name: 'Test now' })).toBeHidden();
  await push.getByLabel('Name').fill('Nightly backup');
  await push.getByRole('button', { name: 'Create Monitor' }).click();
  const pushUrl = page.getByRole('dialog', { name: 'Push URL' });
  await expect(pushUrl.getByLabel('Push URL')).toHaveValue(/\/api\/v1\/push\/[\w-]{20,}$/); // base64url: may start with - or _
  await expect(pushUrl.getByLabel('Example (cron)')).toHaveValue(/^curl -fsS .*\/api\/v1\/push\//);
  await expect(pushUrl.getByRole('button', { name: 'Copy URL' })).toBeVisible();
  await pushUrl.getByRole('button', { name: 'Done' }).click();

  await expectNoSeriousA11yViolations(page);
  await shot(page, 'monitors-list-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  // as a phone opens it (the shell picks its narrow layout when the page loads)
  await page.reload();
  await expect(page.getByRole('link', { name: 'Nightly backup' })).toBeVisible();
  // nothing runs off the side of a phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'monitors-list-375');
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  await expect(page.getByRole('dialog', { name: 'Add Monitor' })).toBeVisible();
  await shot(page, 'monitors-dialog-375');
  await page.keyboard.press('Escape');

  // a viewer: the same list, no button that changes anything
  const viewerContext = await browser.newContext();
  const viewerPage = await viewerContext.newPage();
  await signInUi(viewerPage, tenantUrl(company.subdomain), viewer);
  await viewerPage.goto(tenantUrl(company.subdomain, '/my-monitors'));
  await expect(viewerPage.getByRole('link', { name: 'Website (public)' })).toBeVisible();
  await expect(viewerPage.getByRole('link', { name: 'Nightly backup' })).toBeVisible();
  for (const name of ['Add Monitor', /^Edit /, /^Pause /, /^Resume /])
    await expect(viewerPage.getByRole('button', { name })).toHaveCount(0);
  // no row selection (the Archived filter is the only checkbox a viewer sees)
  await expect(viewerPage.getByRole('checkbox', { name: /^Select/ })).toHaveCount(0);
  await expect(viewerPage.getByRole('checkbox')).toHaveCount(1);
  await expectNoSeriousA11yViolations(viewerPage);
  await viewerContext.close();
});

test('the plan limit is named when it is reached', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'starter' });
  const admin = await seedUser(api, 2, company.id);
  for (let i = 0; i < 10; i++) {
    const r = await api.post('/api/v1/monitors', {
      data: { type: 'push', company_id: company.id, name: `Job ${i}`, interval_seconds: 3600 },
    });
    expect(r.status(), await r.text()).toBe(201);
  }
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await dialog.getByLabel('Name').fill('Eleventh');
  await dialog.getByLabel('URL').fill(`http://127.0.0.1:${target.port()}/`);
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Your Starter plan allows 10 monitors.' })).toBeVisible();
  // the metadata address is refused in words, beside the URL
  await dialog.getByLabel('URL').fill('http://169.254.169.254/latest/');
  await dialog.getByRole('button', { name: 'Test now' }).click();
  await expect(dialog.getByText(/monitors may only check addresses on the public internet/).first()).toBeVisible();
});
