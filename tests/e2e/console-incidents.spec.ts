// Incidents and maintenance in the console (issue 13), as a company admin on the company's host:
// write, update and resolve an incident and add a postmortem, each step seen on the public status
// page; schedule, end and cancel maintenance. A viewer reads the same screens with no buttons; a
// super admin writes only in the tenant chosen in the selector.
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
  shot,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const target = loopbackTarget((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));

/** A datetime-local value in the browser's zone (the test runs in the same zone). */
const local = (ms: number) => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/**
 * The public status page in its own tab, reloaded until `see` passes: the page's snapshot is
 * rechecked at most once a second, so a change made a moment ago may take that long.
 */
async function onPublicPage(page: Page, subdomain: string, see: (p: Page) => Promise<void>, shotName?: string): Promise<void> {
  const p = await page.context().newPage();
  await expect(async () => {
    await p.goto(tenantUrl(subdomain, '/'));
    await see(p);
  }).toPass({ timeout: 10_000 });
  if (shotName) await shot(p, shotName);
  await p.close();
}

/** Screenshots at 1280 and 375 px; at 375 nothing may scroll sideways. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '240px');
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '60px');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '240px');
}

test('a company admin writes, updates and resolves an incident and plans maintenance; a viewer only reads', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  const m = await api.post('/api/v1/monitors', {
    data: {
      type: 'http',
      company_id: company.id,
      name: 'Checkout',
      url: `http://127.0.0.1:${target.port()}/`,
      interval_seconds: 3600,
      is_public: true,
    },
  });
  expect(m.status(), await m.text()).toBe(201);

  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors/incidents'));
  await expect(page.getByRole('heading', { name: 'Incidents', level: 2 })).toBeVisible();
  await expect(page.getByText('No incidents match these filters.')).toBeVisible();

  // Write
  await page.getByRole('button', { name: 'Write incident' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write incident' });
  await dialog.getByLabel('Title').fill('Card payments are slow');
  await dialog.getByLabel('Impact').selectOption('high');
  await dialog.getByRole('group', { name: 'Affected monitors' }).getByRole('checkbox', { name: 'Checkout' }).check();
  await dialog.getByLabel('Message').fill('Payments take up to a minute to confirm.');
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'incidents-write');
  await dialog.getByRole('button', { name: 'Publish incident' }).click();
  await expect(page).toHaveURL(/\/monitors\/incidents\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'Card payments are slow' })).toBeVisible();
  await onPublicPage(page, company.subdomain, async (p) => {
    const active = p.getByRole('region', { name: 'Active Incidents' });
    await expect(active.getByText('Card payments are slow')).toBeVisible({ timeout: 500 });
    await expect(active.getByText('Payments take up to a minute to confirm.')).toBeVisible({ timeout: 500 });
  });

  // Update
  const post = page.getByRole('region', { name: 'Post an update' });
  await post.getByLabel('Status').selectOption('identified');
  // the message itself (its copies per language are labelled 'Message in Deutsch', …)
  await post.locator('#u-message').fill('Our payment provider confirmed a fault.');
  await post.getByRole('button', { name: 'Post update' }).click();
  await expect(page.getByRole('heading', { name: 'Updates (2)' })).toBeVisible();
  await onPublicPage(page, company.subdomain, async (p) => {
    await expect(p.getByText('Our payment provider confirmed a fault.')).toBeVisible({ timeout: 500 });
    await expect(p.locator('.inc-status', { hasText: 'Identified' })).toBeVisible({ timeout: 500 });
  });
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'incident-open');

  // Resolve, then the postmortem
  await post.locator('#u-message').fill('Payments confirm instantly again.');
  await post.getByRole('button', { name: 'Resolve with this message' }).click();
  await expect(page.getByRole('heading', { name: 'Postmortem' })).toBeVisible();
  await page.getByLabel('What happened, why, and what changes').fill('A certificate at our provider expired. We now watch it.');
  await page.getByRole('button', { name: 'Save postmortem' }).click();
  await expect(page.getByText('Postmortem saved.')).toBeVisible();
  await onPublicPage(
    page,
    company.subdomain,
    async (p) => {
      const past = p.getByRole('region', { name: 'Past Incidents' });
      await expect(past.getByText('Card payments are slow')).toBeVisible({ timeout: 500 });
      await expect(past.getByText('Payments confirm instantly again.')).toBeVisible({ timeout: 500 });
      await expect(past.getByText('A certificate at our provider expired. We now watch it.')).toBeVisible({ timeout: 500 });
      await expect(p.getByRole('region', { name: 'Active Incidents' })).toHaveCount(0, { timeout: 500 });
    },
    'public-postmortem',
  );
  await shots(page, 'incident-resolved');

  // The list, filtered
  await page.goto(tenantUrl(company.subdomain, '/monitors/incidents'));
  await page.getByLabel('Status').selectOption('resolved');
  await page.getByLabel('Kind').selectOption('manual');
  await expect(page.getByRole('link', { name: 'Card payments are slow' })).toBeVisible();
  await page.getByLabel('Status').selectOption('open');
  await expect(page.getByText('No incidents match these filters.')).toBeVisible();
  await page.getByLabel('Status').selectOption('');
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'incidents-list');

  // Maintenance: schedule one running now, end it; schedule one for later, cancel it.
  await page.goto(tenantUrl(company.subdomain, '/monitors/maintenance'));
  await page.getByRole('button', { name: 'Schedule maintenance' }).click();
  let form = page.getByRole('dialog', { name: 'Schedule maintenance' });
  await form.getByLabel('Title').fill('Database upgrade');
  await form.getByLabel('Description').fill('Checkout may pause for a few seconds.');
  await form.getByLabel('Starts').fill(local(Date.now() - 60_000));
  await form.getByLabel('Ends').fill(local(Date.now() + 3600_000));
  await form.getByRole('group', { name: 'Affected monitors' }).getByRole('checkbox', { name: 'Checkout' }).check();
  await form.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Maintenance scheduled.')).toBeVisible();
  const running = page.getByRole('row', { name: /Database upgrade/ });
  await expect(running.getByText('active')).toBeVisible();
  await onPublicPage(page, company.subdomain, async (p) => {
    await expect(p.getByRole('region', { name: 'Scheduled Maintenance' }).getByText('Database upgrade')).toBeVisible({ timeout: 500 });
    // and against the component it covers
    await expect(p.getByRole('link', { name: 'Maintenance in progress: Database upgrade' })).toBeVisible({ timeout: 500 });
  });

  await page.getByRole('button', { name: 'Schedule maintenance' }).click();
  form = page.getByRole('dialog', { name: 'Schedule maintenance' });
  await form.getByLabel('Title').fill('Network patching');
  await form.getByLabel('Starts').fill(local(Date.now() + 24 * 3600_000));
  await form.getByLabel('Ends').fill(local(Date.now() + 26 * 3600_000));
  await form.getByLabel('Repeats').selectOption('weekly');
  await form.getByRole('button', { name: 'Schedule' }).click();
  const later = page.getByRole('row', { name: /Network patching/ });
  await expect(later.getByText('scheduled')).toBeVisible();
  await expect(later.getByText('Weekly')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'maintenance-list');

  await running.getByRole('button', { name: 'End now: Database upgrade' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'End now' }).click();
  await expect(running.getByText('completed')).toBeVisible();
  await later.getByRole('button', { name: 'Cancel Network patching' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel maintenance' }).click();
  await expect(later.getByText('cancelled')).toBeVisible();
  await expect(page.getByRole('button', { name: /Delete/ })).toHaveCount(0);
  await onPublicPage(page, company.subdomain, async (p) => {
    await expect(p.getByText('Database upgrade')).toHaveCount(0, { timeout: 500 });
    await expect(p.getByText('Network patching')).toHaveCount(0, { timeout: 500 });
  });

  // A viewer: the same screens, no buttons that would fail.
  const vctx = await browser.newContext();
  const v = await vctx.newPage();
  await signInUi(v, tenantUrl(company.subdomain), viewer);
  await v.goto(tenantUrl(company.subdomain, '/monitors/incidents'));
  await expect(v.getByRole('link', { name: 'Card payments are slow' })).toBeVisible();
  await expect(v.getByRole('button', { name: 'Write incident' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(v);
  await v.getByRole('link', { name: 'Card payments are slow' }).click();
  await expect(v.getByText('A certificate at our provider expired. We now watch it.')).toBeVisible();
  await expect(v.getByRole('main').getByRole('button')).toHaveCount(0);
  await v.goto(tenantUrl(company.subdomain, '/monitors/maintenance'));
  await expect(v.getByRole('row', { name: /Network patching/ })).toBeVisible();
  await expect(v.getByRole('main').getByRole('button')).toHaveCount(0);
  await expectNoSeriousA11yViolations(v);
  await shots(v, 'maintenance-viewer');
  await vctx.close();
});

test('a super admin writes in the tenant chosen in the selector, and only then', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/monitors/incidents'));
  await expect(page.getByText('Choose a tenant in the selector to write an incident.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Write incident' })).toHaveCount(0);
  await page.getByLabel('Tenant', { exact: true }).selectOption(company.id);
  await page.getByRole('button', { name: 'Write incident' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write incident' });
  await dialog.getByLabel('Title').fill('Login page errors');
  await dialog.getByLabel('Message').fill('Some sign-ins fail.');
  await dialog.getByRole('button', { name: 'Publish incident' }).click();
  await expect(page.getByRole('heading', { name: 'Login page errors' })).toBeVisible();
  await page.goto(mainUrl('/monitors/incidents'));
  const row = page.getByRole('row', { name: /Login page errors/ });
  await expect(row.getByText(company.name)).toBeVisible();
  await page.goto(mainUrl('/monitors/maintenance'));
  await expect(page.getByRole('button', { name: 'Schedule maintenance' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
