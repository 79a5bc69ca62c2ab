// Screens that looked unfinished (issue 25, item 9), as a person reads them at 1366 and 390 px in a
// browser set to New York time and US English: Traces, Metrics and API Intelligence carry the title
// and breadcrumb of every screen and styled fields; failed traces stand out and say "Error";
// notification preferences come in two groups with a Save that confirms; codes read as words
// (types, events, roles); the audit log's details are "Key: value" lines and its event names wrap
// between words; the one-time API token and the new ingest key show their whole value inside their
// boxes; and every date reads 'YYYY-MM-DD HH:MM UTC', as on the status page.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  seedUser,
  sendOtlpSpans,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  type SeededCompany,
  type SeededUser,
} from './console-fixtures.ts';

const shots = shotsIn('console-polish');
const WIDTHS = [1366, 390] as const;
/** The status page's way of writing a moment. */
const UTC_MINUTE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/;
/** What a US-English browser writes by itself: '11/29/2026, 6:10:41 AM'. */
const LOCALE_DATE = /\d{1,2}\/\d{1,2}\/\d{4}|\d{1,2}:\d{2}:\d{2}\s?(AM|PM)/;

test.use({ locale: 'en-US', timezoneId: 'America/New_York' });

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** Six requests of 'polish-shop' in the last minutes, every other one failing. */
async function sendSpans(api: APIRequestContext, companyId: string): Promise<void> {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const spans = Array.from({ length: 6 }, (_, i) => {
    const error = i % 2 === 0;
    const start = nowNs - BigInt(60 + i * 30) * 1_000_000_000n;
    return {
      traceId: hex(16),
      spanId: hex(8),
      name: error ? 'POST /pay' : 'GET /cart',
      kind: 2,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + BigInt(error ? 900 : 40) * 1_000_000n),
      attributes: [
        { key: 'http.response.status_code', value: { intValue: error ? 500 : 200 } },
        { key: 'http.route', value: { stringValue: error ? '/pay' : '/cart' } },
      ],
      status: error ? { code: 2, message: 'payment refused' } : { code: 1 },
    };
  });
  await sendOtlpSpans(api, companyId, 'polish-shop', spans);
}

/** Nothing wider than the window: the page never scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** `inner` lies wholly inside `outer`'s box (a dialog holding its content). */
async function expectInside(inner: Locator, outer: Locator): Promise<void> {
  const a = (await inner.boundingBox())!;
  const b = (await outer.boundingBox())!;
  expect(a.x).toBeGreaterThanOrEqual(b.x - 0.5);
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + b.width + 0.5);
}

/** A colour of the console's theme (a CSS variable) as the browser computes it: 'rgb(…)'. */
function themeColour(page: Page, variable: string): Promise<string> {
  return page.evaluate((v) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${v})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
}

let api: APIRequestContext;
let co: SeededCompany;
let admin: SeededUser;

test.beforeAll(async () => {
  api = await adminApi();
  co = await seedCompany(api);
  admin = await seedUser(api, 2, co.id);
  await sendSpans(api, co.id);
});
test.afterAll(async () => {
  await api.dispose();
});

test('Traces, Metrics and API Intelligence wear the title, breadcrumb and fields of every screen; failed traces say Error', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signInUi(page, tenantUrl(co.subdomain), admin);
  for (const [path, title] of [
    ['/traces', 'Traces'],
    ['/metrics', 'Metrics'],
    ['/api-intelligence', 'API Intelligence'],
  ] as const) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(tenantUrl(co.subdomain, path));
      await expect(page.getByRole('heading', { level: 2, name: title, exact: true })).toBeVisible();
      const crumb = page.getByRole('navigation', { name: 'Breadcrumb' });
      await expect(crumb.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
      await expect(crumb.locator('[aria-current="page"]')).toHaveText(title);
      // the filter fields are the console's, not the browser's bare controls
      const field = page.locator('.sw-mx-filters select, .sw-mx-filters input').first();
      await expect(field).toHaveCSS('border-radius', '6px');
      expect(await field.evaluate((el) => Number.parseFloat(getComputedStyle(el).paddingLeft))).toBeGreaterThanOrEqual(6);
      if (path === '/traces') await expect(page.getByTestId('trace-row').first()).toBeVisible();
      else if (path === '/metrics') await expect(page.getByTestId('metrics-totals')).toBeVisible();
      // endpoints are learned by a periodic rollup: the inventory or its empty state, both drawn
      else await expect(page.getByTestId('ai-totals').or(page.getByTestId('ai-empty'))).toBeVisible();
      await expectNoSidewaysScroll(page, width);
      await shots(page, `${path.slice(1)}-${width}`);
    }
  }

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(tenantUrl(co.subdomain, '/traces'));
  const rows = page.getByTestId('trace-row');
  await expect(rows).toHaveCount(6);
  const failed = rows.filter({ hasText: 'POST /pay' });
  const ok = rows.filter({ hasText: 'GET /cart' });
  await expect(failed).toHaveCount(3);
  for (const row of await failed.all()) await expect(row.getByRole('cell').nth(4)).toHaveText(/Error$/);
  for (const row of await ok.all()) await expect(row.getByRole('cell').nth(4)).toHaveText(/OK$/);
  // an error row is tinted in the theme's red and its label is white on red; an OK row is not tinted and its label is green
  const redBg = await themeColour(page, '--red-bg');
  await expect(failed.first().getByRole('cell').first()).toHaveCSS('background-color', redBg);
  await expect(ok.first().getByRole('cell').first()).not.toHaveCSS('background-color', redBg);
  const label = (row: Locator) => row.locator('td[data-label="Status"] .sw-badge');
  await expect(label(failed.first())).toHaveCSS('background-color', await themeColour(page, '--red'));
  await expect(label(ok.first())).toHaveCSS('color', await themeColour(page, '--green'));
  // times in the status page's format, not the browser's New York time in US English
  for (const cell of await page.getByTestId('trace-link').all()) await expect(cell).toHaveText(UTC_MINUTE);
  await expect(page.locator('main')).not.toContainText(LOCALE_DATE);
  await expectNoSeriousA11yViolations(page);
});

test('notification preferences: delivery channels and categories as two groups, a Save that confirms; types read as words', async ({
  page,
}) => {
  await signInUi(page, tenantUrl(co.subdomain), admin);
  await page.goto(tenantUrl(co.subdomain, '/notifications'));
  const type = page.getByLabel('Type');
  // every notification type, the anomaly watch's included (issue 33)
  await expect(type.locator('option')).toHaveText([
    'All',
    'Monitor incident',
    'SSL warning',
    'DNS warning',
    'Security report',
    'System',
    'Anomaly',
  ]);
  await expect(page.getByLabel('Severity').locator('option')).toHaveText(['All', 'Critical', 'High', 'Medium', 'Low', 'Info']);

  await page.getByRole('button', { name: 'Preferences' }).click();
  const channels = page.getByRole('group', { name: 'Delivery channels' });
  const categories = page.getByRole('group', { name: 'Categories' });
  await expect(channels.getByRole('switch')).toHaveCount(3);
  await expect(channels.getByRole('switch', { name: 'Email notifications' })).toBeChecked();
  await expect(categories.getByRole('switch')).toHaveCount(5);
  await expect(categories.getByRole('switch', { name: 'SSL warnings' })).toBeChecked();
  const save = page.getByRole('button', { name: 'Save preferences' });
  await expect(save).toBeVisible();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await save.scrollIntoViewIfNeeded();
    await expect(save).toBeVisible();
    await expectNoSidewaysScroll(page, width);
    await shots(page, `preferences-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  // a change is a draft until saved: nothing is sent on the switch, and Save says it is kept
  let puts = 0;
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().endsWith('/api/v1/notifications/preferences')) puts++;
  });
  await categories.getByRole('switch', { name: 'SSL warnings' }).uncheck();
  await channels.getByRole('switch', { name: 'SMS notifications' }).check();
  await expect(page.getByText('Unsaved changes')).toBeVisible();
  expect(puts).toBe(0);
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/api/v1/notifications/preferences'));
  await save.click();
  expect((await put).postDataJSON()).toMatchObject({ ssl_warnings: false, sms_enabled: true, email_enabled: true });
  await expect(page.getByRole('status').filter({ hasText: 'Your preferences are saved.' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'preferences-saved-1366');
  await page.reload();
  await page.getByRole('button', { name: 'Preferences' }).click();
  await expect(page.getByRole('group', { name: 'Categories' }).getByRole('switch', { name: 'SSL warnings' })).not.toBeChecked();
  await expect(page.getByRole('group', { name: 'Delivery channels' }).getByRole('switch', { name: 'SMS notifications' })).toBeChecked();
  await expect(page.locator('main')).not.toContainText(/\b[a-z]+_[a-z_]+\b/);
});

test('the one-time API token and a new ingest key show their whole value inside their boxes at 1366 and 390 px', async ({ page }) => {
  test.setTimeout(60_000);
  await signInUi(page, tenantUrl(co.subdomain), admin);
  await page.goto(tenantUrl(co.subdomain, '/settings/account'));
  const card = page.getByTestId('api-tokens');
  await card.getByLabel('Name').fill('Deploys');
  await card.getByRole('button', { name: 'Create token' }).click();
  const field = page.getByLabel('Your new token');
  const token = await field.inputValue();
  expect(token).toMatch(/^swt_/);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await field.scrollIntoViewIfNeeded();
    // all of it in view: nothing scrolled sideways or cut off below (where underscores sit)
    const box = await field.evaluate((el) => {
      const s = getComputedStyle(el);
      return {
        scrollWidth: el.scrollWidth,
        clientWidth: el.clientWidth,
        scrollHeight: el.scrollHeight,
        clientHeight: el.clientHeight,
        // 'normal' is about 1.2 times the font: too tight for an underscore below the baseline
        lineHeight: s.lineHeight === 'normal' ? 1.2 * Number.parseFloat(s.fontSize) : Number.parseFloat(s.lineHeight),
        fontSize: Number.parseFloat(s.fontSize),
        contentHeight: el.clientHeight - Number.parseFloat(s.paddingTop) - Number.parseFloat(s.paddingBottom),
      };
    });
    expect(box.scrollWidth).toBeLessThanOrEqual(box.clientWidth);
    expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight);
    expect(box.lineHeight).toBeGreaterThanOrEqual(1.4 * box.fontSize);
    expect(box.contentHeight).toBeGreaterThanOrEqual(box.lineHeight - 1); // clientHeight is whole pixels
    await expect(card.getByRole('row').filter({ hasText: 'Deploys' }).getByRole('cell').nth(3)).toHaveText(UTC_MINUTE);
    await expectNoSidewaysScroll(page, width);
    await shots(page, `api-token-${width}`);
  }

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(tenantUrl(co.subdomain, '/settings/company'));
  await page.getByRole('button', { name: 'Create key' }).click();
  const create = page.getByRole('dialog', { name: 'Create ingest key' });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => create.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    for (const part of await create.locator('input, textarea, button, small, p').all()) await expectInside(part, create);
    await shots(page, `ingest-key-form-${width}`);
  }
  // a name with no space to wrap at, as machine names go
  const name = 'otel_collector_eu_west_1_production_checkout_service';
  await create.getByLabel('Name').fill(name);
  await create.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByRole('dialog', { name: 'Key created' });
  const key = shown.getByTestId('new-key');
  await expect(key).toContainText('sw_live_');
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => shown.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expectInside(key, shown);
    for (const button of await shown.getByRole('button').all()) await expectInside(button, shown);
    expect(await key.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    await expectNoSeriousA11yViolations(page);
    await shots(page, `ingest-key-created-${width}`);
  }
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByRole('cell').nth(3)).toHaveText('Never');
  await row.getByRole('button', { name: `Origins of ${name}` }).click();
  const origins = page.getByRole('dialog', { name: `Allowed origins of ${name}` });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => origins.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expectInside(origins.getByRole('heading'), origins);
    for (const part of await origins.locator('textarea, button').all()) await expectInside(part, origins);
    await shots(page, `ingest-key-origins-${width}`);
  }
});

test('the audit log reads in words: event names wrap between words, details are Key: value lines, dates in UTC', async ({ page }) => {
  test.setTimeout(60_000);
  // a flag change and a company update give events with nested details
  const flags = (await (await api.get('/api/v1/admin/flags')).json()) as Record<string, boolean>;
  await api.put('/api/v1/admin/flags', { data: { ENABLE_ADVANCED_ANALYTICS: !flags.ENABLE_ADVANCED_ANALYTICS } });
  await api.put('/api/v1/admin/flags', { data: { ENABLE_ADVANCED_ANALYTICS: flags.ENABLE_ADVANCED_ANALYTICS } });
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/settings/audit'));
  const table = page.getByTestId('audit-table');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(page.getByLabel('Event', { exact: true }).locator('option', { hasText: 'Security scan started' })).toHaveCount(1);
  const events = table.locator('td[data-label="Event"]');
  const details = table.locator('td[data-label="Details"]');
  await expect(events.first()).toHaveText(/^[A-Z][a-z]+( [a-zA-Z]+)*$/);
  for (const text of await events.allTextContents()) expect(text).not.toMatch(/_/);
  const flagRow = table.locator('tbody tr').filter({ hasText: 'Settings updated' }).filter({ hasText: 'Advanced analytics' }).first();
  await expect(flagRow.locator('td[data-label="Details"]')).toContainText(/Feature flags: Advanced analytics: (yes|no)/);
  for (const text of await details.allTextContents()) {
    expect(text).not.toMatch(/[{}"]/);
    expect(text).not.toMatch(/ENABLE_|\b[a-z]+_[a-z_]+\b/);
  }
  for (const cell of await table.locator('td[data-label="Time"]').all()) await expect(cell).toHaveText(UTC_MINUTE);
  await expect(page.locator('main')).not.toContainText(LOCALE_DATE);
  await expect(table.locator('tbody').getByText('Super Administrator').first()).toBeVisible();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page, width);
    // each word of an event name stays on one line: a word cut in two has two boxes
    const split = await events.evaluateAll((cells) =>
      cells.flatMap((cell) => {
        const node = cell.firstChild;
        if (!node || node.nodeType !== Node.TEXT_NODE) return [`${cell.textContent}: not plain text`];
        const text = node.textContent ?? '';
        const out: string[] = [];
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          if (range.getClientRects().length > 1) out.push(m[0]);
        }
        return out;
      }),
    );
    expect(split).toEqual([]);
    await shots(page, `audit-${width}`);
  }
  await expectNoSeriousA11yViolations(page);
});
