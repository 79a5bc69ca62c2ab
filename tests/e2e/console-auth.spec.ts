// Sign-in screens and the flows around them, as an anonymous visitor and each role.
import { adminApi, E2E_ADMIN, mails, expectNoSeriousA11yViolations, mainUrl, PASSWORD, seedCompany, seedUser, shot, signInUi, tenantUrl, unique, expect, test } from './console-fixtures.ts';

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
    await expect(alert).not.toHaveText('Login failed. Please try again.');
    await expect(alert).toHaveText(/.+/);
    await expect(page).toHaveURL(mainUrl('/login'));
  });

  test('signup: success text without redirect, then the server detail for a taken email', async ({ page }) => {
    const email = `${unique('signup')}@example.com`;
    await page.goto(mainUrl('/signup'));
    await expect(page.getByRole('button', { name: 'Sign up with Google' })).toBeVisible();
    await page.getByLabel('Name').fill('Signup Person');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Signup successful!');
    await expect(page).toHaveURL(mainUrl('/signup'));
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(page.getByRole('alert')).not.toHaveText('Signup successful!');
    await expect(page.getByRole('alert')).toHaveText(/.+/);
    await expectNoSeriousA11yViolations(page);
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
    const raw = mails.find((m) => m.to.includes(user.email))!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const link = raw.match(/https?:\/\/\S+\/reset-password\?token=[\w-]+/)![0];
    await page.goto(link.replace(/^https?:\/\/[^/]+/, mainUrl('')));
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
    await page.goto(link.replace(/^https?:\/\/[^/]+/, mainUrl('')));
    await page.getByLabel('New Password').fill('Third-password-9');
    await page.getByLabel('Confirm Password').fill('Third-password-9');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await expect(page.getByRole('alert')).toContainText('invalid or has expired');
  });

  test('a reset link without a token is refused', async ({ page }) => {
    await page.goto(mainUrl('/reset-password'));
    await expect(page.getByRole('alert')).toContainText('This reset link is invalid');
  });

  test('/notifications is public: a visitor is asked to sign in and nothing is loaded', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/notifications')) calls.push(r.url());
    });
    await page.goto(mainUrl('/notifications'));
    await expect(page.getByText('Please sign in to see your notifications.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    await expect(page).toHaveURL(mainUrl('/notifications'));
    expect(calls).toEqual([]);
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
    await expect(page.getByRole('alert')).toHaveText(/.+/);
    await expect(page).toHaveURL(tenantUrl(company.subdomain, '/login'));
    await api.dispose();
  });
});
