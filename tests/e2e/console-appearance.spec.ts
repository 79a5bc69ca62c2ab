// The spec's default UI settings in Chromium: theme cyan, font Montserrat, light version on. The
// console paints them from the first page (sign-in screens included), Montserrat comes from the
// product's own origin (every font request of every page, no other host), a user changes them on
// /settings/account (Appearance) and they stay after a reload and a new sign-in, for that user
// only; the company's own sign-in page keeps the company's colour. Screenshots at 1366 and 390 px.
import type { Page, Request } from '@playwright/test';
import {
  adminApi,
  expect,
  mainUrl,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  type SeededCompany,
  type SeededUser,
} from './console-fixtures.ts';

const shot = shotsIn('console-appearance', false);
const CYAN_STRONG = 'rgb(14, 116, 144)'; // #0e7490: white text on it 5.4:1
const LIGHT_BG = 'rgb(244, 246, 250)';

let company: SeededCompany;
let admin: SeededUser;
let viewer: SeededUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const api = await adminApi();
  company = await seedCompany(api, { primary_color: '#aa3300' });
  admin = await seedUser(api, 2, company.id);
  viewer = await seedUser(api, 3, company.id);
  await api.dispose();
});

/** Every font the page asks for, to check where it comes from. */
function fontRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'font') seen.push(r);
  });
  return seen;
}

async function look(page: Page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    const html = document.documentElement;
    const body = getComputedStyle(document.body);
    return {
      theme: html.dataset.theme,
      font: html.dataset.font,
      light: html.dataset.light,
      fontFamily: body.fontFamily,
      background: body.backgroundColor,
      montserratLoaded: [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'Montserrat Variable' && f.status === 'loaded'),
    };
  });
}

test('the defaults: cyan, Montserrat from our own origin, light; on sign-in screens and the console, at 1366 and 390 px', async ({
  browser,
}) => {
  for (const width of [1366, 390]) {
    const ctx = await browser.newContext({ viewport: { width, height: 860 } });
    const page = await ctx.newPage();
    const fonts = fontRequests(page);

    await page.goto(mainUrl('/login'));
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    const signIn = page.getByRole('button', { name: 'Sign in' });
    await expect(signIn).toHaveCSS('background-color', CYAN_STRONG);
    expect(await look(page)).toMatchObject({
      theme: 'cyan',
      font: 'montserrat',
      light: 'on',
      background: LIGHT_BG,
      montserratLoaded: true,
    });
    expect((await look(page)).fontFamily).toMatch(/^"Montserrat Variable"/);
    await shot(page, `sign-in-${width}`);

    await signInUi(page, tenantUrl(company.subdomain), admin);
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
    await expect(page.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
    expect(await look(page)).toMatchObject({
      theme: 'cyan',
      font: 'montserrat',
      light: 'on',
      background: LIGHT_BG,
      montserratLoaded: true,
    });
    if (width > 768)
      await expect(page.getByRole('link', { name: 'Dashboard', exact: true })).toHaveCSS('border-left-color', 'rgb(8, 145, 178)');
    await expect(page.locator('.sw-avatar')).toHaveCSS('background-color', CYAN_STRONG);
    await shot(page, `dashboard-${width}`);
    await page.goto(tenantUrl(company.subdomain, '/monitors'));
    await expect(page.getByRole('heading', { name: 'Monitors', level: 1 })).toBeVisible();
    await shot(page, `monitors-${width}`);

    // every font came from the page's own origin (the product serves Montserrat itself)
    expect(fonts.length).toBeGreaterThan(0);
    for (const r of fonts)
      expect([mainUrl(''), tenantUrl(company.subdomain, '')].map((u) => new URL(u).origin)).toContain(new URL(r.url()).origin);
    expect(fonts.every((r) => /\/_astro\/montserrat-[\w-]+\.\w+\.woff2$/.test(new URL(r.url()).pathname))).toBe(true);
    await ctx.close();
  }
});

test("a user's own appearance: changed on the account screen, kept after a reload and a new sign-in, not anyone else's", async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  const page = await ctx.newPage();
  const fonts = fontRequests(page);
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings/account'));
  const card = page.getByTestId('appearance');
  await expect(card.getByRole('radio', { name: 'Cyan' })).toBeChecked();
  await expect(card.getByLabel('Font')).toHaveValue('montserrat');
  await expect(card.getByRole('checkbox', { name: /Light version/ })).toBeChecked();

  await card.getByRole('radio', { name: 'Purple' }).check();
  await card.getByLabel('Font').selectOption({ label: "This device's font" });
  await card.getByRole('checkbox', { name: /Light version/ }).uncheck();
  await card.getByRole('button', { name: 'Save appearance' }).click();
  await expect(card.getByRole('status')).toHaveText('Appearance saved.');
  expect(await look(page)).toMatchObject({ theme: 'purple', font: 'system', light: 'off', background: 'rgb(11, 18, 32)' });
  expect((await look(page)).fontFamily).not.toMatch(/Montserrat/);
  await shot(page, 'account-dark-1366');

  // the page paints it from the start: the server put it on <html>
  const html = await page.evaluate(async () => (await fetch('/dashboard')).text());
  expect(html).toMatch(/<html lang="en" data-theme="purple" data-font="system" data-light="off">/);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save appearance' })).toHaveCSS('background-color', 'rgb(126, 34, 206)');
  expect(await look(page)).toMatchObject({ theme: 'purple', font: 'system', light: 'off' });

  // the company's colours as a theme: its primary colour (#aa3300, already readable) on the buttons
  await page.getByTestId('appearance').getByRole('radio', { name: 'Company colours' }).check();
  await page
    .getByTestId('appearance')
    .getByRole('checkbox', { name: /Light version/ })
    .check();
  await page.getByRole('button', { name: 'Save appearance' }).click();
  await expect(page.getByTestId('appearance').getByRole('status')).toHaveText('Appearance saved.');
  await expect(page.getByRole('button', { name: 'Save appearance' })).toHaveCSS('background-color', 'rgb(170, 51, 0)');
  await shot(page, 'account-company-colours-1366');
  // an expired access token: the server draws the page with the defaults, the console renews the
  // session and takes the user's look from the API
  await ctx.clearCookies({ name: 'sw_at' });
  await page.reload();
  await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('company');
  await expect(page.getByRole('button', { name: 'Save appearance' })).toHaveCSS('background-color', 'rgb(170, 51, 0)');
  expect(fonts.every((r) => new URL(r.url()).origin === new URL(tenantUrl(company.subdomain)).origin)).toBe(true);
  await ctx.close();

  // another user of the same company still has the defaults; a new sign-in keeps the admin's
  const other = await browser.newContext({ viewport: { width: 390, height: 860 } });
  const p = await other.newPage();
  await signInUi(p, tenantUrl(company.subdomain), viewer);
  expect(await look(p)).toMatchObject({ theme: 'cyan', font: 'montserrat', light: 'on' });
  await p.goto(tenantUrl(company.subdomain, '/settings/account'));
  await expect(p.getByTestId('appearance').getByRole('radio', { name: 'Cyan' })).toBeChecked();
  await p.context().clearCookies();
  await signInUi(p, tenantUrl(company.subdomain), admin);
  expect(await look(p)).toMatchObject({ theme: 'company', font: 'system', light: 'on' });
  await other.close();
});

test("the company's sign-in page keeps the company's colour on its button whatever the theme", async ({ page }) => {
  await page.goto(tenantUrl(company.subdomain, '/company-login'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCSS('background-color', 'rgb(170, 51, 0)');
  expect(await look(page)).toMatchObject({ theme: 'cyan', font: 'montserrat', light: 'on', montserratLoaded: true });
});
