// The public status page in German, Japanese, Arabic and Hebrew in Chromium (issue 32): at 1280
// and 375 px wide, chosen by the browser's language and by the switch, laid out right to left for
// Arabic and Hebrew (axe clean), with screenshots to look at (test-results/public-languages/).
import { test, expect } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Db } from '../../src/server/db/connect.ts';
import type { Services } from '../../src/server/domain/context.ts';
import type { RunningServer } from './support/server.ts';
import { startPublicServer, seedBrandedCompany } from '../api/public/e2e-seed.ts';
import { seedIncident, seedMaintenance, seedMonitor, seedScriptedHistory } from '../api/public/fixtures.ts';
import { PUBLIC_AREA } from '../../src/lib/i18n/messages/public/index.ts';

let server: RunningServer;
let db: Db;
let services: Services;
const now = Date.now();
const url = (path = '/') => `http://babel.localhost:${server.port}${path}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, db, services } = await startPublicServer());
  const co = await seedBrandedCompany(services, { name: 'Babel', subdomain: 'babel', primary: '#1d4ed8' });
  await db.k
    .updateTable('companies')
    .set({ status_page_languages: JSON.stringify(['en', 'de', 'ja', 'ar', 'he']), status_page_time_zone: 'Europe/Berlin', updated_at: now })
    .where('id', '=', co.id)
    .execute();
  const api = await seedMonitor(db, co.id, now, { name: 'API', lastCheckedAt: now - 30_000 });
  await seedScriptedHistory(db, api, now);
  const web = await seedMonitor(db, co.id, now, { name: 'Website', status: 'down', lastHttpCode: 503 });
  await seedIncident(db, co.id, now, {
    monitorId: web.id,
    title: 'Website errors',
    severity: 'high',
    status: 'investigating',
    startedAt: now - 3_600_000,
    updates: [{ status: 'investigating', message: 'Looking into it.', at: now - 3_000_000 }],
  });
  await seedMaintenance(db, co.id, now - 86_400_000, { title: 'DB upgrade', startsAt: now + 86_400_000, endsAt: now + 90_000_000 });
});

test.afterAll(async () => {
  await db?.close();
  await server?.stop();
});

for (const [lang, dir] of [
  ['de', 'ltr'],
  ['ja', 'ltr'],
  ['ar', 'rtl'],
  ['he', 'rtl'],
] as const) {
  for (const width of [1280, 375]) {
    test(`the page in ${lang} at ${width} px`, async ({ browser }, info) => {
      // chosen by the browser's language, as a visitor's first visit is
      const context = await browser.newContext({ locale: lang, viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.goto(url('/'));
      const w = PUBLIC_AREA.translator(lang);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(page.locator('html')).toHaveAttribute('dir', dir);
      await expect(page.getByRole('heading', { name: w.t('page.serviceStatus') })).toBeVisible();
      await expect(page.locator('.pill').first()).toHaveText(w.t('status.operational'));
      // right to left: the page's start is on the right; the hour bars run from the right too
      const bars = page.locator('.timeline').first().locator('li');
      const first = await bars.first().boundingBox();
      const last = await bars.last().boundingBox();
      if (dir === 'rtl') expect(first!.x).toBeGreaterThan(last!.x);
      else expect(first!.x).toBeLessThan(last!.x);
      // nothing wider than the screen
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      if (dir === 'rtl') {
        const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
        const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      }
      await page.screenshot({ path: info.outputPath(`status-${lang}-${width}.png`), fullPage: width === 375 });
      await context.close();
    });
  }
}

test('the switch changes the language and the page links keep it', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(url('/'));
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'עברית' }).click();
  await expect(page).toHaveURL(/\?lang=he$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  const he = PUBLIC_AREA.translator('he');
  await page.getByRole('link', { name: he.t('shell.navHistory') }).click();
  await expect(page).toHaveURL(/\/history\?lang=he$/);
  await expect(page.getByRole('heading', { name: he.t('history.title'), level: 1 })).toBeVisible();
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => v.id)).toEqual([]);
  await context.close();
});
