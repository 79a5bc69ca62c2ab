// Private status pages in Chromium against the built server: a company admin sets "Anyone with
// the password" on the Access section of /monitors/status-page; a visitor then gets the
// password form instead of the page (401), with and without JavaScript, a wrong password says
// so, the right one opens the page; a share link made on the same screen opens it for another
// viewer; the branded sign-in page lists nothing of it. axe on the form and the screen;
// screenshots at 1280 and 375 px.
import type { Browser } from '@playwright/test';
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
} from './console-fixtures.ts';

const shot = shotsIn('public-private-page');
const PAGE_PASSWORD = 'Harbour lights 42';

const target = loopbackTarget((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});

async function visitor(browser: Browser, javaScriptEnabled: boolean, width: number) {
  const ctx = await browser.newContext({ javaScriptEnabled, viewport: { width, height: 800 } });
  return { ctx, page: await ctx.newPage() };
}

test('an admin makes the page private; visitors need the password (with and without JavaScript) or a share link', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'professional' });
  const admin = await seedUser(api, 2, company.id);
  const r = await api.post('/api/v1/monitors', {
    data: {
      type: 'http',
      company_id: company.id,
      name: 'Lighthouse API',
      url: `http://127.0.0.1:${target.port()}/`,
      is_public: true,
      interval_seconds: 3600,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  await api.dispose();
  const home = tenantUrl(company.subdomain, '/');

  // public first: anyone reads it
  const before = await visitor(browser, true, 1280);
  await before.page.goto(home);
  await expect(before.page.getByText('Lighthouse API').first()).toBeVisible();
  await before.ctx.close();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors/status-page'));
  const access = page.getByRole('region', { name: 'Access' });
  await access.getByLabel('Anyone with the password').check();
  await access.getByLabel('Page password').fill(PAGE_PASSWORD);
  await access.getByRole('button', { name: 'Save access' }).click();
  await expect(access.getByRole('alert')).toHaveText('Access saved. It applies now to every document of the page.');
  await expect(access.getByLabel('New page password')).toBeVisible();
  await access.getByLabel('For', { exact: true }).fill('Auditor');
  await access.getByLabel('Valid for').selectOption({ label: '7 days' });
  await access.getByRole('button', { name: 'Create link' }).click();
  const shareUrl = await access.getByLabel(/New link/).inputValue();
  expect(shareUrl).toContain(`${company.subdomain}.localhost`);
  await expect(access.getByRole('button', { name: 'Revoke Auditor' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await access.screenshot({ path: 'test-results/public-private-page/admin-access-1280.png' });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByRole('region', { name: 'Access' }).getByLabel('Anyone with the password')).toBeChecked();
  await shot(page, 'admin-access-375');

  // The admin's own session is no page password: the form shows for them too (axe checks it here).
  await page.setViewportSize({ width: 1280, height: 800 });
  expect((await page.goto(tenantUrl(company.subdomain, '/history')))?.status()).toBe(401);
  await expect(page.getByLabel('Password')).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  for (const js of [true, false]) {
    for (const width of [1280, 375]) {
      const v = await visitor(browser, js, width);
      const answer = await v.page.goto(tenantUrl(company.subdomain, '/history'));
      expect(answer?.status()).toBe(401);
      await expect(v.page.getByRole('heading', { name: 'This status page is private' })).toBeVisible();
      await expect(v.page.getByText('Lighthouse API')).toHaveCount(0);
      await shot(v.page, `form-${js ? 'js' : 'nojs'}-${width}`);
      await v.page.getByLabel('Password').fill('wrong password');
      await v.page.getByRole('button', { name: 'Show the page' }).click();
      await expect(v.page.getByRole('alert')).toHaveText('That password is not correct.');
      if (width === 375) await shot(v.page, `form-wrong-${js ? 'js' : 'nojs'}-375`);
      await v.page.getByLabel('Password').fill(PAGE_PASSWORD);
      await v.page.getByRole('button', { name: 'Show the page' }).click();
      await expect(v.page).toHaveURL(tenantUrl(company.subdomain, '/history'));
      await v.page.goto(home);
      await expect(v.page.getByText('Lighthouse API').first()).toBeVisible();
      if (js && width === 1280) await shot(v.page, 'page-after-password-1280');
      await v.ctx.close();
    }
  }

  // The branded sign-in page lists no monitors of a private page.
  const login = await visitor(browser, true, 1280);
  await login.page.goto(tenantUrl(company.subdomain, '/company-login'));
  await expect(login.page.getByText('This status page is private.')).toBeVisible();
  await expect(login.page.getByText('Lighthouse API')).toHaveCount(0);
  await login.ctx.close();

  const shared = await visitor(browser, false, 375);
  await shared.page.goto(shareUrl);
  await expect(shared.page).toHaveURL(home);
  await expect(shared.page.getByText('Lighthouse API').first()).toBeVisible();
  await shot(shared.page, 'shared-375');
  await shared.ctx.close();
});
