// Acknowledge and escalate in the console (issue 14 item 5), as a company admin on the company's
// host: save an escalation policy on /settings/escalation; an unacknowledged incident escalates
// to the admin by e-mail (the real escalation and delivery jobs of the server, a real SMTP sink);
// the signed link in that mail opens a page that shows the incident without acknowledging it,
// and its button acknowledges; the incident page and the list show who acknowledged. A second
// incident is acknowledged from the console's Acknowledge button.
import type { Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  mails,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

/** A call from the signed-in page (the browser resolves *.localhost; Node does not). */
function call(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: { id?: string; acknowledged_at?: string | null } }> {
  return page.evaluate(
    async ([m, p, b]) => {
      const r = await fetch(p as string, {
        method: m as string,
        headers: b ? { 'content-type': 'application/json' } : {},
        body: b ? JSON.stringify(b) : undefined,
      });
      return { status: r.status, body: await r.json() };
    },
    [method, path, body] as const,
  );
}

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a company admin saves an escalation policy, acknowledges from the mailed link and from the console', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api, { name: 'Escalate Co' });
  const admin = await seedUser(api, 2, company.id);
  const origin = tenantUrl(company.subdomain);
  await signInUi(page, origin, admin);

  // The policy screen: one step, at once, to the admin personally.
  await page.goto(tenantUrl(company.subdomain, '/settings'));
  await page.getByRole('link', { name: 'Escalation' }).click();
  await expect(page.getByRole('heading', { name: 'Escalation policy' })).toBeVisible();
  await expect(page.getByText('No steps: incidents do not escalate.')).toBeVisible();
  await page.getByRole('button', { name: 'Add step' }).click();
  await page.getByLabel('Minutes after the incident started (0: at once)').fill('0');
  await page.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Choose at least one channel, person or schedule')).toBeVisible();
  await page.getByRole('group', { name: 'People' }).getByLabel(admin.name).check();
  const put = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith('/api/v1/escalation-policy'));
  await page.getByRole('button', { name: 'Save policy' }).click();
  expect((await put).status()).toBe(200);
  await expect(page.getByText('Escalation policy saved.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'escalation-policy');
  await page.reload();
  await expect(page.getByRole('group', { name: 'People' }).getByLabel(admin.name)).toBeChecked();

  // An incident nobody acknowledges: the escalation job mails the admin a signed link.
  const created = await call(page, 'POST', '/api/v1/incidents', {
    title: 'Checkout is failing',
    severity: 'high',
    message: 'Investigating.',
  });
  expect(created.status).toBe(201);
  const incidentId = created.body.id as string;
  let link = '';
  await expect(async () => {
    const mail = mails.find((m) => m.to.includes(admin.email) && m.raw.includes('Not acknowledged: Checkout is failing'));
    expect(mail).toBeDefined();
    link = /Acknowledge: (http:\/\/\S+\/ack\/[A-Za-z0-9_.-]+)/.exec(mail!.raw.replace(/=\r?\n/g, ''))?.[1] ?? '';
    expect(link).not.toBe('');
  }).toPass({ timeout: 40_000 });

  // Opened without a session (a phone's mail app): the page shows the incident, acknowledges nothing.
  const stranger = await browser.newContext();
  const ackPage = await stranger.newPage();
  await ackPage.goto(link);
  await expect(ackPage.getByRole('heading', { name: 'Checkout is failing' })).toBeVisible();
  await expect(ackPage.getByText('Escalate Co')).toBeVisible();
  await expectNoSeriousA11yViolations(ackPage);
  await shots(ackPage, 'ack-link-ready');
  expect((await call(page, 'GET', `/api/v1/incidents/${incidentId}`)).body.acknowledged_at).toBeNull();
  await ackPage.getByRole('button', { name: 'Acknowledge incident' }).click();
  await expect(ackPage.getByRole('status')).toContainText('Acknowledged.');
  await shots(ackPage, 'ack-link-done');
  // Used: opening it again says so; a forged token gets a page that shows nothing of the incident.
  await ackPage.goto(link);
  await expect(ackPage.getByRole('status')).toContainText('This link was used');
  const forged = await ackPage.goto(`${link.slice(0, -3)}AAA`);
  expect(forged?.status()).toBe(404);
  await expect(ackPage.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  await expect(ackPage.getByText('Checkout is failing')).toHaveCount(0);
  await stranger.close();

  // The console shows it on the incident and in the list.
  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidentId}`));
  await expect(page.getByText(`by ${admin.name}, through the link in a personal e-mail`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Acknowledge' })).toHaveCount(0);
  // Who the policy paged: the admin, named in step 1, by e-mail, and the acknowledgement.
  const pages = page.getByRole('table', { name: /Escalation pages/ });
  await expect(pages.getByRole('row', { name: new RegExp(admin.name) })).toContainText('Named in the step');
  await expect(pages.getByRole('row', { name: new RegExp(admin.name) })).toContainText('E-mail');
  await expect(pages.getByRole('row', { name: new RegExp(admin.name) })).toContainText(`by ${admin.name}`);
  await shots(page, 'incident-escalation-pages');

  // A second incident, acknowledged from the console.
  const secondId = (await call(page, 'POST', '/api/v1/incidents', { title: 'Search is slow', severity: 'medium', message: 'Looking.' }))
    .body.id as string;
  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${secondId}`));
  // The incident's own "Acknowledged" field (the policy may already have paged someone for it, and
  // that page's row says "Not yet" too).
  await expect(page.getByRole('definition').filter({ hasText: /^Not yet$/ })).toBeVisible();
  await page.getByRole('button', { name: 'Acknowledge', exact: true }).click();
  await expect(page.getByText('Acknowledged: your team sees that you are on it, and escalation stops.')).toBeVisible();
  await expect(page.getByText(`by ${admin.name}, in the console`)).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'incident-acknowledged');
  await page.goto(tenantUrl(company.subdomain, '/monitors/incidents'));
  await expect(page.getByRole('row', { name: /Search is slow/ }).getByText('acknowledged', { exact: true })).toBeVisible();
  await shots(page, 'incidents-list-acknowledged');

  // The phone for personal SMS is kept with the notification preferences.
  await page.goto(tenantUrl(company.subdomain, '/notifications'));
  await page.getByRole('button', { name: 'Preferences' }).click();
  await page.getByLabel('Phone for SMS alerts').fill('+14155550123');
  const saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/v1/notifications/preferences'));
  await page.getByRole('button', { name: 'Save phone' }).click();
  expect((await saved).postDataJSON()).toMatchObject({ phone: '+14155550123' });
  await expect(page.getByText('Preferences saved')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'preferences-phone');
  await page.reload();
  await page.getByRole('button', { name: 'Preferences' }).click();
  await expect(page.getByLabel('Phone for SMS alerts')).toHaveValue('+14155550123');
  // A personal webhook: a URL with credentials is refused with the reason; its secret is shown once.
  await page.getByLabel('Webhook URL for your alerts').fill('https://me:pw@hooks.example.com/x');
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await expect(page.getByText('The URL must not contain a user name or password')).toBeVisible();
  await page.getByLabel('Webhook URL for your alerts').fill('https://hooks.example.com/me');
  await page.getByRole('button', { name: 'Save webhook' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Signing secret of your webhook' })).toContainText('whsec_');
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'preferences-webhook');
  await page.reload();
  await page.getByRole('button', { name: 'Preferences' }).click();
  await expect(page.getByLabel('Webhook URL for your alerts')).toHaveValue('https://hooks.example.com/me');
  await expect(page.getByText('Signing secret of your webhook')).toHaveCount(0);
});
