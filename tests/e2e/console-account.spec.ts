// /settings/account in the browser: a company admin turns on two-factor sign-in (the code
// computed here with otplib from the key the screen shows, as an authenticator app would), keeps
// the recovery codes, signs out and signs in again with a code; creates an API token, uses it
// with fetch (no cookies) for a read and a refused write, and revokes it; signs out another
// browser from the active sessions. A viewer reaches the screen from the header. Axe and screenshots at 1280 and 375 px.
import { generate } from 'otplib';
import type { Page } from '@playwright/test';
import {
  adminApi,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  expect,
  test,
} from './console-fixtures.ts';

/** A page's fetch with only the bearer token (credentials omitted: no session cookie goes). */
function fetchWithToken(page: Page, token: string, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ token, method, path, body }) => {
      const r = await fetch(path, {
        method,
        credentials: 'omit',
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return r.status;
    },
    { token, method, path, body },
  );
}

test.describe('Account', () => {
  test.setTimeout(120_000);

  test('two-factor sign-in: enrol with the QR key, recovery codes once, sign out, sign in with a code', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const admin = await seedUser(api, 2, co.id);
    await page.setViewportSize({ width: 1280, height: 900 });
    await signInUi(page, tenantUrl(co.subdomain), admin);
    await page.getByRole('link', { name: 'Account' }).first().click();
    await expect(page).toHaveURL(/\/settings\/account$/);
    const twoFactor = page.getByTestId('two-factor');
    await expect(twoFactor).toContainText('Off');
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'account-1280');

    await twoFactor.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await expect(page.getByRole('img', { name: 'QR code of your authenticator key' })).toBeVisible();
    const secret = await page.getByLabel('Or type this key into the app').inputValue();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'account-enrol-1280');
    await page.getByLabel('Code from the app').fill('000000' === (await generate({ secret })) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByText('The code is not correct.')).toBeVisible();
    const enrolStep = Math.floor(Date.now() / 30_000);
    await page.getByLabel('Code from the app').fill(await generate({ secret, epoch: enrolStep * 30 }));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const codes = page.getByTestId('recovery-codes').getByRole('listitem');
    await expect(codes).toHaveCount(10);
    await shot(page, 'account-recovery-1280');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect(twoFactor).toContainText('10 of 10 recovery codes left');

    // sign out, then in again: the password alone is not enough
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('dialog', { name: 'Sign out' }).getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((u) => ['/login', '/company-login'].includes(u.pathname));
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter the 6-digit code from your authenticator app.')).toBeVisible();
    await expect(page).toHaveURL(/\/(company-)?login/);
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'account-login-code-1280');
    // the enrolment's code is spent: the next step's code, which the server takes up to one step
    // early (clock drift), or the current one when its step has come (no waiting for the clock)
    const signInStep = Math.max(enrolStep + 1, Math.floor(Date.now() / 30_000));
    await page.getByLabel('Authentication code').fill(await generate({ secret, epoch: signInStep * 30 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((u) => u.pathname === '/dashboard');
  });

  test('API tokens: created and shown once, used with fetch, read-only refuses writes, revoked stops working', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const admin = await seedUser(api, 2, co.id);
    await signInUi(page, tenantUrl(co.subdomain), admin);
    await page.goto(tenantUrl(co.subdomain, '/settings/account'));
    const card = page.getByTestId('api-tokens');
    await expect(card).toContainText('No API tokens yet.');
    await card.getByLabel('Name').fill('Grafana');
    await card.getByRole('button', { name: 'Create token' }).click();
    const token = await page.getByLabel('Your new token').inputValue();
    expect(token).toMatch(/^swt_/);
    await expect(card.getByRole('row').filter({ hasText: 'Grafana' })).toContainText('Read only');
    await page.setViewportSize({ width: 1280, height: 900 });
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'account-token-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'account-token-375');

    expect(await fetchWithToken(page, token, 'GET', '/api/v1/monitors')).toBe(200);
    expect(
      await fetchWithToken(page, token, 'POST', '/api/v1/monitors', {
        name: 'x',
        type: 'http',
        url: 'http://127.0.0.1:9/',
        interval_seconds: 60,
        is_public: false,
      }),
    ).toBe(403);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByLabel('Your new token')).toHaveCount(0);

    await card.getByRole('button', { name: 'Revoke Grafana' }).click();
    await page.getByRole('dialog', { name: 'Revoke API token' }).getByRole('button', { name: 'Revoke' }).click();
    await expect(card).toContainText('Token “Grafana” revoked.');
    expect(await fetchWithToken(page, token, 'GET', '/api/v1/monitors')).toBe(401);
  });

  test("active sessions: 'sign out other sessions' ends the other browser, this one stays", async ({ page, browser }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const admin = await seedUser(api, 2, co.id);
    const other = await (await browser.newContext()).newPage();
    await signInUi(other, tenantUrl(co.subdomain), admin);
    await signInUi(page, tenantUrl(co.subdomain), admin);
    await page.goto(tenantUrl(co.subdomain, '/settings/account'));
    const card = page.getByTestId('sessions');
    await expect(card.getByRole('row')).toHaveCount(3);
    await expect(card).toContainText('This browser');
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'account-sessions-1280');
    await card.getByRole('button', { name: 'Sign out other sessions' }).click();
    await page.getByRole('dialog', { name: 'Sign out other sessions' }).getByRole('button', { name: 'Sign out others' }).click();
    await expect(card).toContainText('Your other sessions are signed out.');
    await expect(card.getByRole('row')).toHaveCount(2);
    await other.reload();
    await other.waitForURL((u) => ['/login', '/company-login'].includes(u.pathname));
    await page.reload();
    await expect(page.getByTestId('sessions')).toContainText('This browser');
  });

  test('a viewer reaches the account screen from the header', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const viewer = await seedUser(api, 3, co.id);
    await signInUi(page, tenantUrl(co.subdomain), viewer);
    await page.getByRole('link', { name: 'Account' }).first().click();
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'API tokens' })).toBeVisible();
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'account-viewer-375');
  });
});
