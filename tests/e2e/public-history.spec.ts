// The public history pages in Chromium at 1280 and 375 px, with and without JavaScript: the
// status page links to them, /history pages month by month, an incident opens on its own page
// with its timeline and postmortem, /uptime draws its calendars; axe finds nothing serious.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Services } from '../../src/server/domain/context.ts';
import type { RunningServer } from './support/server.ts';
import { startPublicServer, seedBrandedCompany } from '../api/public/e2e-seed.ts';
import { DAY, seedDaily, seedIncident, seedMaintenance, seedMonitor } from '../api/public/fixtures.ts';

let server: RunningServer;
let services: Services;
const now = Date.now();
const url = (path = '/') => `http://globex.localhost:${server.port}${path}`;
const monthKey = (ms: number) => new Date(ms).toISOString().slice(0, 7);
const monthName = (ms: number) => new Date(ms).toLocaleString('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const lastMonth = Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() - 1, 12, 9);
let incidentId = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  let db;
  ({ server, db, services } = await startPublicServer());
  const globex = await seedBrandedCompany(services, { name: 'Globex', subdomain: 'globex', primary: '#0f5e9c', secondary: '#334455' });
  const api = await seedMonitor(db, globex.id, now, { name: 'Checkout API' });
  const web = await seedMonitor(db, globex.id, now, { name: 'Storefront' });
  incidentId = await seedIncident(db, globex.id, now, {
    monitorId: api.id,
    title: 'Checkout failures',
    severity: 'critical',
    status: 'resolved',
    startedAt: lastMonth,
    resolvedAt: lastMonth + 45 * 60_000,
    updates: [
      { status: 'investigating', message: 'Payments fail for some customers.', at: lastMonth + 5 * 60_000 },
      { status: 'resolved', message: 'Fixed by rolling back the release.', at: lastMonth + 45 * 60_000 },
    ],
  });
  await db.k
    .updateTable('incidents')
    .set({ postmortem: 'A release changed the payment timeout. We added an alert on it.' })
    .where('id', '=', incidentId)
    .execute();
  await seedMaintenance(db, globex.id, lastMonth - DAY, {
    title: 'Database failover test',
    startsAt: lastMonth + 2 * DAY,
    endsAt: lastMonth + 2 * DAY + 3_600_000,
  });
  const today = Math.floor(now / DAY) * DAY;
  for (let d = today - 100 * DAY; d <= today; d += DAY) {
    await seedDaily(db, api, d, d === Math.floor(lastMonth / DAY) * DAY ? { failures: 60 } : {});
    await seedDaily(db, web, d);
  }
});

test.afterAll(async () => server?.stop());

async function noSeriousAxeViolations(page: Page) {
  const r = await new AxeBuilder({ page }).setLegacyMode().analyze();
  expect(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

for (const javaScriptEnabled of [true, false]) {
  test(`status page → history → incident → uptime ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(url('/'));
    await page.getByRole('link', { name: 'View the full incident history' }).click();
    await expect(page).toHaveURL(url('/history'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Incident history');
    await expect(page.getByRole('link', { name: 'History' })).toHaveAttribute('aria-current', 'page');
    await page.getByRole('link', { name: `← ${monthName(lastMonth)}` }).click();
    await expect(page).toHaveURL(url(`/history?month=${monthKey(lastMonth)}`));
    await expect(page.getByRole('heading', { name: monthName(lastMonth) })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Database failover test' })).toBeVisible();
    await page.getByRole('link', { name: 'Checkout failures' }).click();
    await expect(page).toHaveURL(url(`/incidents/${incidentId}`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Checkout failures');
    await expect(page.locator('.facts')).toContainText('Duration45 min');
    await expect(page.locator('.timeline-list li')).toHaveText([/Investigating.*Payments fail/s, /Resolved.*Fixed by rolling back/s]);
    await expect(page.getByRole('heading', { name: 'Postmortem' })).toBeVisible();
    await page.getByRole('link', { name: 'Uptime' }).click();
    await expect(page).toHaveURL(url('/uptime'));
    const api = page.getByRole('region', { name: /Checkout API/ });
    await expect(api.locator('.month-cal')).toHaveCount(3);
    await expect(api.locator('li.t-bad')).toHaveCount(1);
    await expect(api.locator('li.t-bad')).toHaveAttribute('title', /: 95\.83% uptime$/);
    await page.getByRole('link', { name: '12 months' }).click();
    await expect(page.getByRole('region', { name: /Storefront/ }).locator('.month-cal')).toHaveCount(12);
    await context.close();
  });
}

test('the history pages at 1280 and 375 px, light and dark: no overflow, nothing serious for axe; screenshots', async ({ browser }) => {
  test.setTimeout(180_000); // nine pages, each checked by axe
  for (const [width, scheme] of [
    [1280, 'light'],
    [375, 'light'],
    [375, 'dark'],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    for (const [name, path] of [
      ['history', `/history?month=${monthKey(lastMonth)}`],
      ['incident', `/incidents/${incidentId}`],
      ['uptime', '/uptime?months=6'],
    ] as const) {
      await page.goto(url(path));
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      await page.screenshot({ path: `.tmp/screens/public-${name}-${width}-${scheme}.png`, fullPage: true });
      await noSeriousAxeViolations(page);
    }
    await context.close();
  }
});

test('an unknown incident is a 404 page inside the company frame', async ({ page }) => {
  const r = await page.goto(url('/incidents/does-not-exist'));
  expect(r?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Incident not found');
  await expect(page.getByRole('link', { name: 'See the incident history' })).toBeVisible();
});
