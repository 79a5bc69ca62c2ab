// The client rules in the browser against the real server: the silent renewal on 401 (exactly one
// refresh-token call, the waiting requests replayed), the 403 redirects, the main-host redirect of a
// company user, and the diagnostic page.
import type { Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  expect,
  test,
  type SeededUser,
} from './console-fixtures.ts';

test('an expired access token is renewed silently once and the failed calls are replayed', async ({ page, context }) => {
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await expect(page.getByRole('main').getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
  // the access token goes away (as when it expires); the refresh token stays
  await context.clearCookies({ name: 'sw_at' });
  const refreshes: string[] = [];
  const failures: string[] = [];
  const answered: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/v1/auth/refresh-token')) refreshes.push(r.url());
  });
  page.on('response', (r) => {
    const path = new URL(r.url()).pathname;
    if (r.status() === 401) failures.push(path);
    else if (r.ok() && failures.includes(path)) answered.push(path);
  });
  // Users Management loads the users and the companies at once; the first calls after the token
  // went (these, or the live dashboard's own refresh) fail, one renewal, each failed call replayed
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('row', { name: new RegExp(E2E_ADMIN.email) })).toBeVisible();
  expect(refreshes).toHaveLength(1);
  expect(failures.length).toBeGreaterThan(0);
  await expect.poll(() => failures.every((f) => answered.includes(f))).toBe(true);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('when the renewal fails too, the error is passed on (and a reload goes to /login)', async ({ page, context }) => {
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await context.clearCookies();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenants' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load companies. Please try again.' })).toBeVisible();
  await page.reload();
  await expect(page).toHaveURL(mainUrl('/login'));
});

// A real 403 from a data call: the account is demoted to company admin while an old tab still
// shows the super admin console, and signs in again in another tab (demotion alone ends the
// sessions, so the old tab would get 401s and a failed renewal, not 403). The old tab's next admin
// call carries the new company session and the server refuses it with 403.
async function demoteAndSignInAgain(page: Page, origin: string, user: SeededUser, companyId: string): Promise<void> {
  const api = await adminApi();
  const r = await api.put(`/api/v1/admin/users/${user.id}`, {
    data: { name: user.name, email: user.email, user_type: '2', company_id: companyId },
  });
  expect(r.status(), await r.text()).toBe(200);
  await api.dispose();
  const other = await page.context().newPage();
  await signInUi(other, origin, user);
  await other.close();
}

test('a 403 from a data call sends the browser to /login on the main host', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const operator = await seedUser(api, 1, null);
  await api.dispose();
  await signInUi(page, mainUrl(), operator);
  await expect(page.getByRole('main').getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
  await demoteAndSignInAgain(page, mainUrl(), operator, company.id);
  const forbidden = page.waitForResponse((r) => r.url().includes('/api/v1/admin/companies') && r.status() === 403);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenants' }).click();
  await forbidden;
  await expect(page).toHaveURL(mainUrl('/login'));
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
});

test('a 403 from a data call sends the browser to /company-login on a company subdomain', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const operator = await seedUser(api, 1, null);
  await api.dispose();
  // a super admin signing in on the subdomain keeps a session there (and goes on to the main site)
  await signInUi(page, tenantUrl(company.subdomain), operator);
  await expect(page).toHaveURL(mainUrl('/dashboard'));
  await page.goto(tenantUrl(company.subdomain, '/admin/tenants'));
  await expect(page.getByRole('main').getByRole('heading', { name: 'Tenants Management' })).toBeVisible();
  await demoteAndSignInAgain(page, tenantUrl(company.subdomain), operator, company.id);
  // Users Management also lists the companies, which only super admins may read
  const forbidden = page.waitForResponse((r) => r.url().includes('/api/v1/admin/companies') && r.status() === 403);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
  await forbidden;
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/company-login'));
  await expect(page.getByRole('heading', { name: 'Public API Status' })).toBeVisible();
});

test('a company admin opening /notifications on the main host is sent to their subdomain, with no refused call', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  await api.dispose();
  await signInUi(page, mainUrl(), admin);
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 403) refused.push(r.url());
  });
  await page.goto(mainUrl('/notifications'));
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/notifications'));
  await expect(page.getByRole('main').getByRole('heading', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(page.getByTestId('notification-counts')).toHaveText('0 unread · 0 read');
  expect(refused).toEqual([]);
});

test('backend test page: token state, role, claims from the server, unsigned test token rejected, backend checks', async ({ page }) => {
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/backend-test'));
  await expect(page.getByRole('main').getByRole('heading', { name: 'Backend Test', exact: true })).toBeVisible();
  await expect(page.getByTestId('token-state')).toHaveText('Valid');
  await expect(page.getByTestId('bt-role')).toHaveText('super_admin');
  await expect(page.getByTestId('bt-tenant')).toHaveText('Global view');
  await expect(page.getByTestId('claims')).toContainText(`"email": "${E2E_ADMIN.email}"`);
  await expect(page.getByTestId('claims')).toContainText('"exp":');
  await page.getByRole('button', { name: 'Set Test Token' }).click();
  await expect(page.getByTestId('token-verdict')).toContainText('The server rejected the unsigned test token (401)');
  await expect(page.getByTestId('stored-token')).toContainText('well-formed');
  await page.getByRole('button', { name: 'Run Backend Tests' }).click();
  for (const name of ['Health', 'Companies', 'Dashboard summary', 'RED metrics (24h)']) {
    await expect(page.getByTestId(`check-${name}`)).toContainText('PASS');
    await expect(page.getByTestId(`check-${name}`)).toContainText('200');
  }
  await expect(page.getByTestId('check-Health')).toContainText('status ok');
  await shot(page, 'backend-test-1280');
  await expectNoSeriousA11yViolations(page);
});

test("a screen that cannot render shows 'Something went wrong.' with the error text and stack", async ({ page }) => {
  await signInUi(page, mainUrl(), E2E_ADMIN);
  // a malformed answer (an object where the contract promises a list) breaks the incidents card
  await page.route('**/api/v1/incidents/recent*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: '{"unexpected":true}' }),
  );
  await page.goto(mainUrl('/dashboard'));
  await expect(page.getByRole('heading', { name: 'Something went wrong.' })).toBeVisible();
  await expect(page.locator('.sw-error-text')).toContainText(/map|not a function/);
  await page.getByText('Stack').click();
  await expect(page.locator('.sw-stack')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
});
