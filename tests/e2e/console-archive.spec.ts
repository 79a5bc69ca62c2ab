// Archive and restore, and incidents about several monitors (issue 13), in Chromium against the
// built server: a company admin archives a monitor from its page (it leaves the list and the
// status page), finds it under 'Archived' and restores it; the chart shows each period's phases;
// an incident written about two monitors is shown against both on the public page. A viewer
// sees no archive button and the server refuses one. axe and screenshots at 1280 and 375.
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  signInUi,
  tenantUrl,
  test,
  shotsIn,
} from './console-fixtures.ts';

const shot = shotsIn('console-archive');

const target = loopbackTarget((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});

async function seedMonitors(names: string[]) {
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'starter' });
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  const ids: Record<string, string> = {};
  for (const name of names) {
    const made = await api.post('/api/v1/monitors', {
      data: {
        type: 'http',
        company_id: company.id,
        name,
        url: `http://127.0.0.1:${target.port()}/${name}`,
        interval_seconds: 1,
        is_public: true,
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    ids[name] = (await made.json()).id as string;
  }
  await expect(async () => {
    for (const id of Object.values(ids))
      expect(((await (await api.get(`/api/v1/monitors/${id}/checks`)).json()) as unknown[]).length).toBeGreaterThanOrEqual(2);
  }).toPass({ timeout: 20_000 });
  return { company, admin, viewer, ids };
}

test('a company admin archives a monitor from its page, finds it under Archived and restores it; a viewer cannot', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const { company, admin, viewer, ids } = await seedMonitors(['Storefront', 'Payments']);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, `/monitors/${ids.Storefront}`));
  await expect(page.getByRole('heading', { name: 'Storefront', level: 2 })).toBeVisible();

  // the chart's phase view: each hour's DNS, connect, TLS and wait, stacked (a young monitor's
  // chart opens on its latest checks, so the 24-hour range is chosen first)
  await page.getByRole('button', { name: '24 hours' }).click();
  await page.getByRole('button', { name: 'Phases', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Phases', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const chart = page.getByTestId('response-chart');
  await expect(chart).toHaveAttribute('data-mode', 'phases');
  await expect(chart).toHaveAttribute(
    'aria-label',
    /stacked, per hour over 24 hours\. Mean per check: DNS [\d.]+ ms, Connect [\d.]+ ms, Wait [\d.]+ ms\./,
  );
  await expect(chart.locator('canvas')).toBeVisible();
  await shot(page, 'phases-chart-1280');

  await page.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor archived.' })).toBeVisible();
  await expect(page.getByTestId('monitor-status')).toHaveText('Archived');
  await expect(page.getByTestId('archived-note')).toContainText('not checked, not listed, not on the status page');
  await expect(page.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'archived-monitor-1280');

  // gone from the public page
  const pub = await page.context().newPage();
  await pub.goto(tenantUrl(company.subdomain, '/'));
  await expect(pub.getByRole('heading', { name: 'Payments', level: 3 })).toBeVisible();
  await expect(pub.getByRole('heading', { name: 'Storefront', level: 3 })).toHaveCount(0);
  await pub.close();

  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await expect(page.getByRole('link', { name: 'Payments' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Storefront' })).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Archived' }).check();
  await expect(page.getByRole('link', { name: 'Storefront' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Payments' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'archived-list-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await page.getByRole('checkbox', { name: 'Archived' }).check();
  await expect(page.getByRole('link', { name: 'Storefront' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Storefront' }).getByText('Archived', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'archived-list-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole('button', { name: 'Restore Storefront' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '1 monitor restored.' })).toBeVisible();
  await expect(page.getByText('No archived monitors.')).toBeVisible();
  await page.getByRole('checkbox', { name: 'Archived' }).uncheck();
  await expect(page.getByRole('link', { name: 'Storefront' })).toBeVisible();

  // bulk: archive both selected, then they are listed under Archived
  await page.getByRole('checkbox', { name: 'Select all loaded monitors' }).check();
  await page.getByRole('button', { name: 'Archive selected' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '2 monitors archived.' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Archived' }).check();
  await expect(page.getByRole('link', { name: 'Storefront' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Payments' })).toBeVisible();

  // a viewer: no archive or restore button; the server refuses the call
  const viewerContext = await browser.newContext();
  const v = await viewerContext.newPage();
  await signInUi(v, tenantUrl(company.subdomain), viewer);
  await v.goto(tenantUrl(company.subdomain, `/monitors/${ids.Payments}`));
  await expect(v.getByRole('heading', { name: 'Payments', level: 2 })).toBeVisible();
  for (const name of ['Archive', 'Restore', 'Edit']) await expect(v.getByRole('button', { name, exact: true })).toHaveCount(0);
  // from the viewer's own page (same origin, the viewer's session), as a crafted request would be
  const refused = await v.evaluate(
    async (path) => (await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status,
    `/api/v1/monitors/${ids.Payments}/restore`,
  );
  expect(refused).toBe(403);
  await viewerContext.close();
});

test('an incident about two monitors is shown against both on the public status page', async ({ page }) => {
  test.setTimeout(90_000);
  const { company, admin } = await seedMonitors(['Checkout', 'Search', 'Docs']);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors/incidents'));
  await page.getByRole('button', { name: 'Write incident' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write incident' });
  await dialog.getByLabel('Title').fill('Slow answers from our provider');
  const affected = dialog.getByRole('group', { name: 'Affected monitors' });
  await affected.getByRole('checkbox', { name: 'Checkout' }).check();
  await affected.getByRole('checkbox', { name: 'Search' }).check();
  await expect(affected.getByText('2 chosen.')).toBeVisible();
  await dialog.getByLabel('Message').fill('Checkout and search answer slowly.');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'incident-two-monitors-dialog-1280');
  await dialog.getByRole('button', { name: 'Publish incident' }).click();
  await expect(page).toHaveURL(/\/monitors\/incidents\/[\w-]+$/);
  await expect(page.getByRole('link', { name: 'Checkout' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Search' })).toBeVisible();

  const pub = await page.context().newPage();
  await pub.goto(tenantUrl(company.subdomain, '/'));
  const active = pub.getByRole('region', { name: 'Active Incidents' });
  await expect(active.getByText('Affects Checkout, Search')).toBeVisible();
  for (const name of ['Checkout', 'Search']) {
    const row = pub.getByRole('listitem').filter({ has: pub.getByRole('heading', { name, level: 3 }) });
    await expect(row.getByRole('link', { name: 'Incident: Slow answers from our provider' })).toBeVisible();
  }
  const docs = pub.getByRole('listitem').filter({ has: pub.getByRole('heading', { name: 'Docs', level: 3 }) });
  await expect(docs.getByRole('link', { name: /^Incident:/ })).toHaveCount(0);
  await expectNoSeriousA11yViolations(pub);
  await pub.setViewportSize({ width: 1280, height: 900 });
  await shot(pub, 'public-two-monitors-1280');
  await pub.setViewportSize({ width: 375, height: 800 });
  expect(await pub.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(pub, 'public-two-monitors-375');

  // the incident's monitors change from its page: Docs instead of Search
  await page.getByRole('button', { name: 'Change monitors' }).click();
  const change = page.getByRole('dialog', { name: 'Affected monitors' });
  await expect(change.getByRole('checkbox', { name: 'Search' })).toBeChecked();
  await change.getByRole('checkbox', { name: 'Search' }).uncheck();
  await change.getByRole('checkbox', { name: 'Docs' }).check();
  await expectNoSeriousA11yViolations(page);
  await change.getByRole('button', { name: 'Save monitors' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Affected monitors saved.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Docs' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Search' })).toHaveCount(0);
  await pub.reload();
  await expect(pub.getByRole('region', { name: 'Active Incidents' }).getByText('Affects Checkout, Docs')).toBeVisible();
  await pub.close();
});
