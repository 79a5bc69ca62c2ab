// Tenants Management and Users Management as a super admin: tables, validation rules, modals,
// success and failure alerts (with the server's detail), reload after each change, Retry.
import { request } from '@playwright/test';
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
  unique,
  expect,
  test,
} from './console-fixtures.ts';

/** A real 1x1 PNG. */
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test.describe('Tenants Management', () => {
  test('create with every validation rule, edit, delete; alerts and counts', async ({ page }) => {
    await signInUi(page, mainUrl(), E2E_ADMIN);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tenants' }).click();
    await expect(page.getByRole('main').getByRole('heading', { name: 'Tenants Management' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    const heading = page.getByRole('heading', { name: /^All Tenants \(\d+\)$/ });
    await expect(heading).toBeVisible();
    const before = Number((await heading.textContent())!.match(/\d+/)![0]);
    if (before === 0) await expect(page.getByText('No tenants found. Create your first tenant to get started.')).toBeVisible();

    await page.getByRole('button', { name: 'Create Tenant' }).click();
    const modal = page.getByRole('dialog', { name: 'Create New Tenant' });
    await expect(modal).toBeVisible();
    await expect(modal.getByLabel('Max Users')).toHaveValue('10');
    await expect(modal.getByLabel('Primary Color')).toHaveValue('#007bff');
    await expect(modal.getByLabel('Secondary Color')).toHaveValue('#6c757d');
    await modal.getByRole('button', { name: 'Create Tenant' }).click();
    await expect(modal.getByText('Company Name is required')).toBeVisible();
    await expect(modal.getByText('Email is required')).toBeVisible();
    await expect(modal.getByText('Subdomain is required')).toBeVisible();
    const sub = unique('t');
    await modal.getByLabel('Company Name').fill(`Tenant ${sub}`);
    await modal.getByLabel('Email').fill('not-an-email');
    await modal.getByLabel('Subdomain').fill(sub);
    await expect(modal.getByText(`Used as a host prefix: ${sub}.localhost`)).toBeVisible();
    await modal.getByLabel('Website URL').fill('not a url');
    await modal.getByLabel('Max Users').fill('0');
    await modal.getByRole('button', { name: 'Create Tenant' }).click();
    await expect(modal.getByText('Enter a valid email address')).toBeVisible();
    await expect(modal.getByText('Website URL must be a valid URL')).toBeVisible();
    await expect(modal.getByText('Max Users must be at least 1')).toBeVisible();
    await expect(modal.getByLabel('Phone')).toHaveAttribute('type', 'tel');
    await modal.getByLabel('Email').fill(`ops@${sub}.example.com`);
    // a corrected field loses its message at once; the others keep theirs until corrected
    await expect(modal.getByText('Enter a valid email address')).toHaveCount(0);
    await expect(modal.getByText('Website URL must be a valid URL')).toBeVisible();
    await modal.getByLabel('Website URL').fill(`https://${sub}.example.com`);
    await modal.getByLabel('Max Users').fill('25');
    await expect(modal.getByText('Max Users must be at least 1')).toHaveCount(0);
    await modal.getByLabel('Plan').selectOption('professional');
    // logos: a file that is no image is refused at once; a PNG shows its preview
    await modal
      .getByLabel('Logo', { exact: true })
      .setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    await expect(modal.getByText('Logo must be a PNG, JPEG or WebP image.')).toBeVisible();
    await modal
      .getByLabel('Logo', { exact: true })
      .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1PX, 'base64') });
    await expect(modal.getByRole('img', { name: 'Logo preview' })).toBeVisible();
    await expect(modal.getByText('Logo must be a PNG, JPEG or WebP image.')).toHaveCount(0);
    await expect(modal.getByRole('checkbox', { name: 'Monitoring' })).toBeChecked();
    await expect(modal.getByRole('checkbox', { name: 'Data breach' })).not.toBeChecked();
    await modal.getByRole('checkbox', { name: 'Data breach' }).check();
    // nothing in the form is wider than the dialog
    await expect.poll(() => modal.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await shot(page, 'tenant-modal-1280');
    await expectNoSeriousA11yViolations(page);
    await modal.getByRole('button', { name: 'Create Tenant' }).click();
    await expect(page.getByRole('alert')).toHaveText('Company created successfully!');
    await expect(page.getByRole('heading', { name: `All Tenants (${before + 1})` })).toBeVisible();
    for (const col of ['Name', 'Subdomain', 'Email', 'Status', 'Users', 'Created', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: col, exact: true })).toBeVisible();
    }
    const row = page.getByRole('row', { name: new RegExp(`Tenant ${sub}`) });
    await expect(row).toContainText(sub);
    await expect(row).toContainText(`ops@${sub}.example.com`);
    await expect(row).toContainText('Active');
    // the Users column counts the company's users against its limit
    await expect(row.getByRole('cell').nth(4)).toHaveText('0 / 25');
    await expect(row.getByRole('link', { name: `https://${sub}.example.com` })).toBeVisible();
    // what was saved: the services, and the logo on the company's status page
    const saved = (
      (await (await page.request.get(mainUrl('/api/v1/admin/companies'))).json()) as Array<{
        subdomain: string;
        services: object;
        logo_base64: string | null;
      }>
    ).find((c) => c.subdomain === sub)!;
    expect(saved.services).toEqual({ monitor: true, security: true, data_breach: true });
    expect(saved.logo_base64).toMatch(/^data:image\/png;base64,/); // drawn again from the upload, not stored as sent
    const statusPage = await page.context().newPage();
    await statusPage.goto(tenantUrl(sub, '/'));
    await expect(statusPage.getByRole('img', { name: `Tenant ${sub} logo` })).toBeVisible();
    await statusPage.close();

    // the same subdomain again: the failure alert carries the server's detail
    await page.getByRole('button', { name: 'Create Tenant' }).click();
    const again = page.getByRole('dialog', { name: 'Create New Tenant' });
    await again.getByLabel('Company Name').fill(`Copy ${sub}`);
    await again.getByLabel('Email').fill(`x@${sub}.example.com`);
    await again.getByLabel('Subdomain').fill(sub);
    await again.getByRole('button', { name: 'Create Tenant' }).click();
    await expect(again.getByRole('alert')).toContainText(/^Failed to create company\. .+/);
    await again.getByRole('button', { name: 'Cancel' }).click();

    await row.getByRole('button', { name: `Edit Tenant ${sub}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Tenant' });
    await expect(edit.getByLabel('Company Name')).toHaveValue(`Tenant ${sub}`);
    await edit.getByLabel('Company Name').fill(`Renamed ${sub}`);
    await edit.getByLabel('Status').selectOption('inactive');
    await edit.getByRole('button', { name: 'Update Tenant' }).click();
    await expect(page.getByRole('alert')).toHaveText('Company updated successfully!');
    const renamed = page.getByRole('row', { name: new RegExp(`Renamed ${sub}`) });
    await expect(renamed).toContainText('Inactive');

    await renamed.getByRole('button', { name: `Delete Renamed ${sub}` }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText('Are you sure you want to delete this company? This action cannot be undone.');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alert')).toHaveText('Company deleted successfully!');
    await expect(page.getByRole('row', { name: new RegExp(`Renamed ${sub}`) })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: `All Tenants (${before})` })).toBeVisible();
    await shot(page, 'tenants-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '60px');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'tenants-375');
  });

  test("a failed list load shows 'Failed to load companies. Please try again.' and Retry loads it", async ({ page }) => {
    await signInUi(page, mainUrl(), E2E_ADMIN);
    let failing = true;
    await page.route('**/api/v1/admin/companies', (route) => (failing ? route.abort('connectionreset') : route.continue()));
    await page.goto(mainUrl('/admin/tenants'));
    const banner = page.getByRole('alert').filter({ hasText: 'Failed to load companies. Please try again.' });
    await expect(banner).toBeVisible();
    // the header's tenant selector fails too: its own message and an empty list
    await expect(page.getByRole('banner').getByRole('alert')).toHaveText('Failed to load tenants');
    await expect(page.getByLabel('Tenant', { exact: true }).locator('option')).toHaveCount(1);
    failing = false;
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: /^All Tenants \(\d+\)$/ })).toBeVisible();
    await expect(banner).toHaveCount(0);
  });
});

test.describe('Users Management', () => {
  test('create with every validation rule and type/company alert, edit without password, reset password, delete', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    await signInUi(page, mainUrl(), E2E_ADMIN);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Users' }).click();
    await expect(page.getByRole('main').getByRole('heading', { name: 'Users Management' })).toBeVisible();
    await expect(page.getByRole('heading', { name: /^All Users \(\d+\)$/ })).toBeVisible();
    for (const col of ['Name', 'Email', 'Type', 'Company', 'Status', 'Created', 'Actions']) {
      await expect(page.getByRole('columnheader', { name: col, exact: true })).toBeVisible();
    }
    const adminRow = page.getByRole('row', { name: new RegExp(E2E_ADMIN.email) });
    await expect(adminRow).toContainText('Super Admin');
    await expect(adminRow).toContainText('N/A');

    await page.getByRole('button', { name: 'Create User' }).click();
    const modal = page.getByRole('dialog', { name: 'Create New User' });
    await modal.getByRole('button', { name: 'Create User' }).click();
    for (const t of ['Full Name is required', 'Email is required', 'Password is required', 'User Type is required'])
      await expect(modal.getByText(t)).toBeVisible();
    const email = `${unique('made')}@example.com`;
    await modal.getByLabel('Full Name').fill('Made By Console');
    await modal.getByLabel('Email').fill(email);
    await modal.getByLabel('Password').fill('First-password-1');
    await modal.getByLabel('User Type').selectOption('2');
    await modal.getByRole('button', { name: 'Create User' }).click();
    await expect(modal.getByRole('alert')).toHaveText('Company admin and user/viewer must be assigned to a company');
    await modal.getByLabel('Company').selectOption(company.id);
    // choosing type 1 clears the company
    await modal.getByLabel('User Type').selectOption('1');
    await expect(modal.getByLabel('Company')).toHaveValue('');
    await modal.getByLabel('Company').selectOption(company.id);
    await modal.getByRole('button', { name: 'Create User' }).click();
    await expect(modal.getByRole('alert')).toHaveText('Super admin users should not be assigned to a specific company');
    await modal.getByLabel('User Type').selectOption('2');
    await modal.getByLabel('Company').selectOption(company.id);
    await shot(page, 'user-modal-1280');
    await modal.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByRole('alert')).toHaveText('User created successfully!');
    const row = page.getByRole('row', { name: new RegExp(email) });
    await expect(row).toContainText('Company Admin');
    await expect(row).toContainText(company.name);
    await expect(row).toContainText('Active');

    // the same email again: failure alert with the server's detail
    await page.getByRole('button', { name: 'Create User' }).click();
    const dup = page.getByRole('dialog', { name: 'Create New User' });
    await dup.getByLabel('Full Name').fill('Dup');
    await dup.getByLabel('Email').fill(email);
    await dup.getByLabel('Password').fill('x-password-1');
    await dup.getByLabel('User Type').selectOption('3');
    await dup.getByLabel('Company').selectOption(company.id);
    await dup.getByRole('button', { name: 'Create User' }).click();
    await expect(dup.getByRole('alert')).toContainText(/^Failed to create user\. .+/);
    await dup.getByRole('button', { name: 'Cancel' }).click();

    await row.getByRole('button', { name: `Edit ${email}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit User' });
    await expect(edit.getByLabel('Password')).toHaveAttribute('placeholder', 'Leave blank to keep current password');
    await edit.getByLabel('Full Name').fill('Renamed By Console');
    await edit.getByLabel('Password').fill('ignored-password');
    await edit.getByLabel('User Type').selectOption('3');
    const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/api/v1/admin/users/'));
    await edit.getByRole('button', { name: 'Update User' }).click();
    const body = (await put).postDataJSON();
    expect(body).not.toHaveProperty('password');
    expect(body).toMatchObject({ name: 'Renamed By Console', email, user_type: '3', company_id: company.id });
    await expect(page.getByRole('alert')).toHaveText('User updated successfully!');
    await expect(row).toContainText('Renamed By Console');
    await expect(row).toContainText('User/Viewer');

    await row.getByRole('button', { name: `Reset password of ${email}` }).click();
    const reset = page.getByRole('dialog', { name: 'Reset Password' });
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await expect(reset.getByText('New Password is required')).toBeVisible();
    await reset.getByLabel('New Password').fill('Second-password-2');
    await reset.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Password reset successfully!');
    const check = await request.newContext({ baseURL: mainUrl() });
    expect((await check.post('/api/v1/auth/login', { data: { email, password: 'Second-password-2' } })).status()).toBe(200);
    await check.dispose();

    await row.getByRole('button', { name: `Delete ${email}` }).click();
    await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete this user? This action cannot be undone.');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('alert')).toHaveText('User deleted successfully!');
    await expect(page.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '60px');
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    // on a phone each user is a card of labelled lines: nothing to scroll sideways, the buttons in view
    const table = page.locator('.sw-table-wrap');
    await expect.poll(() => table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    const firstRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('button', { name: /^Edit / }) })
      .first();
    await expect(firstRow.getByRole('button', { name: /^Delete / })).toBeInViewport();
    await expectNoSeriousA11yViolations(page);
    await shot(page, 'users-375');
    await page.getByRole('button', { name: 'Create User' }).click();
    await shot(page, 'user-modal-375');
    await api.dispose();
  });

  test("a user whose company is unknown shows 'Unknown Company'; a failed list load offers Retry", async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    const user = await seedUser(api, 2, company.id);
    await signInUi(page, mainUrl(), E2E_ADMIN);
    // the company list for the form fails (only logged) and the users list loses company_name
    await page.route('**/api/v1/admin/companies', (route) => route.abort('connectionreset'));
    let failedOnce = false;
    await page.route('**/api/v1/admin/users', async (route) => {
      if (!failedOnce) {
        failedOnce = true;
        return route.abort('connectionreset');
      }
      const response = await route.fetch();
      const list = (await response.json()) as Array<Record<string, unknown>>;
      return route.fulfill({ response, json: list.map((u) => ({ ...u, company_name: null })) });
    });
    await page.goto(mainUrl('/admin/users'));
    const banner = page.getByRole('alert').filter({ hasText: 'Failed to load users. Please try again.' });
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('row', { name: new RegExp(user.email) })).toContainText('Unknown Company');
    await api.dispose();
  });
});

test.describe('dialogs keep the keyboard inside', () => {
  for (const [path, opener, title] of [
    ['/admin/tenants', 'Create Tenant', 'Create New Tenant'],
    ['/admin/users', 'Create User', 'Create New User'],
  ] as const) {
    test(`${title}: Tab and Shift+Tab cycle inside, Escape closes and focus returns to ${opener}`, async ({ page }) => {
      await signInUi(page, mainUrl(), E2E_ADMIN);
      await page.goto(mainUrl(path));
      const open = page.getByRole('main').getByRole('button', { name: opener, exact: true });
      await open.click();
      const modal = page.getByRole('dialog', { name: title });
      await expect(modal).toBeVisible();
      const inside = () => modal.evaluate((d) => d.contains(document.activeElement));
      const tabbables = await modal.evaluate(
        (d) => d.querySelectorAll('input:not([disabled]), select, textarea, button:not([disabled]), a[href]').length,
      );
      // forwards past the last field, then backwards past the first: never into the page behind
      for (let i = 0; i < tabbables + 3; i++) {
        await page.keyboard.press('Tab');
        expect(await inside()).toBe(true);
      }
      for (let i = 0; i < tabbables + 3; i++) {
        await page.keyboard.press('Shift+Tab');
        expect(await inside()).toBe(true);
      }
      await page.keyboard.press('Escape');
      await expect(modal).toHaveCount(0);
      await expect(open).toBeFocused();
    });
  }
});
