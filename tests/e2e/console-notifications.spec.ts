// The notifications page with notifications the engine really created: a monitor that goes down
// and comes back (critical/high then info) and one that stays down.
import type { Page } from '@playwright/test';
import {
  adminApi,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  expect,
  test,
} from './console-fixtures.ts';

let flakyBroken = true;

const target = loopbackTarget((req, res) => {
  const down = req.url === '/down' || (req.url === '/flaky' && flakyBroken);
  res.writeHead(down ? 500 : 200, { 'content-type': 'text/plain' });
  res.end(down ? 'broken' : 'ok');
});

type N = { id: string; title: string; severity: string; is_read: boolean; action_url: string | null };

/** Polls the signed-in page's own API (the browser resolves *.localhost; Node does not). */
async function notificationsOf(page: Page, until: (list: N[]) => boolean): Promise<N[]> {
  const end = Date.now() + 25_000;
  for (;;) {
    const list = await page.evaluate(async () => (await fetch('/api/v1/notifications/')).json() as Promise<N[]>);
    if (Array.isArray(list) && until(list)) return list;
    if (Date.now() > end) throw new Error(`notifications never arrived: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

test('counts, filters, mark read, mark all read, clear read, delete, preferences, toasts, click follows action_url', async ({ page }) => {
  test.setTimeout(90_000);
  flakyBroken = true;
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  for (const [name, path] of [
    ['Flaky API', '/flaky'],
    ['Dead API', '/down'],
  ]) {
    const r = await api.post('/api/v1/monitors', {
      data: {
        type: 'http',
        company_id: company.id,
        name,
        url: `http://127.0.0.1:${target.port()}${path}`,
        interval_seconds: 1,
        confirmations: 1,
      },
    });
    expect(r.status(), await r.text()).toBe(201);
  }
  await page.clock.install(); // the toasts' time is the test's (below)
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await notificationsOf(page, (l) => l.filter((n) => n.title.endsWith('is down')).length === 2);
  flakyBroken = false;
  const all = await notificationsOf(page, (l) => l.some((n) => n.title === 'Flaky API is back up'));
  expect(all).toHaveLength(3);
  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, '/notifications'));
  const counts = page.getByTestId('notification-counts');
  const cards = page.getByTestId('notification-card');
  await expect(counts).toHaveText('3 unread · 0 read');
  await expect(cards).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Mark all read' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Clear read' })).toHaveCount(0);
  const dead = cards.filter({ hasText: 'Dead API is down' });
  await expect(dead).toContainText('Monitor incident');
  await expect(dead).not.toContainText('monitor_incident');
  // the card reads as a sentence: the message, never the raw metadata
  await expect(dead).toContainText('Dead API is down: HTTP 500');
  await expect(dead).not.toContainText('incident_id');
  await expect(dead).not.toContainText('monitor_id');
  await expect(dead).not.toContainText('event:');
  await shot(page, 'notifications-1280');
  await expectNoSeriousA11yViolations(page);

  // filters go to the server as query parameters; empty ones are left out
  const severityQuery = page.waitForRequest((r) => r.url().includes('/api/v1/notifications/?') && r.url().includes('severity=info'));
  await page.getByLabel('Severity').selectOption('info');
  expect(new URL((await severityQuery).url()).searchParams.has('is_read')).toBe(false);
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText('Flaky API is back up');
  await page.getByLabel('Type').selectOption('ssl_warning');
  await expect(page.getByRole('heading', { name: 'No notifications' })).toBeVisible();
  await expect(page.getByText("You're all caught up! No notifications to display.")).toBeVisible();
  await page.getByLabel('Type').selectOption('');
  await page.getByLabel('Severity').selectOption('');
  await expect(cards).toHaveCount(3);

  // one card marked read: toast for 3.2 s, counts move
  await page.clock.pauseAt(Date.now() + 1_000); // the page's time stands still but for runFor
  await page.getByRole('button', { name: 'Mark read: Flaky API is back up' }).click();
  const toast = page.getByText('Notification marked as read');
  await expect(toast).toBeVisible();
  await expect(counts).toHaveText('2 unread · 1 read');
  await page.clock.runFor(2_500);
  await expect(toast).toBeVisible();
  await page.clock.runFor(1_000);
  await expect(toast).toBeHidden();
  await page.clock.resume();
  // the header counts all of the user's notifications, whatever the filters show
  await page.getByLabel('Status').selectOption('read');
  await expect(cards).toHaveCount(1);
  await expect(counts).toHaveText('2 unread · 1 read');
  await expect(page.getByRole('button', { name: 'Mark all read' })).toBeVisible();
  await page.getByLabel('Status').selectOption('unread');
  await expect(cards).toHaveCount(2);
  await expect(counts).toHaveText('2 unread · 1 read');
  await expect(page.getByRole('button', { name: 'Clear read' })).toBeVisible();
  await page.screenshot({ path: '.tmp/screens/notifications-unread-filter-1280.png', fullPage: true });
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // on a narrow screen the card's buttons sit below its text, which keeps the full width
  await expect
    .poll(() =>
      cards.first().evaluate((card) => {
        const text = card.querySelector('.sw-notification-main')!.getBoundingClientRect();
        const buttons = card.querySelector('.sw-actions')!.getBoundingClientRect();
        return buttons.top >= text.bottom && text.width > 200;
      }),
    )
    .toBe(true);
  await page.screenshot({ path: '.tmp/screens/notifications-unread-filter-375.png', fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByLabel('Severity').selectOption('critical');
  await expect(counts).toHaveText('2 unread · 1 read');
  await page.getByLabel('Severity').selectOption('');
  await expect(cards).toHaveCount(2);

  // clear read asks first: Cancel keeps the read notification
  await page.getByRole('button', { name: 'Clear read' }).click();
  const confirm = page.getByRole('dialog', { name: 'Clear read notifications' });
  await expect(confirm).toContainText('Delete the 1 read notification? This cannot be undone.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(counts).toHaveText('2 unread · 1 read');
  await expect(page.getByRole('button', { name: 'Clear read' })).toBeFocused();
  // clear read under the Unread filter: the list keeps its two, the counts of everything move
  await page.getByRole('button', { name: 'Clear read' }).click();
  await page.getByRole('dialog', { name: 'Clear read notifications' }).getByRole('button', { name: 'Delete read' }).click();
  await expect(page.getByText('Read notifications cleared')).toBeVisible();
  await expect(counts).toHaveText('2 unread · 0 read');
  await expect(page.getByRole('button', { name: 'Clear read' })).toHaveCount(0);
  await expect(cards).toHaveCount(2);
  await page.getByLabel('Status').selectOption('');
  await expect(cards).toHaveCount(2);

  // delete one
  await page.getByRole('button', { name: 'Delete Flaky API is down' }).click();
  await expect(cards).toHaveCount(1);

  // preferences
  await page.getByRole('button', { name: 'Preferences' }).click();
  const sms = page.getByRole('switch', { name: 'SMS notifications' });
  await expect(page.getByRole('switch', { name: 'Email notifications' })).toBeChecked();
  await expect(sms).not.toBeChecked();
  await expect(page.getByText('also reach you by email (to your sign-in address)', { exact: false })).toBeVisible();
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/v1/notifications/preferences'));
  await sms.check();
  await page.getByRole('button', { name: 'Save preferences' }).click();
  expect((await put).postDataJSON()).toMatchObject({ sms_enabled: true, email_enabled: true });
  await expect(page.getByText('Your preferences are saved.')).toBeVisible();
  await page.reload();
  await page.getByRole('button', { name: 'Preferences' }).click();
  await expect(page.getByRole('switch', { name: 'SMS notifications' })).toBeChecked();

  // clicking the card marks it read and opens its incident (not 'Coming Soon')
  const dead2 = (await notificationsOf(page, () => true)).find((n) => n.title === 'Dead API is down')!;
  expect(dead2.action_url).toMatch(/^\/monitors\/incidents\/[\w-]+$/);
  const read = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith(`/api/v1/notifications/${dead2.id}/read`));
  await page.getByRole('button', { name: /^Dead API is down/ }).click();
  await read;
  await expect(page).toHaveURL(tenantUrl(company.subdomain, dead2.action_url!));
  await expect(page.getByText('Dead API', { exact: false }).first()).toBeVisible();
  await expect(page.getByText('Coming Soon')).toHaveCount(0);
  await api.dispose();
});

test('mark all read empties the unread count', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const viewer = await seedUser(api, 3, company.id);
  const r = await api.post('/api/v1/monitors', {
    data: {
      type: 'http',
      company_id: company.id,
      name: 'Down Again',
      url: `http://127.0.0.1:${target.port()}/down`,
      interval_seconds: 1,
      confirmations: 1,
    },
  });
  expect(r.status()).toBe(201);
  await signInUi(page, tenantUrl(company.subdomain), viewer);
  await notificationsOf(page, (l) => l.length >= 1);
  await page.goto(tenantUrl(company.subdomain, '/notifications'));
  await expect(page.getByTestId('notification-counts')).toHaveText(/^[1-9]\d* unread · 0 read$/);
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByText('All notifications marked as read')).toBeVisible();
  await expect(page.getByTestId('notification-counts')).toHaveText(/^0 unread · [1-9]\d* read$/);
  await expect(page.getByRole('button', { name: 'Mark all read' })).toHaveCount(0);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '60px');
  await shot(page, 'notifications-375');
  await api.dispose();
});
