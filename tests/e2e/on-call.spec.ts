// The on-call screens (issue 30 item 1), in Chromium against the real server: a company admin
// creates a schedule from the menu (the server's per-field messages shown at their fields), with
// two people in a weekly layer; sees who is on call now and next with the hand-off in the
// schedule's zone and the viewer's (the browser is in New York, the schedule in Berlin); adds an
// override that wins now, on the card and on the timeline, and removes it; finds the schedule on
// the list and their own shift under My shifts, with a calendar address that serves the feed and
// stops when regenerated. A viewer sees the same schedule with no control that writes. Each step
// is looked at at 1280 and 375 px (the page never scrolls sideways) and checked with axe.
import { request, type Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

test.use({ timezoneId: 'America/New_York' });

const shot = shotsIn('on-call');

async function shots(page: Page, name: string): Promise<void> {
  // from the top: a full-page shot of a scrolled page draws the fixed header mid-page
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** A wall-clock 'YYYY-MM-DDTHH:MM' of `ms` in `zone` (the editor's datetime-local value). */
function wallClock(ms: number, zone: string): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** A GET as a calendar app makes it: no cookie, the token in the address is the only credential. */
async function fetchFeed(url: string): Promise<{ status: number; type: string; text: string }> {
  const app = await request.newContext();
  const r = await app.get(url);
  const out = { status: r.status(), type: r.headers()['content-type'] ?? '', text: await r.text() };
  await app.dispose();
  return out;
}

test('an admin builds a schedule, sees who is on call, overrides it; a viewer only reads', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api, { name: 'Pager Co' });
  // seedUser's answer names its default; the names given here are the ones the screens show
  const alice = { ...(await seedUser(api, 2, company.id, { name: 'Alice Anders' })), name: 'Alice Anders' };
  const bob = { ...(await seedUser(api, 2, company.id, { name: 'Bob Berger' })), name: 'Bob Berger' };
  const viewer = await seedUser(api, 3, company.id, { name: 'Vera Viewer' });
  await api.dispose();
  const origin = tenantUrl(company.subdomain);
  await signInUi(page, origin, alice);

  // From the menu to an empty list, then the editor.
  await page.getByRole('navigation').getByRole('link', { name: 'On-call' }).click();
  await expect(page.getByRole('heading', { name: 'On-call', level: 2 })).toBeVisible();
  await expect(page.getByText('No schedules yet: create one to page whoever is on call.')).toBeVisible();
  await expect(page.getByText('You are not on call in the next 14 days.')).toBeVisible();
  await page.getByRole('button', { name: 'New schedule' }).click();
  await expect(page.getByRole('heading', { name: 'New schedule' })).toBeVisible();

  // A layer without people is told before sending; the server judges the rest, its message for
  // each field shown at that field.
  await page.getByLabel('Schedule name').fill('Primary');
  await page.getByLabel('Time zone').fill('Europe/Nowhere');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.locator('#layer-0-people-error')).toHaveText('Add at least one person to this layer');
  await page.getByLabel('Person to add to Layer 1').selectOption({ label: alice.name });
  await page.getByRole('button', { name: 'Add person' }).click();
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.locator('#sched-zone-error')).toContainText('Europe/Nowhere');
  await expect(page.locator('#layer-0-people-error')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'editor-refused');

  // Alice's turn began a day ago (weekly, 09:00 Berlin hand-offs would be the usual; here the
  // start is a day back so she is on call now and Bob takes over in six days).
  const start = wallClock(Date.now() - 86_400_000, 'Europe/Berlin');
  await page.getByLabel('Time zone').fill('Europe/Berlin');
  await page.getByLabel('Person to add to Layer 1').selectOption({ label: bob.name });
  await page.getByRole('button', { name: 'Add person' }).click();
  await expect(page.getByText(`2. ${bob.name}`)).toBeVisible();
  await page.getByLabel('Rotation starts (Europe/Berlin)').fill(start);
  await page.getByLabel('Hand-off').selectOption('weekly');
  await page.getByRole('button', { name: 'Create schedule' }).click();

  // The schedule's page: Alice now, Bob next, the hand-off in Berlin's time and in New York's.
  await expect(page.getByRole('heading', { name: 'Primary', level: 2 })).toBeVisible();
  await expect(page.getByText('Schedule "Primary" created.')).toBeVisible();
  const now = page.getByTestId('on-call-now');
  const next = page.getByTestId('on-call-next');
  await expect(now).toContainText(alice.name);
  await expect(next).toContainText(bob.name);
  const handoff = wallClock(Date.now() + 6 * 86_400_000, 'Europe/Berlin').slice(0, 10);
  await expect(next).toContainText(`${handoff} `);
  await expect(next).toContainText('(Europe/Berlin)');
  await expect(next).toContainText('(your time)');
  const timeline = page.getByRole('region', { name: 'Shifts of the next 7 days' });
  await expect(timeline.getByRole('list', { name: 'On call' })).toContainText(alice.name);
  await expect(timeline.getByRole('list', { name: 'On call' })).toContainText(bob.name);
  await expect(timeline.getByRole('list', { name: 'Overrides' })).toContainText('Nobody');
  await page.getByRole('button', { name: '14 days' }).click();
  await expect(page.getByRole('region', { name: 'Shifts of the next 14 days' }).getByRole('list', { name: 'Layer 1' })).toContainText(
    alice.name,
  );
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'schedule');

  // Bob covers the next three hours from now: the override wins over Alice's turn.
  await page.getByLabel('Who covers').selectOption({ label: bob.name });
  await page.getByLabel('From (Europe/Berlin)').fill(wallClock(Date.now() - 60_000, 'Europe/Berlin'));
  await page.getByLabel('To (Europe/Berlin)').fill(wallClock(Date.now() + 3 * 3_600_000, 'Europe/Berlin'));
  await page.getByRole('button', { name: 'Add override' }).click();
  await expect(page.getByText('Override added.')).toBeVisible();
  await expect(now).toContainText(bob.name);
  await expect(next).toContainText(alice.name);
  await expect(page.getByRole('region', { name: /Shifts of the next/ }).getByRole('list', { name: 'Overrides' })).toContainText(bob.name);
  await expect(page.getByRole('button', { name: `Remove the override of ${bob.name}` })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'override');

  // The list: the same now and next.
  await page.getByRole('link', { name: 'On-call' }).first().click();
  const row = page.getByRole('row', { name: /Primary/ });
  await expect(row.getByRole('cell').nth(1)).toContainText(bob.name);
  await expect(row.getByRole('cell').nth(2)).toContainText(alice.name);
  // My shifts: Alice's own turn, and her private calendar address.
  const mine = page.getByRole('region', { name: 'My shifts' });
  await expect(mine).toContainText('Primary:');
  await mine.getByRole('button', { name: 'Get calendar address' }).click();
  const address = mine.getByLabel('Your calendar address');
  await expect(address).toHaveValue(/\/api\/v1\/calendars\//);
  const first = await address.inputValue();
  const feed = await fetchFeed(first);
  expect(feed.status).toBe(200);
  expect(feed.type).toContain('text/calendar');
  expect(feed.text).toContain('BEGIN:VEVENT');
  expect(feed.text).toContain('Primary');
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'list');
  await mine.getByRole('button', { name: 'Regenerate address' }).click();
  await expect(address).not.toHaveValue(first);
  expect((await fetchFeed(first)).status).toBe(404);

  // The override removed: Alice is on call again.
  await page.getByRole('link', { name: 'Primary' }).click();
  await page.getByRole('button', { name: `Remove the override of ${bob.name}` }).click();
  await expect(page.getByText('Override removed.')).toBeVisible();
  await expect(now).toContainText(alice.name);
  await expect(page.getByText('No overrides ahead.')).toBeVisible();

  // A second layer for business hours: Bob on weekdays 09:00-18:00 in Berlin. A restriction
  // that ends before it starts is refused at that restriction; fixed, the layer gets its row.
  await page.getByRole('button', { name: 'Add layer' }).click();
  const layer2 = page.getByRole('listitem', { name: 'Layer 2' });
  await layer2.getByLabel('Person to add to Layer 2').selectOption({ label: bob.name });
  await layer2.getByRole('button', { name: 'Add person' }).click();
  await layer2.getByRole('button', { name: 'Add restriction' }).click();
  await expect(layer2.getByRole('checkbox', { name: 'Fri' })).toBeChecked();
  await expect(layer2.getByRole('checkbox', { name: 'Sat' })).not.toBeChecked();
  await layer2.getByLabel('From', { exact: true }).fill('18:00');
  await layer2.getByLabel('to', { exact: true }).fill('09:00');
  await page.getByRole('button', { name: 'Save schedule' }).click();
  await expect(layer2.getByRole('alert')).toContainText('must end after it starts');
  await layer2.getByLabel('From', { exact: true }).fill('09:00');
  await layer2.getByLabel('to', { exact: true }).fill('18:00');
  await layer2.getByLabel('Layer name').fill('Business hours');
  await page.getByRole('button', { name: 'Save schedule' }).click();
  await expect(page.getByText('Schedule saved.')).toBeVisible();
  const rows = page.getByRole('region', { name: /Shifts of the next/ });
  await expect(rows.getByRole('list', { name: 'Business hours' })).toContainText(bob.name);
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'two-layers');
  // Moved first, the all-week layer below it wins everywhere: business hours never decide.
  await page.getByRole('button', { name: 'Move Business hours up' }).click();
  await page.getByRole('button', { name: 'Save schedule' }).click();
  await expect(rows.getByRole('list', { name: 'Business hours' })).toContainText('Nobody');
  await expect(now).toContainText(alice.name);

  // A viewer: the same schedule, no control that writes.
  const ctx = await browser.newContext({ timezoneId: 'America/New_York' });
  const vpage = await ctx.newPage();
  await signInUi(vpage, origin, viewer);
  await vpage.goto(tenantUrl(company.subdomain, '/on-call'));
  await expect(vpage.getByRole('row', { name: /Primary/ })).toContainText(alice.name);
  await expect(vpage.getByRole('button', { name: 'New schedule' })).toHaveCount(0);
  await vpage.getByRole('link', { name: 'Primary' }).click();
  await expect(vpage.getByTestId('on-call-now')).toContainText(alice.name);
  await expect(vpage.getByText(`${alice.name} → ${bob.name}; hands off weekly`)).toBeVisible();
  await expect(vpage.getByText(`Business hours: ${bob.name}; hands off weekly`)).toContainText('only Mon, Tue, Wed, Thu, Fri 09:00–18:00');
  for (const name of ['Save schedule', 'Add override', 'Delete schedule', 'Get calendar address', 'Add layer'])
    await expect(vpage.getByRole('button', { name })).toHaveCount(0);
  await expectNoSeriousA11yViolations(vpage);
  await shots(vpage, 'viewer');
  await vpage.goto(tenantUrl(company.subdomain, '/on-call/new'));
  await expect(vpage.getByRole('heading', { name: 'Page Not Found', level: 1 })).toBeVisible();
  await ctx.close();
});
