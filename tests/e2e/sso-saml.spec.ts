// Single sign-on with SAML 2.0 in Chromium (issue 31), against the fixture identity provider on
// loopback (tests/fixtures/saml/idp.ts: its own login page, then the HTML form that posts the
// signed answer to our ACS by itself, as real IdPs do). The company's sign-in page offers no SSO
// before it is set up; a company admin chooses SAML 2.0 on Settings > Single sign-on, reads our
// entity ID and ACS URL, downloads our metadata, is told an unusable certificate apart, pastes the
// IdP's metadata and saves; then a new person signs in with "Sign in with SSO". Both widths,
// screenshots looked at.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { insertVerifiedDomain } from './support/server-db.ts';
import { startSamlIdp } from '../fixtures/saml/idp.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  serverDataDir,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const shot = shotsIn('sso-saml');

async function bothWidths(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a company admin sets up SAML 2.0, downloads our metadata, and a new person signs in through the IdP form post', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'enterprise' });
  const domain = `${company.subdomain}.example`;
  insertVerifiedDomain(serverDataDir(), company.id, domain);
  const admin = await seedUser(api, 2, company.id);
  const idp = await startSamlIdp({ now: () => Date.now(), name: 'e2e-idp' });
  idp.users.set('grace', { nameId: `grace@${domain}`, attributes: { groups: ['ops-admins'], displayName: 'Grace Hopper' } });
  const entityId = tenantUrl(company.subdomain, '/api/v1/auth/sso/saml');
  const acs = tenantUrl(company.subdomain, '/api/v1/auth/sso/saml/acs');
  try {
    // Before single sign-on is set up, the company's sign-in page does not offer it.
    const before = await browser.newContext();
    const b = await before.newPage();
    await b.goto(tenantUrl(company.subdomain, '/login'));
    await expect(b.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expect(b.getByRole('link', { name: 'Sign in with SSO' })).toHaveCount(0);
    await before.close();

    await signInUi(page, tenantUrl(company.subdomain), admin);
    await page.goto(tenantUrl(company.subdomain, '/settings/sso'));
    await expect(page.getByRole('heading', { name: 'Identity provider' })).toBeVisible();
    await page.getByLabel('SAML 2.0').check();
    await expect(page.getByLabel('Our entity ID (audience)')).toHaveValue(entityId);
    await expect(page.getByLabel('ACS URL (single sign-on URL at your provider)')).toHaveValue(acs);

    // Our metadata, as the IdP imports it.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download our SAML metadata' }).click();
    const file = await (await download).path();
    const xml = await readFile(file, 'utf8');
    expect(xml).toContain(`entityID="${entityId}"`);
    expect(xml).toContain(`Location="${acs}"`);

    // A certificate that is not one is told apart, per field, before anything is saved.
    await page.getByLabel('Identity provider single sign-on URL').fill(idp.ssoUrl);
    await page.getByLabel('Identity provider entity ID (issuer)').fill(idp.entityId);
    await page.getByLabel('Signing certificate (PEM)').fill('-----BEGIN CERTIFICATE-----\nnot-a-certificate\n-----END CERTIFICATE-----');
    await page.getByLabel('Group attribute').fill('groups');
    await page.getByLabel('Group → role').fill('ops-admins = admin');
    await page.getByLabel(domain).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The certificate is not a PEM certificate (-----BEGIN CERTIFICATE----- ...)').first()).toBeVisible();
    await bothWidths(page, 'settings-bad-certificate');

    // The IdP's metadata pasted fills the rest.
    await page.getByLabel('Identity provider single sign-on URL').fill('');
    await page.getByLabel('Identity provider entity ID (issuer)').fill('');
    await page.getByLabel('Signing certificate (PEM)').fill('');
    await page.getByLabel('Identity provider metadata XML (optional)').fill(idp.metadataXml());
    const put = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/v1/company/sso'));
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await put).status()).toBe(200);
    await expect(page.getByText('Single sign-on settings saved.')).toBeVisible();
    await expect(page.getByLabel('Identity provider single sign-on URL')).toHaveValue(idp.ssoUrl);
    await expect(page.getByText(/Stored: CN=e2e-idp, valid until \d{4}-\d{2}-\d{2}\. Leave empty to keep\./)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await bothWidths(page, 'settings-saved');

    // A new person on the company's sign-in page: to the IdP, its form posts back, signed in.
    const visitor = await browser.newContext();
    const p = await visitor.newPage();
    await p.goto(tenantUrl(company.subdomain, '/login'));
    await expect(p.getByRole('link', { name: 'Sign in with SSO' })).toBeVisible();
    await bothWidths(p, 'login-company-host');
    await p.getByRole('link', { name: 'Sign in with SSO' }).click();
    await expect(p).toHaveURL(new RegExp(`^${idp.ssoUrl}\\?SAMLRequest=`));
    await p.getByLabel('Username').fill('grace');
    await shot(p, 'idp-login-1280');
    await p.getByRole('button', { name: 'Sign in at the IdP' }).click();
    await p.waitForURL((u) => u.pathname === '/dashboard');
    // created just in time, admin from the mapped group
    await expect(p.getByText(`grace@${domain}`).first()).toBeVisible();
    await expect(p.getByText('Customer Admin').first()).toBeVisible();
    await bothWidths(p, 'signed-in-dashboard');
    await visitor.close();
  } finally {
    await idp.close();
  }
});
