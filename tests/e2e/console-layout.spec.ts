// The signed-in layout for each role: menus, active item, role badge, header, collapsing
// navigation, tenant switching (with its audit event), sign-out, Page Not Found, placeholders.
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
} from './console-fixtures.ts';

const menu = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test.describe('super admin', () => {
  test('menu, active item, role badge and header', async ({ page }) => {
    await signInUi(page, mainUrl(), E2E_ADMIN);
    await expect(page).toHaveURL(mainUrl('/dashboard'));
    await expect(menu(page).getByRole('link')).toHaveText(
      [
        'Dashboard',
        'Global Metrics',
        'All Traces',
        'Monitors',
        'Status Page',
        'API Intelligence',
        'Security',
        'Reports',
        'Users',
        'Team',
        'Tenants',
        'Settings',
      ].map((t) => new RegExp(t)),
    );
    await expect(menu(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('role-badge')).toHaveText('Super Administrator');
    const header = page.getByRole('banner');
    await expect(header.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
    await expect(header.getByText(E2E_ADMIN.email)).toBeVisible();
    await expect(header.getByText('Super Administrator')).toBeVisible();
    await expect(header.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(page.getByTestId('tenant-indicator')).toHaveText('Global view');
    await shot(page, 'super-dashboard-1280');
    await expectNoSeriousA11yViolations(page);
    // the screens and placeholders, and the active rule (by prefix) while navigating inside the app
    for (const [label, path] of [
      ['Global Metrics', '/metrics'],
      ['All Traces', '/traces'],
      ['Monitors', '/monitors'],
      ['API Intelligence', '/api-intelligence'],
      ['Security', '/security'],
      ['Reports', '/reports'],
      ['Settings', '/settings'],
    ]) {
      await menu(page).getByRole('link', { name: label }).click();
      await expect(page).toHaveURL(mainUrl(path));
      // Monitors, Metrics, Traces, API Intelligence, Security, Reports and Settings are real screens now
      if (path === '/monitors') await expect(page.getByRole('form', { name: 'Search and filter monitors' })).toBeVisible();
      else if (path === '/settings') await expect(page.getByRole('link', { name: 'Platform', exact: true })).toBeVisible();
      else if (path === '/metrics') await expect(page.getByRole('form', { name: 'Metric filters' })).toBeVisible();
      else if (path === '/traces') await expect(page.getByRole('form', { name: 'Trace search' })).toBeVisible();
      else if (path === '/security') await expect(page.getByRole('heading', { name: /^Assets \(\d+\)$/ })).toBeVisible();
      else if (path === '/api-intelligence') await expect(page.getByRole('form', { name: 'API intelligence filters' })).toBeVisible();
      else if (path === '/reports') await expect(page.getByRole('heading', { name: 'SLA reports', level: 2 })).toBeVisible();
      else await expect(page.getByText('Coming Soon')).toBeVisible();
      await expect(menu(page).getByRole('link', { name: label })).toHaveAttribute('aria-current', 'page');
      await expect(menu(page).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');
    }
    await page.goto(mainUrl('/traces/abc123'));
    await expect(menu(page).getByRole('link', { name: 'All Traces' })).toHaveAttribute('aria-current', 'page');
  });

  test('a Skip to main content link comes first and moves focus to the main region', async ({ page }) => {
    await signInUi(page, mainUrl(), E2E_ADMIN);
    await page.goto(mainUrl('/admin/tenants'));
    await expect(page.getByRole('main').getByRole('heading', { name: 'Tenants Management' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    // the next Tab continues inside the main region, not in the menu
    await page.keyboard.press('Tab');
    expect(await page.getByRole('main').evaluate((m) => m.contains(document.activeElement) && m !== document.activeElement)).toBe(true);
  });

  test("paths outside the super admin's routes show 'Page Not Found' with Go Back and Home", async ({ page }) => {
    await signInUi(page, mainUrl(), E2E_ADMIN);
    for (const path of ['/no-such-page', '/admin/nothing']) {
      const r = await page.goto(mainUrl(path));
      await expect(page.getByRole('main').getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
      expect(r?.status()).toBe(404);
    }
  });

  test('navigation collapses to 60 px and back; below 768 px it is collapsed and an overlay closes it', async ({ page }) => {
    await signInUi(page, mainUrl(), E2E_ADMIN);
    const nav = menu(page);
    await expect(nav).toHaveCSS('width', '240px');
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    await expect(nav).toHaveCSS('width', '60px');
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await expect(nav).toHaveCSS('width', '240px');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(nav).toHaveCSS('width', '60px');
    await expect(page.getByTestId('nav-overlay')).toHaveCount(0);
    await shot(page, 'super-dashboard-375');
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await expect(nav).toHaveCSS('width', '240px');
    await expect(page.getByTestId('nav-overlay')).toBeVisible();
    await shot(page, 'super-nav-open-375');
    await page.getByTestId('nav-overlay').click({ position: { x: 350, y: 400 } });
    await expect(nav).toHaveCSS('width', '60px');
    await expect(page.getByTestId('nav-overlay')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('tenant switching: inactive tenants disabled, choice kept, tenant_switch audit event with previous and new ids', async ({
    page,
  }) => {
    const api = await adminApi();
    const active = await seedCompany(api);
    const inactive = await seedCompany(api, { status: 'inactive', is_active: false });
    await signInUi(page, mainUrl(), E2E_ADMIN);
    const select = page.getByLabel('Tenant', { exact: true });
    await expect(select.locator(`option[value="${inactive.id}"]`)).toBeDisabled();
    await expect(select.locator(`option[value="${active.id}"]`)).toBeEnabled();
    const audit = page.waitForRequest((r) => r.url().endsWith('/api/v1/audit') && r.postDataJSON()?.event === 'tenant_switch');
    await select.selectOption(active.id);
    const body = (await audit).postDataJSON();
    expect(body.details).toEqual({ previousTenantId: null, newTenantId: active.id });
    await expect(page.getByTestId('tenant-indicator')).toHaveText(`Tenant: ${active.name}`);
    expect(await page.evaluate(() => localStorage.getItem('sw_selected_tenant'))).toBe(active.id);
    await page.reload();
    await expect(page.getByTestId('tenant-indicator')).toHaveText(`Tenant: ${active.name}`);
    const back = page.waitForRequest((r) => r.url().endsWith('/api/v1/audit') && r.postDataJSON()?.event === 'tenant_switch');
    await page.getByLabel('Tenant', { exact: true }).selectOption('');
    expect((await back).postDataJSON().details).toEqual({ previousTenantId: active.id, newTenantId: null });
    await expect(page.getByTestId('tenant-indicator')).toHaveText('Global view');
    expect(await page.evaluate(() => localStorage.getItem('sw_selected_tenant'))).toBeNull();
    // both switches are in the audit trail, with the actor taken from the session
    await expect
      .poll(async () => {
        const trail = (await (await api.get('/api/v1/admin/audit?event=tenant_switch&limit=50')).json()) as {
          items: Array<{ details: Record<string, unknown>; source?: string }>;
        };
        return trail.items
          .filter((e) => e.details?.newTenantId === active.id || e.details?.previousTenantId === active.id)
          .map((e) => ({ previousTenantId: e.details.previousTenantId, newTenantId: e.details.newTenantId }));
      })
      .toEqual(
        expect.arrayContaining([
          { previousTenantId: null, newTenantId: active.id },
          { previousTenantId: active.id, newTenantId: null },
        ]),
      );
    await api.dispose();
  });

  test('sign out asks first, clears the session and the tenant, goes to /login, and the server logs the event', async ({ page }) => {
    const api = await adminApi();
    const admin = await seedUser(api, 1, null);
    const company = await seedCompany(api);
    await signInUi(page, mainUrl(), admin);
    await page.getByLabel('Tenant', { exact: true }).selectOption(company.id);
    await page.getByRole('button', { name: 'Sign out' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Are you sure you want to sign out?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(mainUrl('/dashboard'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(mainUrl('/login'), { waitUntil: 'load' });
    // the server records the sign-out itself (a browser may not send server event names)
    const log = await (await api.get(`/api/v1/admin/audit?event=user_logout&user_id=${admin.id}`)).json();
    expect(log.items.map((e: { source: string }) => e.source)).toEqual(['server']);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await page.evaluate(() => [localStorage.getItem('sw_selected_tenant'), localStorage.getItem('sw_user')])).toEqual([null, null]);
    await page.goto(mainUrl('/dashboard'));
    await expect(page).toHaveURL(mainUrl('/login'));
    await api.dispose();
  });
});

test.describe('feature flags', () => {
  test('flags hide their menu items and the tenant selector; a failed flag load falls back to the defaults', async ({ page }) => {
    const api = await adminApi();
    const off = { ENABLE_TENANT_SWITCH: false, ENABLE_USER_MGMT: false, ENABLE_API_INTELLIGENCE: false, ENABLE_THREAT_INTELLIGENCE: false };
    expect((await api.put('/api/v1/admin/flags', { data: off })).status()).toBe(200);
    try {
      await signInUi(page, mainUrl(), E2E_ADMIN);
      await expect(menu(page).getByRole('link')).toHaveText(
        ['Dashboard', 'Global Metrics', 'All Traces', 'Monitors', 'Status Page', 'Reports', 'Tenants', 'Settings'].map(
          (t) => new RegExp(t),
        ),
      );
      await expect(page.getByLabel('Tenant', { exact: true })).toHaveCount(0);
      // flags are loaded once per page: moving around does not ask again
      let flagCalls = 0;
      page.on('request', (r) => {
        if (r.url().endsWith('/api/v1/admin/flags')) flagCalls++;
      });
      await menu(page).getByRole('link', { name: 'Tenants' }).click();
      await menu(page).getByRole('link', { name: 'Dashboard' }).click();
      expect(flagCalls).toBe(0);
      // the flag call fails: the defaults of the spec apply (all four on)
      await page.route('**/api/v1/admin/flags', (route) => route.abort('connectionreset'));
      await page.reload();
      await expect(menu(page).getByRole('link', { name: 'Users' })).toBeVisible();
      await expect(menu(page).getByRole('link', { name: 'API Intelligence' })).toBeVisible();
      await expect(page.getByLabel('Tenant', { exact: true })).toBeVisible();
    } finally {
      await api.put('/api/v1/admin/flags', {
        data: { ENABLE_TENANT_SWITCH: true, ENABLE_USER_MGMT: true, ENABLE_API_INTELLIGENCE: true, ENABLE_THREAT_INTELLIGENCE: true },
      });
      await api.dispose();
    }
  });
});

test.describe('company roles', () => {
  test('company admin: menu, badge in the default theme, placeholders, Team, access denied for admin pages', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api, { primary_color: '#2e7d32' });
    const admin = await seedUser(api, 2, company.id);
    await signInUi(page, tenantUrl(company.subdomain), admin);
    await expect(menu(page).getByRole('link')).toHaveText(
      [
        'Dashboard',
        'My Metrics',
        'My Traces',
        'My Monitors',
        'Status Page',
        'API Intelligence',
        'Security',
        'Reports',
        'Team',
        'On-call',
        'Settings',
        'Import',
      ].map((t) => new RegExp(t)),
    );
    await expect(page.getByTestId('role-badge')).toHaveText('Customer Admin');
    // the spec's default theme (cyan, #0e7490), not the company's green: its colours are a theme
    // each user may choose (console-appearance.spec.ts)
    await expect(page.getByTestId('role-badge')).toHaveCSS('background-color', 'rgb(14, 116, 144)');
    await expect(page.getByLabel('Tenant', { exact: true })).toHaveCount(0);
    await menu(page).getByRole('link', { name: 'Team' }).click();
    await expect(page.getByRole('heading', { name: /^Members \(\d+\)$/ })).toBeVisible();
    for (const path of ['/admin/tenants', '/admin/users', '/backend-test']) {
      await page.goto(tenantUrl(company.subdomain, path));
      await expect(page.getByRole('alert')).toHaveText('Access denied. Super admin privileges required.');
    }
    await page.goto(tenantUrl(company.subdomain, '/no-such-page'));
    await expect(page.getByRole('main').getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await shot(page, 'company-notfound-1280');
    await api.dispose();
  });

  test('viewer: read-only company dashboard, Team (read-only) but no Settings in the menu', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    const viewer = await seedUser(api, 3, company.id);
    await signInUi(page, tenantUrl(company.subdomain), viewer);
    await expect(page.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
    await expect(page.getByText('Read-only')).toBeVisible();
    await expect(page.getByText('Unknown Role')).toHaveCount(0);
    await expect(menu(page).getByRole('link')).toHaveText(
      [
        'Dashboard',
        'My Metrics',
        'My Traces',
        'My Monitors',
        'Status Page',
        'API Intelligence',
        'Security',
        'Reports',
        'Team',
        'On-call',
      ].map((t) => new RegExp(t)),
    );
    await expect(page.getByTestId('role-badge')).toHaveText('Viewer');
    await api.dispose();
  });

  test('a company user signed in on the main host is sent to the company subdomain with a spinner meanwhile', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    const admin = await seedUser(api, 2, company.id);
    await signInUi(page, mainUrl(), admin);
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
    // the main host keeps a session too; opening a console page there goes back to the subdomain,
    // with the spinner showing meanwhile (seen by an observer in the page before it navigates)
    const seen: string[] = [];
    page.on('console', (m) => seen.push(m.text()));
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.body?.textContent?.includes('Redirecting to your company site…'))
          console.log('spinner: Redirecting to your company site…');
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    // the session on the company host is gone (ended, expired): the handoff signs the user in there
    await page.context().clearCookies({ domain: `${company.subdomain}.localhost` });
    await page.goto(mainUrl('/metrics'));
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/metrics'));
    expect(seen).toContain('spinner: Redirecting to your company site…');
    await expect(page.getByRole('form', { name: 'Metric filters' })).toBeVisible();
    await api.dispose();
  });
});
