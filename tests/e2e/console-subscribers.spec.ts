// Status page subscribers in the console (issue 14, item 7): a visitor subscribes on the
// company's status page, and the company admin finds them under Settings with their state and
// the counts; company admins get no Remove button (super admins only).
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

test('a company admin sees who subscribed to the status page, in which state, with counts', async ({ page, browser }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);

  const visitor = await browser.newPage();
  await visitor.goto(tenantUrl(company.subdomain, '/'));
  await visitor.getByLabel('E-mail address').fill('follower@example.com');
  await visitor.getByRole('button', { name: 'Subscribe' }).click();
  await expect(visitor.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await visitor.close();

  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Status page subscribers' }).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/settings/subscribers'));
  const row = page.getByRole('row', { name: /follower@example.com/ });
  await expect(row).toContainText('pending');
  await expect(row).toContainText('All');
  await expect(page.getByText('0 confirmed, 1 waiting for confirmation, 0 unsubscribed.')).toBeVisible();
  await expect(row.getByRole('button', { name: /Remove/ })).toHaveCount(0);
  // The kind filter lists every way to subscribe (issue 32: chat and SMS besides e-mail and webhook).
  await expect(page.getByLabel('Kind').locator('option')).toHaveText([
    'Any kind',
    'E-mail',
    'Webhook',
    'Slack',
    'Microsoft Teams',
    'Discord',
    'SMS',
  ]);
  await page.getByLabel('Kind').selectOption('sms');
  await expect(page.getByRole('row', { name: /follower@example.com/ })).toHaveCount(0);
  await page.getByLabel('Kind').selectOption('email');
  await expect(row).toContainText('E-mail');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'subscribers-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'subscribers-375');
});
