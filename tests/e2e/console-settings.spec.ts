// /settings in the browser: a company admin changes the company's name, colour and logo and sees
// them on the public status page, reads plan and usage, creates an OTLP ingest key with an
// allowed browser origin (the preflight and the key work) and revokes it (the key stops working);
// a viewer sees no settings; a super admin toggles a flag, sees the operator's locked override,
// sends an SMTP test to the real sink and filters the audit log. Axe and screenshots.
import { request as httpRequest } from 'node:http';
import sharp from 'sharp';
import {
  adminApi,
  E2E_ADMIN,
  expectNoSeriousA11yViolations,
  mails,
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

// The operator fixed one flag: the platform screen shows it locked.
test.use({ serverEnv: { FLAG_ENABLE_REPORTS: 'false' } });

/** A call to a company host from Node: the host name resolves only in the browser, so Host is set by hand. */
function onHost(subdomain: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  const main = new URL(mainUrl());
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: main.port, method, path, headers: { ...headers, host: `${subdomain}.localhost:${main.port}` } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test.describe('Settings', () => {
  test('company admin brands the company, reads the plan, creates and revokes an ingest key', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const admin = await seedUser(api, 2, co.id);
    const brand = unique('Rockets ');
    await signInUi(page, tenantUrl(co.subdomain), admin);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByText('Coming Soon')).toHaveCount(0);
    await page.getByRole('link', { name: 'Company', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Company settings', level: 2 })).toBeVisible();

    const usage = page.getByTestId('settings-usage');
    await expect(usage).toContainText('0 of 10 monitors');
    await expect(usage).toContainText('1 of 10 users');
    await expect(usage).toContainText('2,000 spans a second');
    await expect(usage).toContainText('7 days');

    const form = page.getByRole('form', { name: 'Company profile' });
    await form.getByLabel('Company Name').fill(brand);
    await form.getByLabel('Primary Color').fill('#aa3300');
    const png = await sharp({ create: { width: 40, height: 40, channels: 4, background: '#aa3300' } })
      .png()
      .toBuffer();
    await form.getByLabel('Logo', { exact: true }).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: png });
    await expect(form.getByRole('img', { name: 'Logo preview' })).toBeVisible();
    await form.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Company profile saved.' })).toBeVisible();

    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await shot(page, 'settings-company-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'settings-company-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The public status page wears the new name, colour and logo.
    const visitor = await page.context().browser()!.newPage();
    await visitor.goto(tenantUrl(co.subdomain, '/'));
    const title = visitor.getByRole('heading', { level: 1, name: `${brand} Status` });
    await expect(title).toHaveCSS('color', 'rgb(170, 51, 0)');
    await expect(visitor.getByRole('img', { name: `${brand} logo` })).toHaveAttribute('src', /^data:image\/png;base64,/);
    await visitor.close();

    // An ingest key for a browser app: the secret is shown once.
    await page.getByRole('button', { name: 'Create key' }).click();
    const create = page.getByRole('dialog', { name: 'Create ingest key' });
    await create.getByLabel('Name').fill('Browser app');
    await create.getByLabel('Allowed browser origins').fill('https://app.example.com');
    await create.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog', { name: 'Key created' });
    const key = (await shown.getByTestId('new-key').textContent())!.trim();
    expect(key.length).toBeGreaterThan(20);
    await expectNoSeriousA11yViolations(page);
    await shown.getByRole('button', { name: 'Done' }).click();
    const keyRow = page.getByRole('row').filter({ hasText: 'Browser app' });
    await expect(keyRow).toContainText('https://app.example.com');
    await expect(keyRow).toContainText(key.slice(0, 6));
    await expect(page.getByText(key)).toHaveCount(0);

    const preflight = (origin: string) =>
      onHost(co.subdomain, 'OPTIONS', '/v1/traces', { Origin: origin, 'Access-Control-Request-Method': 'POST' });
    expect(await preflight('https://app.example.com')).toBe(204);
    expect(await preflight('https://evil.example.com')).toBe(403);
    const send = () =>
      onHost(
        co.subdomain,
        'POST',
        '/v1/traces',
        { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        '{"resourceSpans":[]}',
      );
    expect(await send()).toBe(200);

    await page.getByRole('button', { name: 'Revoke Browser app' }).click();
    await page.getByRole('dialog', { name: 'Revoke key' }).getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Browser app revoked' })).toBeVisible();
    await expect(keyRow).toHaveCount(0);
    expect(await send()).toBe(401);
  });

  test('a viewer holds no settings', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const viewer = await seedUser(api, 3, co.id);
    await signInUi(page, tenantUrl(co.subdomain), viewer);
    await page.goto(tenantUrl(co.subdomain, '/settings'));
    await expect(page.getByTestId('settings-none')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Company', exact: true })).toHaveCount(0);
    await page.goto(tenantUrl(co.subdomain, '/settings/company'));
    await expect(page.getByRole('heading', { name: 'Page Not Found', level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save profile' })).toHaveCount(0);
  });

  test('super admin toggles a flag, sees the locked override, sends an SMTP test, filters the audit log', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const r = await api.put(`/api/v1/companies/${co.id}/profile`, { data: { phone: '+1 555 0199' } });
    expect(r.status(), await r.text()).toBe(200);

    await signInUi(page, mainUrl(), E2E_ADMIN);
    await page.goto(mainUrl('/settings'));
    await page.getByRole('link', { name: 'Platform', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Platform settings', level: 2 })).toBeVisible();

    const locked = page.getByTestId('flag-ENABLE_REPORTS');
    await expect(locked.getByRole('checkbox')).toBeDisabled();
    await expect(locked.getByRole('checkbox')).not.toBeChecked();
    await expect(locked).toContainText('Locked: Set by the operator (FLAG_ENABLE_REPORTS=false) and cannot be changed here.');

    const flag = page.getByTestId('flag-ENABLE_ADVANCED_ANALYTICS').getByRole('checkbox');
    const was = await flag.isChecked();
    await flag.click();
    await expect(page.getByRole('alert').filter({ hasText: `Advanced analytics is now ${was ? 'off' : 'on'}.` })).toBeVisible();
    await expect(flag).toBeChecked({ checked: !was });
    const stored = await (await api.get('/api/v1/admin/flags')).json();
    expect(stored.ENABLE_ADVANCED_ANALYTICS).toBe(!was);

    await expect(page.getByTestId('signup-state')).toHaveText('Open');
    await expect(page.getByText('Read-only here: signup is switched by the server’s SIGNUP_ENABLED')).toBeVisible();

    const before = mails.filter((m) => m.to.includes(E2E_ADMIN.email)).length;
    await page.getByRole('button', { name: `Send test mail to ${E2E_ADMIN.email}` }).click();
    await expect(page.getByRole('alert').filter({ hasText: `The SMTP server accepted a test mail to ${E2E_ADMIN.email}.` })).toBeVisible();
    await expect.poll(() => mails.filter((m) => m.to.includes(E2E_ADMIN.email)).length).toBe(before + 1);
    expect(mails.filter((m) => m.to.includes(E2E_ADMIN.email)).at(-1)!.raw).toContain('Subject: StatusWatch SMTP test');

    await expectNoSeriousA11yViolations(page);
    await shot(page, 'settings-platform-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'settings-platform-375');
    await page.setViewportSize({ width: 1280, height: 900 });

    // The company section works on the company chosen in the header.
    await page.goto(mainUrl('/settings/company'));
    await expect(page.getByText('Choose a company in the header to see and change its settings.')).toBeVisible();
    await page.getByLabel('Tenant', { exact: true }).selectOption(co.id);
    await expect(page.getByLabel('Company Name')).toHaveValue(co.name);
    await expect(page.getByLabel('Phone')).toHaveValue('+1 555 0199');
    await expect(page.getByTestId('settings-usage')).toContainText('0 of 10 users');
    await page.getByLabel('Tenant', { exact: true }).selectOption('');

    await page.goto(mainUrl('/settings'));
    await page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Audit log', level: 2 })).toBeVisible();
    const table = page.getByTestId('audit-table');
    await expect(table).toBeVisible();

    await page.getByLabel('Event', { exact: true }).selectOption('settings_update');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(table.getByRole('row').filter({ hasText: 'SMTP test' })).toHaveCount(1);
    await expect(table.locator('tbody tr').filter({ hasNotText: 'Settings updated' })).toHaveCount(0);

    await page.getByLabel('Event', { exact: true }).selectOption('');
    await page.getByLabel('Company', { exact: true }).selectOption({ label: co.name });
    await page.getByLabel('User', { exact: true }).selectOption({ label: E2E_ADMIN.email });
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByRole('heading', { name: 'Events (2)' })).toBeVisible();
    await expect(table.locator('tbody tr').nth(0)).toContainText('Company updated');
    await expect(table.locator('tbody tr').nth(0)).toContainText(/phone/i);
    await expect(table.locator('tbody tr').nth(1)).toContainText('Company created');

    await page.getByLabel('From (UTC)', { exact: true }).fill('2099-01-01T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText('No events match these filters.')).toBeVisible();
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(table.locator('tbody tr').first()).toBeVisible();

    await expectNoSeriousA11yViolations(page);
    await shot(page, 'settings-audit-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'settings-audit-375');
  });
});
