// The API intelligence screen with real spans sent over OTLP/HTTP with ingest keys: a company
// admin reads its endpoints (sorted, new, slowest, most failing, change against the previous
// hour, status codes), a viewer reads the same and never another company's, a company without
// spans is told how to send them, and the super admin sees every company or the chosen one.
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
const str = (key: string, v: string) => ({ key, value: { stringValue: v } });

/**
 * `service`'s requests: GET /users/{id} by path 20 times in the last 20 minutes (2 answered 500,
 * 3 answered 404), 40-230 ms, and 10 times an hour earlier at 40 ms; POST /pay by http.route 10
 * times at 900 ms, 4 failing, only in the last 20 minutes (new).
 */
async function sendSpans(api: APIRequestContext, companyId: string, service: string): Promise<void> {
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const spans: unknown[] = [];
  const add = (agoS: number, ms: number, status: number, attrs: unknown[], error = false) => {
    const start = nowNs - BigInt(agoS) * 1_000_000_000n;
    spans.push({
      traceId: hex(16),
      spanId: hex(8),
      name: 'request',
      kind: 2,
      startTimeUnixNano: String(start),
      endTimeUnixNano: String(start + BigInt(ms) * 1_000_000n),
      attributes: [{ key: 'http.response.status_code', value: { intValue: status } }, ...attrs],
      status: error ? { code: 2, message: 'refused' } : { code: 0 },
    });
  };
  for (let i = 0; i < 20; i++)
    add(60 + i * 50, 40 + i * 10, i < 2 ? 500 : i < 5 ? 404 : 200, [
      str('http.request.method', 'GET'),
      str('url.path', `/users/${100 + i}`),
    ]);
  for (let i = 0; i < 10; i++) add(3900 + i * 30, 40, 200, [str('http.request.method', 'GET'), str('url.path', `/users/${i}`)]);
  for (let i = 0; i < 10; i++) add(90 + i * 60, 900, 200, [str('http.request.method', 'POST'), str('http.route', '/pay')], i < 4);
  await sendOtlpSpans(api, companyId, service, spans);
}

let A: SeededCompany;
let B: SeededCompany;
let api: APIRequestContext;

// Service names of their own: the trace spec sends 'shop' and 'b-only' spans to the same server,
// and the super admin's every-company view would count both files' endpoints.
test.beforeAll(async () => {
  api = await adminApi();
  A = await seedCompany(api);
  B = await seedCompany(api);
  await sendSpans(api, A.id, 'storefront');
  await sendSpans(api, B.id, 'b-ledger');
});
test.afterAll(async () => {
  await api.dispose();
});

const rows = (page: Page) => page.getByTestId('ai-table').locator('tbody tr');

/** The last hour (the default 24 h holds the previous hour's requests too). */
async function lastHour(page: Page): Promise<void> {
  const hour = page.waitForResponse((r) => r.url().includes('/api/v1/api-intelligence') && r.url().includes('range=1h'));
  await page.getByTestId('ai-range').selectOption('1h');
  await hour;
}

async function expectInventory(page: Page, service: string): Promise<void> {
  await expect(rows(page)).toHaveCount(2);
  const users = rows(page).filter({ hasText: '/users/{id}' });
  await expect(users).toContainText(service);
  await expect(users).toContainText('20'); // requests
  await expect(users).toContainText('10.0 %'); // 2 of 20 failed
  await expect(users).toContainText('2xx 15 · 4xx 3 · 5xx 2');
  await expect(users).toContainText('top: 200 × 15, 404 × 3, 500 × 2');
  await expect(users.getByText(/▲ [\d.,]+ % slower/)).toBeVisible(); // p95 above 40 ms of the previous hour
  await expect(users.getByText('▲ 10.0 pts more errors')).toBeVisible();
  const pay = rows(page).filter({ hasText: '/pay' });
  await expect(pay.getByText('New', { exact: true })).toBeVisible();
  await expect(pay).toContainText('40.0 %');
  await expect(pay).toContainText('no previous data');
  await expect(page.getByTestId('ai-new')).toContainText('/pay');
  await expect(page.getByTestId('ai-new')).not.toContainText('/users/{id}');
  await expect(page.getByTestId('ai-slowest').locator('li').first()).toContainText('/pay');
  await expect(page.getByTestId('ai-failing').locator('li').first()).toContainText('/pay');
}

test('company admin: the endpoint inventory, sorted by a column, at 1280 and 375 px', async ({ page }) => {
  test.setTimeout(60_000);
  const admin = await seedUser(api, 2, A.id);
  await signInUi(page, tenantUrl(A.subdomain), admin);
  await page.goto(tenantUrl(A.subdomain, '/api-intelligence'));
  // Over 24 h both endpoints are new (the previous hour is inside the range).
  await expect(rows(page).filter({ hasText: '/users/{id}' })).toContainText('30');
  await expect(page.getByTestId('ai-new').locator('li')).toHaveCount(2);
  await lastHour(page);
  await expectInventory(page, 'storefront');
  // Busiest first; sorting by p95 puts the slow /pay first, again flips it.
  await expect(rows(page).first()).toContainText('/users/{id}');
  await page.getByRole('button', { name: 'p95' }).click();
  await expect(rows(page).first()).toContainText('/pay');
  await expect(page.getByRole('columnheader', { name: 'p95' })).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('button', { name: 'p95' }).click();
  await expect(rows(page).first()).toContainText('/users/{id}');
  await shot(page, 'api-intelligence-admin-1280');
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(rows(page).first()).toBeVisible();
  // Stacked rows that wrap, never a page wider than the phone.
  // (polled: the menu collapses with a transition after the resize)
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // The column headers are hidden on a phone: the sort is a list there.
  await page.getByTestId('ai-sort').selectOption('errorRate');
  await expect(rows(page).first()).toContainText('/pay');
  await shot(page, 'api-intelligence-admin-375');
  await expectNoSeriousA11yViolations(page);
});

test('viewer: reads their company only; a company without spans is told how to send them', async ({ page }) => {
  test.setTimeout(60_000);
  const viewer = await seedUser(api, 3, A.id);
  await signInUi(page, tenantUrl(A.subdomain), viewer);
  await page.goto(tenantUrl(A.subdomain, '/api-intelligence'));
  await lastHour(page);
  await expectInventory(page, 'storefront');
  await expect(page.getByText('b-ledger')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);

  const C = await seedCompany(api);
  const empty = await seedUser(api, 3, C.id);
  await page.context().clearCookies();
  await signInUi(page, tenantUrl(C.subdomain), empty);
  await page.goto(tenantUrl(C.subdomain, '/api-intelligence'));
  await expect(page.getByTestId('ai-empty')).toContainText('OTLP');
  await expect(page.getByTestId('ai-empty')).toContainText('/v1/traces');
  await shot(page, 'api-intelligence-empty-1280');
  await expectNoSeriousA11yViolations(page);
});

test('super admin: every company, then the one chosen in the header', async ({ page }) => {
  test.setTimeout(60_000);
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/api-intelligence'));
  await expect(rows(page).filter({ hasText: 'storefront' })).toHaveCount(2);
  await expect(rows(page).filter({ hasText: 'b-ledger' })).toHaveCount(2);
  await expect(rows(page).filter({ hasText: 'b-ledger' }).first()).toContainText(B.name);
  await shot(page, 'api-intelligence-super-all-1280');
  await expectNoSeriousA11yViolations(page);

  const chosen = page.waitForRequest((r) => r.url().includes('/api/v1/api-intelligence') && r.url().includes(`tenant=${A.id}`));
  await page.getByLabel('Tenant', { exact: true }).selectOption(A.id);
  await chosen;
  await lastHour(page);
  await expectInventory(page, 'storefront');
  await expect(rows(page).filter({ hasText: 'b-ledger' })).toHaveCount(0);
  await shot(page, 'api-intelligence-super-tenant-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'api-intelligence-super-tenant-375');
  await expectNoSeriousA11yViolations(page);
});
