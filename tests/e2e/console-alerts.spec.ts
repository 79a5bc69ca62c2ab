// Alert channels and delivery receipts in the console (issue 14, item 6), as a company admin on
// the company's host, against real webhook receivers on loopback: create a webhook channel (its
// secret shown once), send a test and see it delivered with its attempt, disable the channel; a
// receiver answering 500 leaves the delivery retrying with a Retry action. Viewers get no access;
// a super admin creates only in the tenant chosen in the selector.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

interface Receiver {
  server: http.Server;
  url: string;
  /** webhook-id headers of the requests received */
  ids: string[];
}

async function receiver(status: number): Promise<Receiver> {
  const ids: string[] = [];
  const server = http.createServer((req, res) => {
    ids.push(String(req.headers['webhook-id']));
    req.resume();
    req.on('end', () => res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'broken'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, ids, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

let ok: Receiver;
let broken: Receiver;
test.beforeAll(async () => {
  ok = await receiver(200);
  broken = await receiver(500);
});
test.afterAll(async () => {
  for (const r of [ok, broken]) {
    r.server.closeAllConnections();
    await new Promise((done) => r.server.close(done));
  }
});

/** Screenshots at 1280 and 375 px; at 375 nothing may scroll sideways. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '240px');
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '60px');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function createWebhook(page: Page, name: string, url: string): Promise<void> {
  await page.getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New alert channel' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Type').selectOption('webhook');
  await dialog.getByLabel('Webhook URL').fill(url);
  await dialog.getByRole('button', { name: 'Create channel' }).click();
}

test('a company admin creates a webhook channel, tests it, reads its receipt and disables it; a failing receiver is retried', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: tenantUrl(company.subdomain) });
  await signInUi(page, tenantUrl(company.subdomain), admin);

  // Settings links to Alerts.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Alerts' }).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/settings/alerts'));
  await expect(page.getByText('No alert channels yet.')).toBeVisible();

  // The server's per-field message sits beside its field.
  await createWebhook(page, 'Ops hook', 'ftp://127.0.0.1/hook');
  const dialog = page.getByRole('dialog', { name: 'New alert channel' });
  await expect(dialog.locator('#ch-config-url-error')).toHaveText(/Webhook URL|URL/);
  await dialog.getByLabel('Webhook URL').fill(ok.url);
  await expect(dialog.locator('#ch-config-url-error')).toHaveCount(0);
  await shots(page, 'alerts-channel-dialog');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Create channel' }).click();

  // The signing secret, once, with a copy button.
  const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
  const secret = await secretDialog.getByLabel('Secret').inputValue();
  expect(secret).toMatch(/^whsec_/);
  await secretDialog.getByRole('button', { name: 'Copy' }).click();
  await expect(secretDialog.getByText('Copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toHaveCount(0);
  await page.reload();
  const row = page.getByRole('row', { name: /Ops hook/ });
  await expect(row).toContainText('Enabled');
  await expect(page.getByText(secret)).toHaveCount(0);

  // Send test: the row tells what became of it.
  await row.getByRole('button', { name: 'Send test to Ops hook' }).click();
  await expect(row.getByRole('status')).toHaveText('Test delivered (HTTP 200).', { timeout: 15_000 });
  expect(ok.ids).toHaveLength(1);
  await shots(page, 'alerts-channels');
  await expectNoSeriousA11yViolations(page);

  // Its receipt, with the attempt.
  await page.getByRole('link', { name: 'Delivery receipts' }).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/notifications/deliveries'));
  const receipt = page.getByRole('row', { name: /Ops hook/ });
  await expect(receipt).toContainText('Test');
  await expect(receipt).toContainText('delivered');
  await receipt.getByText('1 attempt').click();
  await expect(receipt).toContainText(/HTTP 200 · \d+ ms/);
  await expect(receipt.getByRole('button', { name: /Retry/ })).toHaveCount(0);

  // Rotating shows the new secret, once.
  await page.goto(tenantUrl(company.subdomain, '/settings/alerts'));
  await page.getByRole('button', { name: 'Rotate secret of Ops hook' }).click();
  await page.getByRole('dialog', { name: 'Rotate secret' }).getByRole('button', { name: 'Rotate' }).click();
  const rotated = await page.getByRole('dialog', { name: 'Signing secret' }).getByLabel('Secret').inputValue();
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();

  // Disable instead of delete.
  await page.goto(tenantUrl(company.subdomain, '/settings/alerts'));
  await page.getByRole('button', { name: 'Disable Ops hook' }).click();
  await page.getByRole('dialog', { name: 'Disable channel' }).getByRole('button', { name: 'Disable' }).click();
  await expect(page.getByRole('row', { name: /Ops hook/ })).toContainText('Disabled');
  await expect(page.getByRole('button', { name: 'Enable Ops hook' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  // A receiver answering 500: the test is retrying, with Retry.
  await createWebhook(page, 'Broken hook', broken.url);
  await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();
  const brokenRow = page.getByRole('row', { name: /Broken hook/ });
  await brokenRow.getByRole('button', { name: 'Send test to Broken hook' }).click();
  await expect(brokenRow.getByRole('status')).toContainText('Test retrying', { timeout: 15_000 });
  await page.goto(tenantUrl(company.subdomain, '/notifications/deliveries'));
  await page.getByLabel('State').selectOption('retrying');
  const retrying = page.getByRole('row', { name: /Broken hook/ });
  await expect(retrying).toContainText('retrying');
  await expect(page.getByRole('row', { name: /Ops hook/ })).toHaveCount(0);
  await retrying.getByText('1 attempt').click();
  await expect(retrying).toContainText('HTTP 500');
  await shots(page, 'alerts-deliveries');
  await expectNoSeriousA11yViolations(page);
  await retrying.getByRole('button', { name: 'Retry the Test delivery to Broken hook' }).click();
  await expect(page.getByRole('alert')).toHaveText('Retrying the test delivery to "Broken hook" now.');
  // the same delivery again (same webhook-id), answered 500 again
  await expect.poll(() => broken.ids.length, { timeout: 10_000 }).toBe(2);
  expect(new Set(broken.ids).size).toBe(1);
  await page.getByLabel('State').selectOption('');
  await page.getByLabel('Channel').selectOption({ label: 'Ops hook' });
  await expect(page.getByRole('row', { name: /Broken hook/ })).toHaveCount(0);
  await expect(page.getByRole('row', { name: /Ops hook/ })).toBeVisible();

  // A viewer: no Settings entry, and neither screen.
  const vctx = await browser.newContext();
  const v = await vctx.newPage();
  await signInUi(v, tenantUrl(company.subdomain), viewer);
  await expect(v.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' })).toHaveCount(0);
  for (const path of ['/settings/alerts', '/notifications/deliveries']) {
    await v.goto(tenantUrl(company.subdomain, path));
    await expect(v.getByRole('heading', { name: 'Page Not Found', level: 1 })).toBeVisible();
    await expect(v.getByText('Ops hook')).toHaveCount(0);
  }
  await vctx.close();
});

test('a super admin creates a channel only in the tenant chosen in the selector', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/settings/alerts'));
  await expect(page.getByText('Choose a tenant in the selector to create a channel.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New channel' })).toHaveCount(0);
  await page.getByLabel('Tenant', { exact: true }).selectOption(company.id);
  await createWebhook(page, 'Tenant hook', ok.url);
  await page.getByRole('dialog', { name: 'Signing secret' }).getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /Tenant hook/ });
  await expect(row).toContainText('Enabled');
  // A secret left empty on edit keeps its stored value: the renamed Slack channel still reaches its URL.
  await page.getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog', { name: 'New alert channel' });
  await dialog.getByLabel('Name').fill('Chat');
  await dialog.getByLabel('Type').selectOption('slack');
  await expect(dialog.getByLabel('Webhook URL')).toHaveAttribute('type', 'password');
  await dialog.getByLabel('Webhook URL').fill(ok.url);
  await dialog.getByRole('button', { name: 'Create channel' }).click();
  await page.getByRole('button', { name: 'Edit Chat' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Chat' });
  await expect(edit.getByLabel('Webhook URL')).toHaveValue('');
  await expect(edit.getByText('Stored and hidden; leave empty to keep it')).toBeVisible();
  await edit.getByLabel('Name').fill('Chat room');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  const chat = page.getByRole('row', { name: /Chat room/ });
  await expect(chat).toContainText('Slack');
  await chat.getByRole('button', { name: 'Send test to Chat room' }).click();
  await expect(chat.getByRole('status')).toHaveText('Test delivered (HTTP 200).', { timeout: 15_000 });
  // super admins also delete
  await row.getByRole('button', { name: 'Delete Tenant hook' }).click();
  await page.getByRole('dialog', { name: 'Delete channel' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('"Tenant hook" deleted.')).toBeVisible();
  await expect(page.getByRole('row', { name: /Tenant hook/ })).toHaveCount(0);
});
