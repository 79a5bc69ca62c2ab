// The status page's panels in Chromium (issue 32 items 4 and 5): a component's response-time
// chart (total and one location) and the security panel, at 1280 and 375 px. The 7-day chart
// opens from its summary without any script (JavaScript off), closing the 24-hour one; axe finds
// nothing serious in either section; screenshots go to .tmp/screens/public-panels-*.png.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Db } from '../../src/server/db/connect.ts';
import type { Services } from '../../src/server/domain/context.ts';
import { LatencySketch } from '../../src/lib/latency-sketch.ts';
import { locationRollupsRepo } from '../../src/server/db/repositories/location-rollups-repo.ts';
import { monitorNumbers } from '../../src/server/db/repositories/monitor-numbers.ts';
import { newId } from '../../src/server/domain/ids.ts';
import type { RunningServer } from './support/server.ts';
import { insertRollups } from '../support/rollups.ts';
import { startPublicServer, seedBrandedCompany } from '../api/public/e2e-seed.ts';
import { DAY, HOUR, dayOf, hourOf, seedMonitor } from '../api/public/fixtures.ts';

let server: RunningServer;
let db: Db;
let services: Services;
const now = Date.now();
const url = () => `http://panels.localhost:${server.port}/`;

const timed = (mean: number, n: number) => {
  const s = new LatencySketch();
  s.add(mean, n);
  return { checks: n, sum_response_ms: mean * n, response_sketch: s.serialize(), min_response_ms: mean, max_response_ms: mean };
};

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, db, services } = await startPublicServer());
  const co = await seedBrandedCompany(services, { name: 'Panels Inc', subdomain: 'panels', primary: '#0b5394' });
  const shop = await seedMonitor(db, co.id, now, { name: 'Checkout' });
  await seedMonitor(db, co.id, now, { name: 'Website' });
  await db.k.updateTable('monitors').set({ public_response_chart: true, public_locations: true }).where('id', '=', shop.id).execute();
  await db.k.updateTable('companies').set({ public_security_panel: true, updated_at: now }).where('id', '=', co.id).execute();
  const hours = Array.from({ length: 7 * 24 }, (_, i) => hourOf(now) - (i + 1) * HOUR);
  await insertRollups(
    db,
    'hourly',
    hours.map((h) => ({ monitor_id: shop.id, hour_start: h, ...timed(120 + 60 * Math.sin(h / (5 * HOUR)), 60) })),
  );
  await insertRollups(
    db,
    'daily',
    Array.from({ length: 30 }, (_, i) => ({
      monitor_id: shop.id,
      day_start: dayOf(now) - (i + 1) * DAY,
      ...timed(130 + (i % 7) * 4, 1440),
    })),
  );
  await db.k
    .insertInto('probe_locations')
    .values({ id: newId(), num: 7, slug: 'ap-south', name: 'Singapore', company_id: null, created_at: now, created_by: null })
    .execute();
  const nums = await monitorNumbers(db, [shop.id]);
  await locationRollupsRepo(db).putMany(
    hours.slice(0, 48).map((h) => ({
      monitor_id: shop.id,
      company_id: co.id,
      location: 7,
      start: h,
      failures: 0,
      degraded: 0,
      maintenance: 0,
      p95_response_ms: null,
      last_status: null,
      last_http_code: null,
      last_checked_at: null,
      phase_sums: null,
      ...timed(190 + 40 * Math.cos(h / (3 * HOUR)), 60),
    })),
    nums,
  );
  const asset = async (hostname: string, kind: 'domain' | 'host', verified: boolean) => {
    const id = newId();
    await db.k
      .insertInto('security_assets')
      .values({
        id,
        company_id: co.id,
        hostname,
        kind,
        verification_token: newId(),
        verification_method: verified ? 'dns_txt' : null,
        verified_at: verified ? now - DAY : null,
        last_verification_at: now - DAY,
        last_verification_error: null,
        verified_addresses: null,
        renewal_reason: null,
        renewal_needed_at: null,
        created_at: now - DAY,
        updated_at: now - DAY,
      } as never)
      .execute();
    return id;
  };
  const domain = await asset('panels.example', 'domain', true);
  const www = await asset('www.panels.example', 'host', true);
  await asset('intranet.panels.example', 'host', false);
  await db.k
    .insertInto('security_results')
    .values([
      {
        asset_id: domain,
        source: 'dns',
        company_id: co.id,
        checked_at: now - 5 * HOUR,
        grade: null,
        data: JSON.stringify({
          registration_expires_at: now + 300 * DAY,
          spf: { record: 'v=spf1 -all', count: 1, all: '-', lookups: 0, mechanisms: [], broken: [] },
          dmarc: { record: 'v=DMARC1; p=reject', policy: 'reject', subdomain_policy: null, pct: 100, rua: [] },
        }),
      },
      {
        asset_id: www,
        source: 'ssl',
        company_id: co.id,
        checked_at: now - 3 * HOUR,
        grade: 'A',
        data: JSON.stringify({ hsts: 'max-age=31536000', hsts_max_age: 31536000, cert_expires_at: now + 60 * DAY }),
      },
    ])
    .execute();
});

test.afterAll(async () => {
  await server?.stop();
});

async function noSeriousAxe(page: Page, include: string) {
  const results = await new AxeBuilder({ page }).include(include).setLegacyMode().analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const width of [1280, 375]) {
  test(`chart and security panel at ${width} px, range switch without script`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    await page.goto(url());
    const card = page.locator('article.rc-card', { has: page.getByRole('heading', { name: 'Checkout' }) });
    await expect(card).toBeVisible();
    const day = card.locator('details[data-range="24h"]');
    await expect(day.getByRole('img', { name: 'Response times of Checkout, Last 24 hours' })).toBeVisible();
    await expect(day.locator('path[data-series="total"]')).toBeVisible();
    await expect(day.locator('path[data-series="Singapore"]')).toBeVisible();
    await expect(day.locator('.rc-legend')).toContainText('Overall');
    await expect(day.locator('.rc-legend')).toContainText('Singapore');
    const box = await day.locator('svg.rc-svg').boundingBox();
    expect(box!.width).toBeGreaterThan(width === 375 ? 250 : 600);
    expect(box!.width).toBeLessThanOrEqual(width);
    await noSeriousAxe(page, 'section.rc');
    await page.locator('section.rc').screenshot({ path: `.tmp/screens/public-panels-chart-${width}.png` });

    const panel = page.locator('section.sec');
    await expect(panel.getByRole('heading', { name: 'Security' })).toBeVisible();
    const www = panel.locator('[data-domain="www.panels.example"]');
    await expect(www).toContainText('TLS grade');
    await expect(www.locator('.sec-grade')).toHaveText('A');
    await expect(www).toContainText('On, max-age 365 days');
    await expect(www).toContainText(/in (59|60) days/);
    const apex = panel.locator('[data-domain="panels.example"]');
    await expect(apex).toContainText('Pass (policy reject)');
    await expect(apex).toContainText(/in (299|300) days/);
    await expect(panel).not.toContainText('intranet.panels.example');
    await noSeriousAxe(page, 'section.sec');
    await page.locator('section.sec').screenshot({ path: `.tmp/screens/public-panels-security-${width}.png` });
    // nothing spills sideways on a phone
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await context.close();

    // the range switch is a native disclosure group: with scripts off, 7 days opens and 24 hours closes
    const bare = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
    const noScript = await bare.newPage();
    await noScript.goto(url());
    const card2 = noScript.locator('article.rc-card', { has: noScript.getByRole('heading', { name: 'Checkout' }) });
    await card2.locator('details[data-range="7d"] summary').click();
    await expect(
      card2.locator('details[data-range="7d"]').getByRole('img', { name: 'Response times of Checkout, Last 7 days' }),
    ).toBeVisible();
    await expect(card2.locator('details[data-range="24h"]')).not.toHaveAttribute('open', '');
    await card2.locator('details[data-range="7d"]').screenshot({ path: `.tmp/screens/public-panels-7d-${width}.png` });
    await bare.close();
  });
}
