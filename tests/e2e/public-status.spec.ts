// The tenant status page in Chromium, against a scripted history written into the database:
// every text, link, state and rule of section 2, the 24 blocks and their tooltips, the empty,
// not-found and invalid cases, tenant text that tries to inject markup, caching, a11y (axe).
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Db } from '../../src/server/db/connect.ts';
import type { Services } from '../../src/server/domain/context.ts';
import type { RunningServer } from './support/server.ts';
import { rawRequest } from '../support/test-app.ts';
import { startPublicServer, seedBrandedCompany, PNG_1PX } from '../api/public/e2e-seed.ts';
import { DAY, HOUR, hourOf, seedIncident, seedMaintenance, seedMonitor, seedScriptedHistory } from '../api/public/fixtures.ts';

let server: RunningServer;
let db: Db;
let services: Services;
const now = Date.now();
const url = (sub: string, path = '/') => `http://${sub}.localhost:${server.port}${path}`;
/** Node cannot resolve *.localhost: talk to loopback with the tenant's Host header. */
const fetchAs = (sub: string, headers: Record<string, string> = {}) =>
  rawRequest(`http://127.0.0.1:${server.port}/`, 'GET', { host: `${sub}.localhost:${server.port}`, ...headers });
const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, db, services } = await startPublicServer());
  const acme = await seedBrandedCompany(services, {
    name: 'Acme',
    subdomain: 'acme',
    primary: '#aa3300',
    secondary: '#334455',
    logo: `data:image/png;base64,${PNG_1PX}`,
  });
  const api = await seedMonitor(db, acme.id, now, { name: 'API', url: 'https://api.acme.example/health', lastCheckedAt: now - 30_000 });
  await seedScriptedHistory(db, api, now);
  const web = await seedMonitor(db, acme.id, now, { name: 'Website', status: 'down', lastHttpCode: 503, lastResponseTimeMs: 2001.456 });
  await seedMonitor(db, acme.id, now, { name: 'Secret DB', isPublic: false, status: 'down' });
  await seedIncident(db, acme.id, now, {
    monitorId: web.id,
    title: 'Website unreachable',
    status: 'identified',
    updates: [
      { status: 'investigating', message: 'We are investigating.', at: now - HOUR },
      { status: 'identified', message: 'A bad deploy; rolling back.', at: now - 60_000 },
    ],
  });
  await seedIncident(db, acme.id, now, {
    title: 'Slow logins',
    status: 'resolved',
    startedAt: now - 3 * DAY,
    resolvedAt: now - 3 * DAY + HOUR,
  });
  await seedIncident(db, acme.id, now, {
    title: 'Ancient outage',
    status: 'resolved',
    startedAt: now - 20 * DAY,
    resolvedAt: now - 20 * DAY + HOUR,
  });
  await seedMaintenance(db, acme.id, now, { title: 'Database upgrade', description: 'Primary database moves to new hardware.' });
  await seedBrandedCompany(services, { name: 'Empty Co', subdomain: 'empty' });
  const fresh = await seedBrandedCompany(services, { name: 'Fresh Co', subdomain: 'fresh' });
  await seedMonitor(db, fresh.id, now, { name: 'Website' });
  // new, its first check failed and not confirmed yet: what the engine leaves (no response time)
  await seedMonitor(db, fresh.id, now, { name: 'Checkout', status: 'unknown', lastResponseTimeMs: null, lastHttpCode: null });
  await seedBrandedCompany(services, { name: 'Gone Co', subdomain: 'gone', isActive: false });
  await seedBrandedCompany(services, { name: 'Never Seen', subdomain: 'neverseen' });
  await seedBrandedCompany(services, {
    name: 'Northwind Telecommunications Infrastructure',
    subdomain: 'northwind',
    logo: `data:image/png;base64,${PNG_1PX}`,
  });
  const evil = await seedBrandedCompany(services, {
    name: '<img src=x onerror="window.__xss=1">Evil',
    subdomain: 'evil',
    primary: '#12345g',
    logo: 'data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9ImFsZXJ0KDEpIi8+',
  });
  const em = await seedMonitor(db, evil.id, now, { name: '<script>window.__xss=2</script>Shop' });
  await seedIncident(db, evil.id, now, {
    monitorId: em.id,
    title: '"><svg onload=window.__xss=3>',
    updates: [{ status: 'investigating', message: '<b onmouseover=window.__xss=4>bold</b>', at: now }],
  });
});

test.afterAll(async () => {
  await db?.close();
  await server?.stop();
});

async function noSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('shows the branded header, overall status, incidents, maintenance and footer', async ({ page }) => {
  const response = await page.goto(url('acme'));
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle('Acme Status');
  const title = page.getByRole('heading', { level: 1, name: 'Acme Status' });
  await expect(title).toHaveCSS('color', 'rgb(170, 51, 0)');
  await expect(page.getByRole('img', { name: 'Acme logo' })).toHaveAttribute('src', `data:image/png;base64,${PNG_1PX}`);
  const login = page.getByRole('link', { name: 'Login', exact: true });
  await expect(login).toHaveAttribute('href', '/login');
  await expect(login).toHaveCSS('background-color', 'rgb(170, 51, 0)');

  const overall = page.locator('.overall');
  await expect(overall.getByRole('heading', { level: 2 })).toHaveText('Partial System Outage'); // one of two public monitors down, as status.json says
  await expect(overall.locator('.icon')).toHaveText('⚠');

  const active = page.locator('section', { has: page.getByRole('heading', { name: 'Active Incidents' }) });
  await expect(active.getByRole('heading', { name: 'Website unreachable' })).toBeVisible();
  await expect(active.locator('.inc-meta')).toContainText('Identified');
  await expect(active.locator('.inc-meta')).toContainText('Affects Website');
  await expect(active.locator('.updates li')).toHaveText([
    /Identified — A bad deploy; rolling back\./,
    /Investigating — We are investigating\./,
  ]);

  const maint = page.locator('section', { has: page.getByRole('heading', { name: 'Scheduled Maintenance' }) });
  await expect(maint.getByRole('heading', { name: 'Database upgrade' })).toBeVisible();
  await expect(maint).toContainText('Scheduled');
  await expect(maint).toContainText('Affects all services');
  await expect(maint).toContainText('Primary database moves to new hardware.');

  const past = page.locator('section', { has: page.getByRole('heading', { name: 'Past Incidents' }) });
  await expect(past.getByRole('heading', { level: 3 })).toHaveText(['Slow logins']); // 20 days ago is outside the 14-day history

  const footer = page.locator('footer');
  await expect(footer).toContainText('Powered by StatusWatch');
  await expect(footer.getByRole('link', { name: 'StatusWatch' })).toHaveAttribute('href', `http://localhost:${server.port}`);
  await expect(footer.getByRole('link', { name: 'RSS' })).toHaveAttribute('href', '/history.rss');
  await expect(page.getByText('Secret DB')).toHaveCount(0);
  await noSeriousAxeViolations(page);
});

test('lists each public monitor with last check, pill, response time and 24 hourly blocks', async ({ page }) => {
  await page.goto(url('acme'));
  await expect(page.getByRole('heading', { level: 2, name: 'Service Status' })).toBeVisible();
  const rows = page.locator('.monitor');
  await expect(rows.locator('.m-name')).toHaveText(['API', 'Website']);
  const api = rows.nth(0);
  const web = rows.nth(1);
  await expect(api.locator('.pill')).toHaveText('Operational');
  await expect(api.locator('.pill')).toHaveCSS('color', 'rgb(22, 101, 52)');
  await expect(web.locator('.pill')).toHaveText('Down');
  await expect(web.locator('.pill')).toHaveCSS('color', 'rgb(153, 27, 27)');
  await expect(api.locator('.rt')).toHaveText('123.46 ms');
  await expect(web.locator('.rt')).toHaveText('2001.46 ms');
  await expect(api.locator('.m-meta time')).toHaveText(utc(now - 30_000));

  const blocks = api.locator('.timeline li');
  await expect(blocks).toHaveCount(24);
  const first = hourOf(now) - 23 * HOUR;
  const tip = (i: number, status: string, code: string) =>
    `${hhmm(first + i * HOUR)}–${hhmm(first + (i + 1) * HOUR)} UTC · ${status} · HTTP ${code}`;
  // scripted: 2 no data, 13 down 503, 14 degraded 200, 23 operational without a code → 200
  await expect(blocks.nth(0)).toHaveAttribute('aria-label', tip(0, 'Operational', '200'));
  await expect(blocks.nth(2)).toHaveAttribute('aria-label', tip(2, 'Unknown', 'n/a'));
  await expect(blocks.nth(13)).toHaveAttribute('aria-label', tip(13, 'Down', '503'));
  await expect(blocks.nth(14)).toHaveAttribute('aria-label', tip(14, 'Degraded', '200'));
  await expect(blocks.nth(23)).toHaveAttribute('aria-label', tip(23, 'Operational', '200'));
  await expect(blocks.nth(13)).toHaveCSS('background-color', 'rgb(220, 38, 38)');
  await expect(blocks.nth(14)).toHaveCSS('background-color', 'rgb(217, 119, 6)');
  await expect(blocks.nth(0)).toHaveCSS('background-color', 'rgb(22, 163, 74)');
  await expect(blocks.nth(2)).toHaveCSS('background-color', 'rgb(156, 163, 175)');
  await expect(web.locator('.timeline li.s-unknown')).toHaveCount(24);

  // 90-day bar: day 1 had 10% failures, the rest full; uptime over 89 days with data
  await expect(api.locator('.daily li')).toHaveCount(90);
  // each day's text comes from the list's data (day 1 back: 10% failures; day 40 back: no data)
  await api.locator('.daily li').nth(88).hover();
  await expect(page.locator('.sp-tip')).toHaveText(`${new Date(now - DAY).toISOString().slice(0, 10)} · 90.00% uptime`);
  await api.locator('.daily li').nth(49).hover();
  await expect(page.locator('.sp-tip')).toHaveText(`${new Date(now - 40 * DAY).toISOString().slice(0, 10)} · No data`);
  await expect(api.locator('.daily li').nth(88)).toHaveCSS('background-color', 'rgb(220, 38, 38)');
  await expect(api.locator('.daily li').nth(87)).toHaveCSS('background-color', 'rgb(22, 163, 74)'); // a full day
  await expect(api.locator('.daily li').nth(49)).toHaveCSS('background-color', 'rgb(156, 163, 175)'); // no data
  await expect(api.locator('.uptime')).toHaveText(/^\d{2}\.\d{2}% uptime$/);

  // the enhanced tooltip: hover, then keyboard
  await blocks.nth(13).hover();
  const bubble = page.locator('.sp-tip');
  await expect(bubble).toBeVisible();
  await expect(bubble).toHaveText(tip(13, 'Down', '503'));
  await api.locator('.timeline').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(bubble).toHaveText(tip(12, 'Operational', '200'));
  await page.keyboard.press('End');
  await expect(bubble).toHaveText(tip(23, 'Operational', '200'));
  await page.keyboard.press('Escape');
  await expect(bubble).toBeHidden();
});

test('draws the bars and their text without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(url('acme'));
  const blocks = page.locator('.monitor').first().locator('.timeline li');
  await expect(blocks).toHaveCount(24);
  await expect(blocks.nth(13)).toHaveAttribute('aria-label', /· Down · HTTP 503$/);
  // CSS shows the text on hover
  await blocks.nth(13).hover();
  const shown = await blocks.nth(13).evaluate((el) => getComputedStyle(el, '::after').content);
  expect(shown).toMatch(/· Down · HTTP 503"$/);
  await expect(blocks.nth(13)).toHaveCSS('background-color', 'rgb(220, 38, 38)');
  await context.close();
});

test('wraps a long company name only between words at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(url('northwind'));
  const title = page.getByRole('heading', { level: 1, name: 'Northwind Telecommunications Infrastructure Status' });
  await expect(title).toBeVisible();
  // a word split over two lines has one client rect per line
  const splitWords = await title.evaluate((h1) => {
    const text = h1.firstChild as Text;
    const split: string[] = [];
    for (const m of text.data.matchAll(/\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (range.getClientRects().length !== 1) split.push(m[0]);
    }
    return split;
  });
  expect(splitWords).toEqual([]);
  expect(await title.evaluate((h1) => h1.scrollWidth <= h1.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await expect(page.getByRole('link', { name: 'Login' })).toBeInViewport();
});

test('says so when a company has no public monitors', async ({ page }) => {
  await page.goto(url('empty'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Empty Co Status');
  await expect(page.getByText('No public monitors configured')).toBeVisible();
  await expect(page.locator('.overall h2')).toHaveText('Status Unknown');
  await expect(page.locator('.overall .icon')).toHaveText('?');
  await expect(page.getByText('No incidents in the last 14 days.')).toBeVisible();
  // the default brand colour #007bff, darkened in its hue to #006ee5 for 4.5:1 on white (it had 3.97:1)
  await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('color', 'rgb(0, 110, 229)');
  await noSeriousAxeViolations(page);
});

test('does not claim all systems operational beside a monitor it shows as Unknown', async ({ page }) => {
  await page.goto(url('fresh'));
  await expect(page.locator('.overall h2')).toHaveText('Some Systems Unknown');
  await expect(page.locator('.overall .icon')).toHaveText('?');
  const checkout = page.locator('.monitor', { has: page.getByRole('heading', { name: 'Checkout' }) });
  await expect(checkout.locator('.pill')).toHaveText('Unknown');
  await expect(checkout.locator('.rt')).toHaveText('—');
  await noSeriousAxeViolations(page);
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await page.screenshot({ path: `.tmp/screens/status-some-unknown-${width}.png` });
  }
});

test('shows Status Page Not Found for unknown and inactive companies', async ({ page }) => {
  for (const sub of ['nosuchcompany', 'gone']) {
    const r = await page.goto(url(sub));
    expect(r?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Status Page Not Found');
    await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', '/login');
  }
  await noSeriousAxeViolations(page);
});

test('shows Invalid subdomain for a host outside the product domain', async ({ page }) => {
  const r = await page.goto(`http://127.0.0.1:${server.port}/`);
  expect(r?.status()).toBe(400);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invalid subdomain');
});

test('renders tenant text as text, drops invalid colours and non-image logos', async ({ page }) => {
  const scripts: string[] = [];
  page.on('console', (m) => scripts.push(m.text()));
  await page.goto(url('evil'));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('<img src=x onerror="window.__xss=1">Evil Status');
  await expect(page.locator('.m-name')).toHaveText('<script>window.__xss=2</script>Shop');
  await expect(page.getByRole('heading', { name: '"><svg onload=window.__xss=3>' })).toBeVisible();
  await expect(page.locator('.updates li')).toContainText('<b onmouseover=window.__xss=4>bold</b>');
  await page.locator('.updates li').hover();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.locator('main img, header img')).toHaveCount(0);
  // the invalid colour fell back to the default (#007bff, shown as its readable #006ee5)
  await expect(page.getByRole('heading', { level: 1 })).toHaveCSS('color', 'rgb(0, 110, 229)');
  // Only our own script; no element came from tenant text (inside attributes `<` is plain text).
  expect(await page.locator('script').count()).toBe(1);
  await expect(page.locator('main img, main svg, main b, header img')).toHaveCount(0);
  const html = (await fetchAs('evil')).text;
  // in text the markup is escaped; in attributes the quote that would end them is
  expect(html).toContain('<h3 class="m-name">&lt;script&gt;window.__xss=2&lt;/script&gt;Shop</h3>');
  expect(html).not.toContain('onerror="window');
  expect(html.includes('#12345g')).toBe(false);
});

test('serves the page with a CSP that allows no unhashed inline script', async ({ page }) => {
  const r = await fetchAs('acme');
  const csp = r.headers.get('content-security-policy')!;
  expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).toContain("frame-ancestors 'none'");
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(url('acme'));
  await page.reload();
  await expect(page.locator('html.js-tips')).toHaveCount(1); // the (hashed) script ran
  expect(violations).toEqual([]);
});

test('answers 304 to a current ETag, serves compressed cached HTML and follows changes', async ({ page }) => {
  const first = await fetchAs('acme');
  const etag = first.headers.get('etag')!;
  expect(etag).toMatch(/^"sp-/);
  expect(first.headers.get('cache-control')).toContain('s-maxage');
  const again = await fetchAs('acme', { 'if-none-match': etag });
  expect(again.status).toBe(304);
  const cached = await fetchAs('acme', { 'accept-encoding': 'br' });
  expect(cached.headers.get('content-encoding')).toBe('br');
  const { brotliDecompressSync } = await import('node:zlib');
  expect(brotliDecompressSync(cached.bytes).toString()).toContain('Acme Status');

  await db.k
    .updateTable('monitors')
    .set({ status: 'operational', last_checked_at: Date.now(), updated_at: Date.now() })
    .where('name', '=', 'Website')
    .execute();
  await db.k
    .updateTable('incidents')
    .set({ status: 'resolved', resolved_at: Date.now(), updated_at: Date.now() })
    .where('title', '=', 'Website unreachable')
    .execute();
  // the snapshot revalidates at most once a second: asked again until it has
  let changed = await fetchAs('acme', { 'if-none-match': etag });
  await expect
    .poll(async () => (changed = await fetchAs('acme', { 'if-none-match': etag })).status, { message: 'the page changed' })
    .toBe(200);
  expect(changed.headers.get('etag')).not.toBe(etag);
  await page.goto(url('acme'));
  await expect(page.locator('.monitor').nth(1).locator('.pill')).toHaveText('Operational');
  await expect(page.locator('.overall h2')).toHaveText('All Systems Operational');
  await expect(page.locator('.overall .icon')).toHaveText('✓');
  await expect(page.getByRole('heading', { name: 'Active Incidents' })).toHaveCount(0);
  const past = page.locator('section', { has: page.getByRole('heading', { name: 'Past Incidents' }) });
  await expect(past.getByRole('heading', { level: 3 })).toHaveText(['Website unreachable', 'Slow logins']);
});

test('follows the system dark mode; screenshots at 1280 and 375 px', async ({ browser }) => {
  for (const [width, scheme] of [
    [1280, 'light'],
    [375, 'light'],
    [1280, 'dark'],
    [375, 'dark'],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(url('acme'));
    await expect(page.locator('body')).toHaveCSS('background-color', scheme === 'dark' ? 'rgb(15, 23, 42)' : 'rgb(248, 250, 252)');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await page.screenshot({ path: `.tmp/screens/status-${width}-${scheme}.png`, fullPage: true });
    if (scheme === 'dark') await noSeriousAxeViolations(page);
    await context.close();
  }
});

test('keeps serving the last page while the database is unavailable', async ({ page }) => {
  const { sql } = await import('kysely');
  await page.goto(url('acme'));
  await expect(page.locator('.monitor')).toHaveCount(2);
  await sql`alter table companies rename to companies_away`.execute(db.k);
  try {
    await new Promise((r) => setTimeout(r, 1100)); // past the revalidation interval: the server tries the database
    const r = await fetchAs('acme', { 'accept-encoding': 'br' });
    expect(r.status).toBe(200);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Acme Status');
    await expect(page.locator('.monitor .m-name')).toHaveText(['API', 'Website']);
    // a page never served before cannot come from memory: it says so
    const failed = await page.goto(url('neverseen'));
    expect(failed?.status()).toBe(503);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Failed to load status page');
  } finally {
    await sql`alter table companies_away rename to companies`.execute(db.k);
  }
});
