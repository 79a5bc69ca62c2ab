// The Metrics and Traces screens with real spans sent over OTLP/HTTP with ingest keys: a
// company admin and a viewer read their company's charts and search its traces (each row opens
// the waterfall); the super admin sees every company or the one chosen in the header, and
// exports CSV while the export flag is on (recorded as metrics_export).
import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expectNoSeriousA11yViolations,
  mainUrl,
  seedCompany,
  sendOtlpSpans,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  expect,
  test,
  type SeededCompany,
} from './console-fixtures.ts';

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/**
 * 30 requests of `service` in the last 20 minutes (a third of them failing POST /pay of 900 ms,
 * the rest GET /cart of 40-130 ms, the first with a database call under it), and 10 requests an
 * hour earlier for the previous period.
 */
async function sendSpans(api: APIRequestContext, companyId: string, service: string): Promise<void> {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const spans: unknown[] = [];
  for (let i = 0; i < 40; i++) {
    const error = i % 3 === 0;
    const ms = error ? 900 : 40 + (i % 10) * 10;
    const ago = BigInt(i < 30 ? 30 + i * 40 : 3900 + i * 20) * 1_000_000_000n; // seconds ago
    const start = nowNs - ago;
    const traceId = hex(16);
    const spanId = hex(8);
    spans.push({
      traceId,
      spanId,
      name: error ? 'POST /pay' : 'GET /cart',
      kind: 2,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + BigInt(ms) * 1_000_000n),
      attributes: [
        { key: 'http.response.status_code', value: { intValue: error ? 500 : 200 } },
        { key: 'http.route', value: { stringValue: error ? '/pay' : '/cart' } },
      ],
      status: error ? { code: 2, message: 'payment refused' } : { code: 1 },
    });
    if (i === 1) {
      spans.push({
        traceId,
        spanId: hex(8),
        parentSpanId: spanId,
        name: 'SELECT cart',
        kind: 3,
        startTimeUnixNano: String(start + 5_000_000n),
        endTimeUnixNano: String(start + 25_000_000n),
        status: { code: 1 },
      });
    }
  }
  await sendOtlpSpans(api, companyId, service, spans);
}

let A: SeededCompany;
let B: SeededCompany;
let api: APIRequestContext;

// 'shop' and 'b-only' are this file's own service names: the super admin's every-company search
// counts every file's spans on the shared server (the API intelligence spec once sent 'b-only' too).
test.beforeAll(async () => {
  api = await adminApi();
  A = await seedCompany(api);
  B = await seedCompany(api);
  await sendSpans(api, A.id, 'shop');
  await sendSpans(api, B.id, 'b-only');
});
test.afterAll(async () => {
  await api.put('/api/v1/admin/flags', { data: { ENABLE_GLOBAL_EXPORT: false } });
  await api.dispose();
});

async function expectChartsDrawn(page: Page): Promise<void> {
  for (const id of ['chart-rate', 'chart-errors', 'chart-latency']) {
    await expect(page.getByTestId(id).locator('canvas').first()).toBeVisible();
  }
}

async function openFirstTrace(page: Page): Promise<void> {
  const link = page.getByTestId('trace-link').first();
  const href = await link.getAttribute('href');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  await expect(page.getByTestId('trace-summary')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Spans' })).toBeVisible();
}

test('company admin: charts with filters, trace search with filters, a row opens the waterfall', async ({ page }) => {
  test.setTimeout(60_000);
  const admin = await seedUser(api, 2, A.id);
  await signInUi(page, tenantUrl(A.subdomain), admin);
  await page.goto(tenantUrl(A.subdomain, '/my-metrics'));
  await expectChartsDrawn(page);
  await expect(page.getByTestId('metrics-totals')).toContainText('40');
  await expect(page.getByTestId('metrics-export')).toHaveCount(0); // export is the super admin's

  const hour = page.waitForRequest((r) => r.url().includes('/api/v1/metrics/series') && r.url().includes('range=1h'));
  await page.getByTestId('metrics-range').selectOption('1h');
  await hour;
  await expectChartsDrawn(page);
  const pay = page.waitForResponse((r) => r.url().includes('/api/v1/metrics/series') && r.url().includes('operation=POST'));
  await page.getByTestId('metrics-service').selectOption('shop');
  await page.getByTestId('metrics-operation').selectOption('POST /pay');
  expect(((await (await pay).json()) as { current: Array<{ requests: number }> }).current.reduce((n, p) => n + p.requests, 0)).toBe(10);
  await expect(page.getByTestId('metrics-service').locator('option')).toHaveText(['All services', 'shop']);
  await expectChartsDrawn(page);
  await shot(page, 'metrics-admin-1280');
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expectChartsDrawn(page);
  await shot(page, 'metrics-admin-375');
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  await page.goto(tenantUrl(A.subdomain, '/my-traces'));
  const rows = page.getByTestId('traces-table').locator('tbody tr');
  await expect(rows).toHaveCount(40);
  await page.getByTestId('traces-status').selectOption('error');
  await page.getByTestId('traces-min-duration').fill('500');
  await page.getByTestId('traces-search').click();
  await expect(rows).toHaveCount(14);
  await expect(rows.filter({ hasText: 'OK' })).toHaveCount(0);
  await page.getByTestId('traces-status').selectOption('');
  await page.getByTestId('traces-min-duration').fill('');
  await page.getByTestId('traces-attr').fill('http.route=/cart');
  await page.getByTestId('traces-search').click();
  await expect(rows).toHaveCount(26);
  await expect(rows.filter({ hasText: 'Error' })).toHaveCount(0);
  await shot(page, 'traces-admin-1280');
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: '.tmp/console-shots/traces-admin-375.png' }); // the top: 26 stacked rows are long
  // under the title and filters: the page (never the table) scrolled down to the first row
  const top = await rows.first().evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
  await page.evaluate((y) => window.scrollTo(0, y - 80), top);
  await expect(rows.first().getByText('GET /cart')).toBeInViewport(); // stacked, not a table scrolled sideways
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await openFirstTrace(page);
});

test('viewer: reads the charts and the traces of their company only', async ({ page }) => {
  test.setTimeout(60_000);
  const viewer = await seedUser(api, 3, A.id);
  await signInUi(page, tenantUrl(A.subdomain), viewer);
  await page.goto(tenantUrl(A.subdomain, '/metrics'));
  await expectChartsDrawn(page);
  await expect(page.getByTestId('metrics-service').locator('option')).toHaveText(['All services', 'shop']);
  await expect(page.getByTestId('metrics-export')).toHaveCount(0);
  await page.goto(tenantUrl(A.subdomain, '/traces'));
  await page.getByTestId('traces-service').fill('b-only');
  await page.getByTestId('traces-search').click();
  await expect(page.getByText('No traces match in the last 24 hours.')).toBeVisible();
  await page.getByTestId('traces-service').fill('shop');
  await page.getByTestId('traces-search').click();
  await expect(page.getByTestId('traces-table').locator('tbody tr')).toHaveCount(40);
  // the one trace with a database call under its request holds two spans
  await expect(page.getByTestId('traces-table').locator('tbody td:last-child').filter({ hasText: /^2$/ })).toHaveCount(1);
  await openFirstTrace(page);
  await expectNoSeriousA11yViolations(page);
});

test('super admin: every company or the chosen one; CSV export while the flag is on, audited', async ({ page }) => {
  test.setTimeout(90_000);
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/metrics'));
  await expectChartsDrawn(page);
  const services = page.getByTestId('metrics-service').locator('option');
  await expect(services.filter({ hasText: 'shop' })).toHaveCount(1);
  await expect(services.filter({ hasText: 'b-only' })).toHaveCount(1);
  await expect(page.getByTestId('metrics-export')).toHaveCount(0); // the flag is off
  await shot(page, 'metrics-super-all-1280');
  await expectNoSeriousA11yViolations(page);

  const chosen = page.waitForRequest((r) => r.url().includes('/api/v1/metrics/series') && r.url().includes(`tenant=${A.id}`));
  await page.getByLabel('Tenant', { exact: true }).selectOption(A.id);
  await chosen;
  await expect(services).toHaveText(['All services', 'shop']);
  await expectChartsDrawn(page);

  expect((await api.put('/api/v1/admin/flags', { data: { ENABLE_GLOBAL_EXPORT: true } })).status()).toBe(200);
  await page.reload();
  await expectChartsDrawn(page);
  const download = page.waitForEvent('download');
  await page.getByTestId('metrics-export').click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('metrics-24h.csv');
  const audit = await api.get('/api/v1/admin/audit?event=metrics_export');
  const items = ((await audit.json()) as { items: Array<{ tenant_id?: string; tenantId?: string }> }).items;
  expect(JSON.stringify(items)).toContain(A.id);
  await shot(page, 'metrics-super-tenant-1280');

  await page.goto(mainUrl('/traces'));
  const rows = page.getByTestId('traces-table').locator('tbody tr');
  await expect(rows).toHaveCount(40); // the chosen company's only
  await expect(rows.filter({ hasText: 'b-only' })).toHaveCount(0);
  await page.getByLabel('Tenant', { exact: true }).selectOption('');
  await expect(rows.filter({ hasText: 'b-only' }).first()).toBeVisible(); // every company's
  await page.reload(); // the choice is kept across a reload
  await expect(rows.filter({ hasText: 'b-only' }).first()).toBeVisible();
  await page.getByTestId('traces-service').fill('b-only');
  await expect(page.getByTestId('traces-service')).toHaveValue('b-only');
  await page.getByTestId('traces-search').click();
  await expect(rows).toHaveCount(40);
  await shot(page, 'traces-super-all-1280');
  await expectNoSeriousA11yViolations(page);
  await openFirstTrace(page);
});
