// The probe locations screen (issue 27), for both roles that manage locations, in Chromium
// against a real server. A company admin creates a private location, mints a token (shown once
// with the command that starts a probe), sees a probe that said hello with it, and revokes it
// (the probe is refused from its next call). A super admin creates a public location, mints its
// token, sees a company's private location read-only (no tokens), and deletes the public one.
// Screenshots at 1366 and 390 px, looked at.
import type { Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  unique,
} from './console-fixtures.ts';

const shot = shotsIn('console-probe-locations');

async function shots(page: Page, name: string): Promise<void> {
  // from the top: a full-page shot of a scrolled page draws the sticky header mid-page
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

/** A probe's hello from this page's origin: its token alone, no cookies. */
function hello(page: Page, token: string, instance: string): Promise<number> {
  return page.evaluate(
    async ([t, i]) => {
      const r = await fetch('/api/v1/probe/hello', {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${t}` },
        body: JSON.stringify({ instance: i, version: '1.0.0' }),
      });
      return r.status;
    },
    [token, instance] as const,
  );
}

/** The token inside the one-time command. */
async function shownToken(page: Page): Promise<string> {
  const command = await page.getByLabel('Start a probe with').inputValue();
  expect(command).toMatch(/^PROBE_URL=http:\/\/[a-z0-9.]+:\d+ PROBE_TOKEN=swp_[A-Za-z0-9_-]{43} npm run probe$/);
  return /PROBE_TOKEN=(\S+)/.exec(command)![1];
}

test('a company admin runs a private location: create it, mint a token, see the probe, revoke the token', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api, { name: 'Probe Co' });
  const admin = await seedUser(api, 2, company.id);
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings'));
  await page.getByRole('link', { name: 'Probe locations' }).click();
  await expect(page.getByRole('heading', { name: 'Probe locations', level: 2 })).toBeVisible();
  await expect(page.getByTestId('location-local')).toContainText('Built-in');
  await expect(page.getByRole('heading', { name: 'New private location' })).toBeVisible();

  await page.getByLabel('Name').fill('Office lab');
  await page.getByLabel('Slug').fill('Office_Lab');
  await page.getByRole('button', { name: 'Create location' }).click();
  await expect(page.getByText('A slug has lower-case letters, digits and hyphens')).toBeVisible();
  await page.getByLabel('Slug').fill('office-lab');
  await page.getByRole('button', { name: 'Create location' }).click();
  await expect(page.getByText('Location “Office lab” created.')).toBeVisible();
  const row = page.getByTestId('location-office-lab');
  await expect(row).toContainText('Private · Probe Co');
  await expect(row).toContainText('0 of 0');
  await expect(row.getByRole('button', { name: 'Delete Office lab' })).toHaveCount(0);

  await row.getByRole('button', { name: 'Probes and tokens of Office lab' }).click();
  const detail = page.getByTestId('location-detail');
  await expect(detail.getByRole('heading', { name: 'Office lab (office-lab)' })).toBeVisible();
  await expect(detail.getByText('No probe has called in yet.')).toBeVisible();
  await detail.getByLabel('Token name').fill('rack 1');
  await detail.getByRole('button', { name: 'Create token' }).click();
  await expect(detail.getByText('Token “rack 1” created. Copy it now: it is not shown again.')).toBeVisible();
  const token = await shownToken(page);
  expect(await hello(page, token, 'rack-1.office')).toBe(200);

  // asked again, the location reloads behind the screen: the probe appears, the command stays shown
  await page.getByRole('button', { name: 'Probes and tokens of Office lab' }).click();
  const probe = detail.getByRole('table', { name: 'Probes' }).getByRole('row', { name: /rack-1\.office/ });
  await expect(probe).toContainText('Online');
  await expect(probe).toContainText('1.0.0');
  await expect(row).toContainText('1 of 1');
  await expect(detail.getByRole('table', { name: 'Probe tokens' })).toContainText(token.slice(0, 12));
  expect(await shownToken(page)).toBe(token);
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'company-admin');

  await detail.getByRole('button', { name: 'Revoke rack 1' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByText('Token “rack 1” revoked.')).toBeVisible();
  await expect(detail.getByText('No tokens yet.')).toBeVisible();
  expect(await hello(page, token, 'rack-1.office')).toBe(401);
});

test('a super admin runs public locations and sees private ones read-only', async ({ page, browser }) => {
  const api = await adminApi();
  const company = await seedCompany(api, { name: 'Branch Co' });
  const admin = await seedUser(api, 2, company.id);
  // The company's admin has a private location.
  const companyPage = await (await browser.newContext()).newPage();
  await signInUi(companyPage, tenantUrl(company.subdomain), admin);
  const privateSlug = unique('br').slice(0, 32);
  const created = await companyPage.evaluate(async (slug) => {
    const r = await fetch('/api/v1/probe-locations', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Branch office', slug, private: true }),
    });
    return r.status;
  }, privateSlug);
  expect(created).toBe(201);
  await companyPage.context().close();

  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/settings'));
  await page.getByRole('link', { name: 'Probe locations' }).click();
  await expect(page.getByRole('heading', { name: 'New public location' })).toBeVisible();
  const slug = unique('fra').slice(0, 32);
  await page.getByLabel('Name').fill('Frankfurt');
  await page.getByLabel('Slug').fill(slug);
  await page.getByRole('button', { name: 'Create location' }).click();
  await expect(page.getByText('Location “Frankfurt” created.')).toBeVisible();
  await expect(page.getByTestId(`location-${slug}`)).toContainText('Public');

  const branch = page.getByTestId(`location-${privateSlug}`);
  await expect(branch).toContainText('Private · Branch Co');
  await branch.getByRole('button', { name: 'Probes of Branch office' }).click();
  const detail = page.getByTestId('location-detail');
  await expect(detail.getByRole('heading', { name: `Branch office (${privateSlug})` })).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Tokens' })).toHaveCount(0);

  await page.getByTestId(`location-${slug}`).getByRole('button', { name: 'Probes and tokens of Frankfurt' }).click();
  await expect(detail.getByRole('heading', { name: `Frankfurt (${slug})` })).toBeVisible();
  await detail.getByLabel('Token name').fill('fra-1');
  await detail.getByRole('button', { name: 'Create token' }).click();
  const token = await shownToken(page);
  expect(await hello(page, token, 'fra-1')).toBe(200);
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'super-admin');

  await page.getByTestId(`location-${slug}`).getByRole('button', { name: 'Delete Frankfurt' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Location “Frankfurt” deleted.')).toBeVisible();
  await expect(page.getByTestId(`location-${slug}`)).toHaveCount(0);
  expect(await hello(page, token, 'fra-1')).toBe(401);
});
