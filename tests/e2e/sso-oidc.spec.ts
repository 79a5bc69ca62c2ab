// Single sign-on with OpenID Connect in Chromium (issue 31), against a real OpenID provider on
// loopback (oidc-provider, its own login form): a company admin sets up SSO on Settings > Single
// sign-on (the redirect URI shown, the provider's discovery checked on save, verified domains
// only, the Require SSO warning), then a new person signs in with "Sign in with SSO" on the
// company's sign-in page, from the main host by e-mail, and a refused sign-in shows its message.
// Both widths, screenshots looked at.
import type { Page } from '@playwright/test';
import { insertVerifiedDomain } from './support/server-db.ts';
import { startTestIdp } from '../support/oidc-idp.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  seedUser,
  serverDataDir,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const shot = shotsIn('sso-oidc');

async function bothWidths(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The provider's own sign-in form (oidc-provider's development login). */
async function providerLogin(page: Page, login: string): Promise<void> {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('a company admin sets up OpenID Connect, and people sign in with SSO on the company host and from the main host', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'enterprise' });
  const domain = `${company.subdomain}.example`;
  insertVerifiedDomain(serverDataDir(), company.id, domain);
  const admin = await seedUser(api, 2, company.id);
  const callback = tenantUrl(company.subdomain, '/api/v1/auth/sso/callback');
  const idp = await startTestIdp({ redirectUris: [callback] });
  idp.accounts.set('grace', { email: `grace@${domain}`, email_verified: true, name: 'Grace Hopper', groups: ['ops-admins'] });
  idp.accounts.set('ivan', { email: `ivan@${domain}`, email_verified: false, name: 'Ivan' });
  idp.accounts.set('judy', { email: `judy@${domain}`, email_verified: true, name: 'Judy', groups: [] });
  try {
    await signInUi(page, tenantUrl(company.subdomain), admin);
    await page.goto(tenantUrl(company.subdomain, '/settings'));
    await page.getByRole('link', { name: 'Single sign-on' }).click();
    await expect(page.getByRole('heading', { name: 'Identity provider' })).toBeVisible();
    await expect(page.getByLabel('Redirect URI (register it at your provider)')).toHaveValue(callback);

    // A wrong issuer: the discovery document is checked before anything is saved.
    await page.getByLabel('Issuer URL').fill(`${idp.issuer}/wrong`);
    await page.getByLabel('Client ID').fill(idp.clientId);
    await page.getByLabel('Client secret').fill(idp.clientSecret);
    await page.getByLabel('Scopes').fill('openid email profile groups');
    await page.getByLabel('Group claim').fill('groups');
    await page.getByLabel('Group → role').fill('ops-admins = admin');
    await page.getByLabel(domain).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(/No valid OpenID Connect discovery document/)).toBeVisible();

    await page.getByLabel('Issuer URL').fill(idp.issuer);
    await page.getByLabel('Require SSO: no password sign-in or password reset for your people').check();
    await expect(
      page.getByText('Saving with Require SSO on signs out everyone of your company except the break-glass admin'),
    ).toBeVisible();
    await page.getByLabel('Break-glass admin').selectOption(admin.id);
    await expectNoSeriousA11yViolations(page);
    await bothWidths(page, 'settings-require-sso');
    await page.getByLabel('Require SSO: no password sign-in or password reset for your people').uncheck();
    const put = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/v1/company/sso'));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await put).status()).toBe(200);
    await expect(page.getByText('Single sign-on settings saved.')).toBeVisible();
    await expect(page.getByText('A secret is stored (encrypted). Leave empty to keep it.')).toBeVisible();
    await expect(page.getByLabel('Client secret')).toHaveValue('');
    await bothWidths(page, 'settings-saved');

    // A new person on the company's sign-in page: to the provider and back, signed in as admin.
    const visitor = await browser.newContext();
    const p = await visitor.newPage();
    await p.goto(tenantUrl(company.subdomain, '/login'));
    await expect(p.getByRole('link', { name: 'Sign in with SSO' })).toBeVisible();
    await bothWidths(p, 'login-company-host');
    await p.getByRole('link', { name: 'Sign in with SSO' }).click();
    await expect(p).toHaveURL(new RegExp(`^${idp.issuer}/`));
    await providerLogin(p, 'grace');
    await p.waitForURL((u) => u.pathname === '/dashboard');
    // created just in time, admin from the mapped group
    await expect(p.getByText(`grace@${domain}`).first()).toBeVisible();
    await expect(p.getByText('Customer Admin').first()).toBeVisible();
    await bothWidths(p, 'signed-in-dashboard');
    await visitor.close();

    // From the main host: the e-mail's domain finds the company.
    const main = await browser.newContext();
    const m = await main.newPage();
    await m.goto(mainUrl('/login'));
    await m.getByRole('link', { name: 'Sign in with SSO' }).click();
    await expect(m.getByLabel('Password', { exact: true })).toHaveCount(0);
    await m.getByLabel('Email').fill(`judy@${domain}`);
    await bothWidths(m, 'login-main-host-sso');
    await m.getByRole('button', { name: 'Continue with SSO' }).click();
    await providerLogin(m, 'judy');
    await m.waitForURL((u) => u.hostname === `${company.subdomain}.localhost` && u.pathname === '/dashboard');
    await main.close();

    // A refusal comes back to the sign-in page with a message the person can act on.
    const refused = await browser.newContext();
    const r = await refused.newPage();
    await r.goto(tenantUrl(company.subdomain, '/login'));
    await r.getByRole('link', { name: 'Sign in with SSO' }).click();
    await providerLogin(r, 'ivan');
    await r.waitForURL((u) => u.pathname === '/login');
    await expect(r.getByRole('alert')).toHaveText(
      'Your identity provider has not verified your e-mail address, so you were not signed in. Ask your administrator.',
    );
    await bothWidths(r, 'login-refused');
    await refused.close();
  } finally {
    await idp.close();
  }
});
