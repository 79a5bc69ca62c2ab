// Sign-in screens and the flows around them, as an anonymous visitor and each role.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import {
  adminApi,
  E2E_ADMIN,
  mails,
  expectNoSeriousA11yViolations,
  mainUrl,
  PASSWORD,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  unique,
  expect,
  test,
} from './console-fixtures.ts';

test.describe('anonymous visitor', () => {
  test('protected routes and unknown paths send the visitor to /login', async ({ page }) => {
    for (const path of ['/dashboard', '/admin/tenants', '/admin/users', '/backend-test', '/metrics', '/no-such-page']) {
      await page.goto(mainUrl(path));
      await expect(page).toHaveURL(mainUrl('/login'));
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    }
  });

  test('on a company subdomain, protected routes send the visitor to /company-login', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    for (const path of ['/dashboard', '/team', '/no-such-page']) {
      await page.goto(tenantUrl(company.subdomain, path));
      await expect(page).toHaveURL(tenantUrl(company.subdomain, '/company-login'));
      await expect(page.getByRole('heading', { name: 'Public API Status' })).toBeVisible();
    }
    await api.dispose();
  });

  test('the login screen: fields, Remember me, links, and the server detail on failure', async ({ page }) => {
    await page.goto(mainUrl('/login'));
    await expect(page.getByLabel('Email')).toHaveAttribute('type', 'email');
    await expect(page.getByLabel('Remember me')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgotpassword');
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup');
    await shot(page, 'login-1280');
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toBeVisible();
    // the server's detail, not the generic fallback
    await expect(alert).toHaveText('Invalid email or password.');
    await expect(page).toHaveURL(mainUrl('/login'));
    // no answer at all (network down): the form's own text, not the browser's "Failed to fetch"
    await page.route('**/api/v1/auth/login', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(alert).toHaveText('Login failed. Please try again.');
  });

  test('signup: the same answer for a new and a taken email; the mailed link creates the account', async ({ page }) => {
    const email = `${unique('signup')}@example.com`;
    const CHECK_MAIL = 'Check your e-mail to finish creating your account.';
    const unQp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    await page.goto(mainUrl('/signup'));
    await expect(page.getByRole('button', { name: 'Sign up with Google' })).toBeVisible();
    await page.getByLabel('Your name').fill('Signup Person');
    await page.getByLabel('Company name').fill('Signup Person');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(CHECK_MAIL);
    await expect(page).toHaveURL(mainUrl('/signup'));
    await expectNoSeriousA11yViolations(page);

    await expect.poll(() => mails.some((m) => m.to.includes(email)), { timeout: 10_000 }).toBe(true);
    const link = unQp(mails.find((m) => m.to.includes(email))!.raw).match(/https?:\/\/\S+\/signup\?token=[\w-]+/)![0];
    // the link signs the new admin in on the company's own host and lands on its dashboard
    await page.goto(link.replace(/^https?:\/\/[^/]+/, mainUrl('')));
    await page.waitForURL(/^http:\/\/signup-person(-\d+)?\.localhost:\d+\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
    await expect(page.getByTestId('first-steps')).toContainText('0 of 4 done');

    // the address is taken now: the page answers the same, and the owner is told by mail
    await page.goto(mainUrl('/signup'));
    await page.getByLabel('Your name').fill('Someone Else');
    await page.getByLabel('Company name').fill('Someone Else');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText(CHECK_MAIL);
    await expect
      .poll(() => mails.filter((m) => m.to.includes(email) && /Someone tried to sign up/.test(unQp(m.raw))).length, { timeout: 10_000 })
      .toBe(1);
    // the link works once
    await page.goto(link.replace(/^https?:\/\/[^/]+/, mainUrl('')));
    await expect(page.getByRole('alert')).toHaveText('This signup link is invalid or has expired. Please sign up again.');

    await page.goto(mainUrl('/signup'));
    await page.getByLabel('Your name').fill('Offline');
    await page.getByLabel('Company name').fill('Offline');
    await page.getByLabel('Email').fill(`${unique('offline')}@example.com`);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.route('**/api/v1/auth/signup', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Signup failed.');
  });

  test('forgot password sends the reset link', async ({ page }) => {
    await page.goto(mainUrl('/forgotpassword'));
    await expect(page.getByText('Type email to recover password')).toBeVisible();
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByRole('button', { name: 'RESET PASSWORD' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('alert')).not.toHaveClass(/error/);
    await expectNoSeriousA11yViolations(page);
  });

  test('the emailed reset link sets a new password, once', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    const user = await seedUser(api, 2, company.id);
    await api.dispose();
    await page.goto(mainUrl('/forgotpassword'));
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'RESET PASSWORD' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect.poll(() => mails.some((m) => m.to.includes(user.email)), { timeout: 10_000 }).toBe(true);
    const raw = mails
      .find((m) => m.to.includes(user.email))!
      .raw.replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    const link = raw.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)![0];
    // the company's own address: a reset link works only there
    expect(link.startsWith(tenantUrl(company.subdomain, '/reset-password?token='))).toBe(true);
    await page.goto(link);
    await page.getByLabel('New Password').fill('Brand-new-password-9');
    await page.getByLabel('Confirm Password').fill('Different-password-9');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toHaveText('The two passwords do not match.');
    await page.getByLabel('Confirm Password').fill('Brand-new-password-9');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toHaveText('Your password has been reset. You can sign in now.');
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill('Brand-new-password-9');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
    // the link works once
    await page.goto(link);
    await page.getByLabel('New Password').fill('Third-password-9');
    await page.getByLabel('Confirm Password').fill('Third-password-9');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toContainText('invalid or has expired');
  });

  test('a reset link without a token is refused', async ({ page }) => {
    await page.goto(mainUrl('/reset-password'));
    await expect(page.getByRole('alert')).toContainText('This reset link is invalid');
  });

  test('/notifications: a visitor signs in first (nothing is loaded) and comes back to it, on the main host and on a company host', async ({
    page,
  }) => {
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/notifications')) calls.push(r.url());
    });
    await page.goto(mainUrl('/notifications'));
    await expect(page).toHaveURL(mainUrl('/login?next=%2Fnotifications'));
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(calls).toEqual([]);
    await page.getByLabel('Email').fill(E2E_ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(mainUrl('/notifications'));
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();

    const api = await adminApi();
    const company = await seedCompany(api);
    const viewer = await seedUser(api, 3, company.id);
    await api.dispose();
    const visitor = await page.context().browser()!.newContext();
    const p = await visitor.newPage();
    await p.goto(tenantUrl(company.subdomain, '/notifications'));
    await expect(p).toHaveURL(tenantUrl(company.subdomain, '/company-login?next=%2Fnotifications'));
    await p.getByLabel('Email').fill(viewer.email);
    await p.getByLabel('Password', { exact: true }).fill(viewer.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await expect(p).toHaveURL(tenantUrl(company.subdomain, '/notifications'));
    await expect(p.getByText("You're all caught up! No notifications to display.")).toBeVisible();
    await visitor.close();
  });

  test('the stand-alone screens: /notfound and /maintenance', async ({ page }) => {
    await page.goto(mainUrl('/notfound'));
    await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    await page.goto(mainUrl('/maintenance'));
    await expect(page.getByRole('heading', { name: "We'll be back soon!" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
  });
});

test.describe('signing in', () => {
  test('super admin on the main host lands on /dashboard; the session survives a reload', async ({ page }) => {
    await signInUi(page, mainUrl(), E2E_ADMIN);
    await expect(page).toHaveURL(mainUrl('/dashboard'));
    await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
  });

  test('company admin and viewer signing in on the main host land on their subdomain dashboard', async ({ page, browser }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    const admin = await seedUser(api, 2, company.id);
    const viewer = await seedUser(api, 3, company.id);
    await signInUi(page, mainUrl(), admin);
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
    await expect(page.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
    const other = await browser.newPage();
    await signInUi(other, mainUrl(), viewer);
    await expect(other).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
    await expect(other.getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
    await other.close();
    await api.dispose();
  });

  test('super admin signing in on a company subdomain goes to the main site dashboard', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    await signInUi(page, tenantUrl(company.subdomain), E2E_ADMIN);
    await expect(page).toHaveURL(mainUrl('/dashboard'));
    await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
    await api.dispose();
  });

  test('company admin signing in on their subdomain stays there', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    const admin = await seedUser(api, 2, company.id);
    await signInUi(page, tenantUrl(company.subdomain), admin);
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/dashboard'));
    await api.dispose();
  });
});

test.describe('tenant-branded login', () => {
  test('company name, primary colour on the button, the Public API Status list and the main-site link', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api, { primary_color: '#aa3300' });
    await page.goto(tenantUrl(company.subdomain, '/company-login'));
    await expect(page.getByText(company.name, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign in' })).toHaveCSS('background-color', 'rgb(170, 51, 0)');
    await expect(page.getByRole('heading', { name: 'Public API Status' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Main Site' })).toHaveAttribute('href', mainUrl('/login'));
    await shot(page, 'company-login-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await shot(page, 'company-login-375');
    await expectNoSeriousA11yViolations(page);
    await api.dispose();
  });

  test('Public API Status: each public monitor checked by the engine, its public name and HTTP status, green for 200 and red otherwise', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    // two targets on loopback: 127.0.0.1 answers 200, 127.0.0.2 answers 500
    const targets = await Promise.all(['127.0.0.1', '127.0.0.2'].map((host) => listen(host, host === '127.0.0.1' ? 200 : 500)));
    try {
      const api = await adminApi();
      const company = await seedCompany(api);
      const monitors = [
        { name: 'Website', url: `http://127.0.0.1:${targets[0].port}/`, is_public: true },
        { name: 'Checkout', url: `http://127.0.0.2:${targets[1].port}/pay`, is_public: true },
        { name: 'Internal', url: `http://127.0.0.1:${targets[0].port}/internal`, is_public: false },
      ];
      for (const m of monitors) {
        const r = await api.post('/api/v1/monitors', {
          data: { type: 'http', company_id: company.id, interval_seconds: 1, confirmations: 1, ...m },
        });
        expect(r.status(), await r.text()).toBe(201);
      }
      await expect
        .poll(
          async () => {
            const list = (await (await api.get(`/api/v1/monitors?tenant=${company.id}`)).json()) as Array<{
              last_http_code: number | null;
            }>;
            return list.map((m) => m.last_http_code).sort();
          },
          { timeout: 20_000 },
        )
        .toEqual([200, 200, 500]);
      await api.dispose();

      await page.goto(tenantUrl(company.subdomain, '/company-login'));
      const list = page.getByRole('region', { name: 'Public API Status' });
      const rows = list.getByRole('listitem');
      await expect(rows).toHaveCount(2); // the private monitor is not listed
      // each monitor by its public name: its host (here a loopback address) is never listed
      await expect(list).not.toContainText('127.0.0');
      const ok = rows.filter({ hasText: 'Website' });
      const failing = rows.filter({ hasText: 'Checkout' });
      await expect(ok.locator('.sw-pill')).toHaveText('200');
      await expect(ok.locator('.sw-pill')).toHaveClass(/sw-green/);
      await expect(failing.locator('.sw-pill')).toHaveText('500');
      await expect(failing.locator('.sw-pill')).toHaveClass(/sw-red/);
      const green = await ok.locator('.sw-pill').evaluate((el) => getComputedStyle(el).color);
      const red = await failing.locator('.sw-pill').evaluate((el) => getComputedStyle(el).color);
      expect(green).not.toBe(red);
      await page.screenshot({ path: '.tmp/screens/company-login-status-1280.png', fullPage: true });
      await page.setViewportSize({ width: 375, height: 800 });
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await page.screenshot({ path: '.tmp/screens/company-login-status-375.png', fullPage: true });
    } finally {
      await Promise.all(targets.map((t) => t.close()));
    }
  });

  test('a company with a logo shows the logo instead of its name', async ({ page }) => {
    const api = await adminApi();
    const logo = `data:image/png;base64,${solidPng(160, 48, [170, 51, 0]).toString('base64')}`;
    const company = await seedCompany(api, { logo_base64: logo });
    await api.dispose();
    await page.goto(tenantUrl(company.subdomain, '/company-login'));
    const img = page.getByRole('img', { name: company.name });
    await expect(img).toBeVisible();
    await expect(img).toHaveAttribute('src', /^data:image\/png;base64,/); // drawn again at upload: same image, new bytes
    expect(await img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(160);
    await expect(page.getByText(company.name, { exact: true })).toHaveCount(0);
    await page.screenshot({ path: '.tmp/screens/company-login-logo-1280.png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: '.tmp/screens/company-login-logo-375.png', fullPage: true });
  });

  test("an inactive company's subdomain says 'Company not found or inactive' with 'Go to Main Site'", async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api, { is_active: false });
    await api.dispose();
    await page.goto(tenantUrl(company.subdomain, '/company-login'));
    await expect(page.getByRole('heading', { name: 'Company not found or inactive' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Main Site' })).toHaveAttribute('href', mainUrl('/'));
    await expect(page.getByLabel('Email')).toHaveCount(0);
    await page.screenshot({ path: '.tmp/screens/company-login-inactive-1280.png' });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: '.tmp/screens/company-login-inactive-375.png' });
  });

  test("an unknown company's subdomain says 'Company not found or inactive'", async ({ page }) => {
    await page.goto(tenantUrl(unique('nobody'), '/company-login'));
    await expect(page.getByRole('heading', { name: 'Company not found or inactive' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Main Site' })).toBeVisible();
  });

  test('a failed tenant login shows the server detail', async ({ page }) => {
    const api = await adminApi();
    const company = await seedCompany(api);
    await page.goto(tenantUrl(company.subdomain, '/login'));
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password', { exact: true }).fill('nope');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/login'));
    await page.route('**/api/v1/auth/login', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('An unexpected error occurred. Please try again.');
    await api.dispose();
  });
});

/** A loopback HTTP target answering every request with `status`. */
async function listen(host: string, status: number): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(String(status));
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

/** A real PNG file of one colour (8-bit RGB), for a company logo. */
function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
