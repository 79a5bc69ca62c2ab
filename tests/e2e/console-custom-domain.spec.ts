// Custom domains in Chromium against the built server (issue 17 item 5): a company admin adds
// status.<name>.example on the status page settings, reads the two DNS records to create, creates
// them in a loopback DNS zone (the server asks it through DNS_RESOLVERS), presses Verify now, and
// the public status page then loads on the custom name (Chromium maps it to loopback) — and not
// before. The console is not there. axe on both; screenshots at 1280 and 375 px.
import type { Page } from '@playwright/test';
import { startDnsZone, type DnsZone } from '../fixtures/targets/dns-zone.ts';
import {
  adminApi,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  signInUi,
  tenantUrl,
  expect,
  test as base,
  shotsIn,
} from './console-fixtures.ts';

const DOMAIN = `status.acme-${Date.now().toString(36)}.example`;
const shot = shotsIn('console-custom-domain');

// The zone starts before the worker's server, which is told to ask it.
const test = base.extend<object, { dnsZone: DnsZone }>({
  dnsZone: [
    async ({}, use) => {
      const zone = await startDnsZone();
      await use(zone);
      await zone.close();
    },
    { scope: 'worker' },
  ],
  serverEnv: [async ({ dnsZone }, use) => use({ DNS_RESOLVERS: dnsZone.server }), { scope: 'worker' }],
});
test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium-headless-shell',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      `--host-resolver-rules=MAP ${DOMAIN} 127.0.0.1`,
    ],
  },
});

const target = loopbackTarget((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});

const customUrl = (page: Page, path = '/') => `http://${DOMAIN}:${new URL(page.url()).port}${path}`;

test('an admin adds a custom domain, creates its records, verifies it, and the status page answers on it', async ({ page, dnsZone }) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'professional' });
  const admin = await seedUser(api, 2, company.id);
  const r = await api.post('/api/v1/monitors', {
    data: {
      type: 'http',
      company_id: company.id,
      name: 'Checkout',
      url: `http://127.0.0.1:${target.port()}/`,
      is_public: true,
      interval_seconds: 3600,
    },
  });
  expect(r.status(), await r.text()).toBe(201);
  await api.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors/status-page'));
  const card = page.getByRole('region', { name: 'Custom domain' });
  await expect(card.getByText('No custom domain yet.')).toBeVisible();

  // A name under the platform's own domain is refused beside the field.
  await card.getByLabel('Domain').fill('mine.localhost');
  await card.getByRole('button', { name: 'Add domain' }).click();
  await expect(card.getByText(/Names under localhost are the platform's own/)).toBeVisible();
  await expect(card.getByLabel('Domain')).toHaveAttribute('aria-invalid', 'true');

  await card.getByLabel('Domain').fill(DOMAIN);
  await card.getByRole('button', { name: 'Add domain' }).click();
  const row = card.getByRole('article', { name: new RegExp(DOMAIN.replace(/\./g, '\\.')) });
  await expect(row.getByText('Pending', { exact: true })).toBeVisible();
  const records = row.getByRole('table', { name: `DNS records for ${DOMAIN}` });
  await expect(records.getByRole('row', { name: new RegExp(`CNAME ${DOMAIN} ${company.subdomain}\\.localhost`) })).toBeVisible();
  const txtRow = records.getByRole('row', { name: /^TXT/ });
  await expect(txtRow.getByRole('cell', { name: `_statuswatch-challenge.${DOMAIN}` })).toBeVisible();
  const token = ((await txtRow.locator('td').nth(2).textContent()) ?? '').trim();
  expect(token).toMatch(/^sw-verify-/);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'pending-1280');

  // Before verification the name answers 404 (a visitor's browser that never signed in there).
  const visitor = await page.context().browser()!.newContext();
  const pub = await visitor.newPage();
  expect((await pub.goto(customUrl(page)))?.status()).toBe(404);

  // Only the TXT record: the check says what is still missing.
  dnsZone.txt.set(`_statuswatch-challenge.${DOMAIN}`, [token]);
  await row.getByRole('button', { name: `Verify now ${DOMAIN}` }).click();
  await expect(row.getByText('Failed', { exact: true })).toBeVisible();
  await expect(row.getByText(`${DOMAIN} has no CNAME record pointing at ${company.subdomain}.localhost.`)).toBeVisible();

  dnsZone.cname.set(DOMAIN, `${company.subdomain}.localhost`);
  await row.getByRole('button', { name: `Verify now ${DOMAIN}` }).click();
  await expect(row.getByText('Verified', { exact: true })).toBeVisible();
  await expect(card.getByRole('alert')).toHaveText(`${DOMAIN} is verified: it serves your status page now.`);
  await shot(page, 'verified-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'verified-375');
  await card.screenshot({ path: 'test-results/console-custom-domain/verified-375-card.png' });
  await expectNoSeriousA11yViolations(page);

  // The public page on the custom name.
  await pub.setViewportSize({ width: 1280, height: 900 });
  const answer = await pub.goto(customUrl(page));
  expect(answer?.status()).toBe(200);
  expect(answer?.headers()['set-cookie']).toBeUndefined();
  await expect(pub.getByText('Checkout').first()).toBeVisible();
  await expect(pub).toHaveURL(customUrl(page));
  await expectNoSeriousA11yViolations(pub);
  await shot(pub, 'status-page-custom-1280');
  await pub.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => pub.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(pub, 'status-page-custom-375');
  // Its history page is there; the console is not, and Login leads to the company's own host.
  expect((await pub.goto(customUrl(page, '/history')))?.status()).toBe(200);
  expect((await pub.goto(customUrl(page, '/monitors/status-page')))?.status()).toBe(404);
  expect((await pub.goto(customUrl(page, '/dashboard')))?.status()).toBe(404);
  await pub.goto(customUrl(page));
  await pub.getByRole('link', { name: 'Login', exact: true }).click();
  await expect(pub).toHaveURL(tenantUrl(company.subdomain, '/login'));
  expect(await visitor.cookies(customUrl(page))).toEqual([]);
  await visitor.close();
});
