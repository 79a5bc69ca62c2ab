// The SCIM provisioning card of /settings/company (issue 31 item 2), as a company admin of an
// Enterprise company: create the token (shown once, then only its prefix), see it work (an
// identity provider's call with it lists the company's users), name the role groups, revoke it
// (the next call is 401). A Professional company's admin is told SCIM is Enterprise. Screenshots
// at 1280 and 375 px.
import { type Page, request } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const shot = shotsIn('scim');

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a company admin creates the SCIM token, reads it once, names the role groups and revokes it', async ({ page }) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'enterprise' });
  const admin = await seedUser(api, 2, company.id);
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings/company'));

  const card = page.getByRole('region', { name: 'SCIM provisioning' });
  await expect(card.getByTestId('scim-base-url')).toHaveText(tenantUrl(company.subdomain, '/scim/v2'));
  await expect(card.getByText('None yet')).toBeVisible();
  await card.getByRole('button', { name: 'Create token' }).click();
  const once = page.getByRole('dialog', { name: 'SCIM token created' });
  const token = (await once.getByTestId('new-scim-token').textContent()) ?? '';
  expect(token).toMatch(/^sws_/);
  await shots(page, 'token-once');
  await expectNoSeriousA11yViolations(page);
  await once.getByRole('button', { name: 'Done' }).click();
  await expect(card.getByText(`${token.slice(0, 12)}…`)).toBeVisible();
  await expect(page.getByText(token)).toHaveCount(0);

  // The identity provider's call with it (a client of its own, no cookies) lists the admin.
  const idp = await request.newContext({ baseURL: mainUrl() });
  const host = new URL(tenantUrl(company.subdomain)).host;
  const listed = await idp.get('/scim/v2/Users', { headers: { host, authorization: `Bearer ${token}` } });
  expect(listed.status()).toBe(200);
  expect(((await listed.json()) as { Resources: Array<{ userName: string }> }).Resources.map((u) => u.userName)).toContain(admin.email);

  await card.getByLabel('Admin group').fill('StatusWatch Admins');
  await card.getByLabel('Viewer group').fill('StatusWatch Viewers');
  await card.getByRole('button', { name: 'Save role groups' }).click();
  await expect(card.getByRole('alert')).toHaveText('Role groups saved.');
  await page.reload();
  await expect(card.getByLabel('Admin group')).toHaveValue('StatusWatch Admins');
  await shots(page, 'card');

  await card.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('dialog', { name: 'Revoke SCIM token' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(card.getByRole('alert')).toHaveText('SCIM token revoked.');
  await expect(card.getByText('None yet')).toBeVisible();
  const refused = await idp.get('/scim/v2/Users', { headers: { host, authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  await shots(page, 'revoked');
  await idp.dispose();
});

test('a Professional company admin is told SCIM is part of the Enterprise plan', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'professional' });
  const admin = await seedUser(api, 2, company.id);
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings/company'));
  const card = page.getByRole('region', { name: 'SCIM provisioning' });
  await expect(card.getByText('SCIM provisioning is part of the Enterprise plan.', { exact: false })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Create token' })).toHaveCount(0);
});
