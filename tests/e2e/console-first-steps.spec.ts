// The first-steps card on a new company's dashboard (issue 13 item 8): each step ticks as the
// company's data shows it done (however it was done), the card leaves when all four are done,
// and a dismissed card stays away for that person.
import type { Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  signInUi,
  tenantUrl,
  test,
  shotsIn,
} from './console-fixtures.ts';

const shot = shotsIn('console-first-steps');

/** A write from the signed-in page itself, as the console's own screens make it. */
const post = (page: Page, url: string, body: unknown) =>
  page.evaluate(
    async ([u, b]) =>
      (await fetch(u as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) })).status,
    [url, body],
  );

test('the steps tick one by one from the company data and the card leaves when all are done', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
  const card = page.getByRole('region', { name: 'First steps' });
  await expect(card).toContainText('0 of 4 done');
  for (const [name, href] of [
    ['Add a monitor', '/monitors'],
    ['See your status page', tenantUrl(company.subdomain, '/')],
    ['Set up alerts', '/settings/alerts'],
    ['Invite your team', '/team'],
  ])
    await expect(card.getByRole('link', { name })).toHaveAttribute('href', href);
  await expect(card.getByRole('listitem').filter({ hasText: 'Add a monitor' })).toContainText('(to do)');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'first-steps-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  // the navigation column collapses with a transition: the page fits once it has
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'first-steps-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  // a private monitor: one step
  expect(await post(page, '/api/v1/monitors', { type: 'push', name: 'Nightly backup', interval_seconds: 3600, is_public: false })).toBe(
    201,
  );
  await page.reload();
  await expect(card).toContainText('1 of 4 done');
  await expect(card.getByRole('listitem').filter({ hasText: 'Add a monitor' })).toContainText('(done)');
  // the status page opened from the card counts too
  await card.getByRole('link', { name: 'See your status page' }).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/'));
  await page.goto(tenantUrl(company.subdomain, '/dashboard'));
  await expect(card).toContainText('2 of 4 done');
  expect(await post(page, '/api/v1/alert-channels', { name: 'Ops', type: 'email', config: { to: ['ops@example.com'] } })).toBe(201);
  await page.reload();
  await expect(card).toContainText('3 of 4 done');
  // a colleague, however added (here by the operator)
  await seedUser(api, 3, company.id);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
  await expect(page.getByTestId('card-red')).toBeVisible();
  await expect(card).toHaveCount(0);
  await api.dispose();
});

test('a dismissed card stays away for that admin; a viewer never gets one', async ({ page, browser }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  await signInUi(page, tenantUrl(company.subdomain), admin);
  const card = page.getByRole('region', { name: 'First steps' });
  await card.getByRole('button', { name: 'Dismiss' }).click();
  await expect(card).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('card-red')).toBeVisible();
  await expect(card).toHaveCount(0);

  const other = await browser.newContext();
  const viewerPage = await other.newPage();
  await signInUi(viewerPage, tenantUrl(company.subdomain), viewer);
  await expect(viewerPage.getByTestId('card-red')).toBeVisible();
  await expect(viewerPage.getByRole('region', { name: 'First steps' })).toHaveCount(0);
  await other.close();
  await api.dispose();
});
