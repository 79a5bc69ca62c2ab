// Both dashboards with real data: monitors checked by the engine against a loopback target
// (one up, one answering 500), the incident it opens, and OTLP spans sent with an ingest key for
// RED metrics and error traces. Also the skeleton, error panel and 'No Data' states.
import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  mainUrl,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  expect,
  test,
} from './console-fixtures.ts';

const target = loopbackTarget((req, res) => {
  res.writeHead(req.url === '/down' ? 500 : 200, { 'content-type': 'text/plain' });
  res.end(req.url === '/down' ? 'broken' : 'ok');
});

/** A monitor of a healthy target and one of a failing target; answers their ids. */
async function seedMonitors(api: APIRequestContext, companyId: string): Promise<{ up: string; down: string }> {
  const ids: string[] = [];
  for (const [name, path] of [
    ['Website', '/up'],
    ['Checkout API', '/down'],
  ]) {
    const r = await api.post('/api/v1/monitors', {
      data: {
        type: 'http',
        company_id: companyId,
        name,
        url: `http://127.0.0.1:${target.port()}${path}`,
        interval_seconds: 1,
        confirmations: 1,
        is_public: true,
      },
    });
    expect(r.status(), await r.text()).toBe(201);
    ids.push(((await r.json()) as { id: string }).id);
  }
  return { up: ids[0], down: ids[1] };
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** 10 server spans for the company: 3 errors (500) of 1500 ms, 7 fine ones of 100 ms. */
async function sendSpans(api: APIRequestContext, companyId: string): Promise<string> {
  const key = await api.post('/api/v1/api-keys', { data: { name: 'e2e', scope: 'ingest', company_id: companyId } });
  expect(key.status(), await key.text()).toBe(201);
  const secret = ((await key.json()) as { key: string }).key;
  const now = BigInt(Date.now()) * 1_000_000n;
  const errorTrace = hex(16);
  const spans = Array.from({ length: 10 }, (_, i) => {
    const error = i < 3;
    const ms = BigInt(error ? 1500 : 100);
    return {
      traceId: i === 0 ? errorTrace : hex(16),
      spanId: hex(8),
      name: error ? 'POST /pay' : 'GET /items',
      kind: 2,
      startTimeUnixNano: String(now - ms * 1_000_000n - BigInt(i) * 1_000_000_000n),
      endTimeUnixNano: String(now - BigInt(i) * 1_000_000_000n),
      attributes: [{ key: 'http.response.status_code', value: { intValue: error ? 500 : 200 } }],
      status: error ? { code: 2, message: 'payment backend refused' } : { code: 1 },
    };
  });
  const r = await api.post('/v1/traces', {
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    data: {
      resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] }, scopeSpans: [{ spans }] }],
    },
  });
  expect(r.status(), await r.text()).toBeLessThan(300);
  return errorTrace;
}

async function waitFor<T>(fn: () => Promise<T | null>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 300));
  }
}

test('company dashboard: RED tiles with colours, monitors with the down banner, error traces linking to /traces/{id}', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  await seedMonitors(api, company.id);
  const traceId = await sendSpans(api, company.id);
  await waitFor(async () => {
    const s = (await (await api.get(`/api/v1/monitors/summary?tenant=${company.id}`)).json()) as { down: number; up: number };
    return s.down === 1 && s.up === 1 ? s : null;
  });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await expect(page.getByRole('main').getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
  await expect(page.getByText('Overview of your services, monitors, and performance metrics')).toBeVisible();

  const red = page.getByTestId('card-red');
  await expect(red.getByRole('heading', { name: 'My RED (24h)' })).toBeVisible();
  await expect(red.getByRole('link', { name: 'View Details' })).toHaveAttribute('href', '/metrics');
  await expect(red.getByTestId('tile-error-rate')).toContainText('30.00');
  await expect(red.getByTestId('tile-error-rate')).toHaveAttribute('data-tone', 'red');
  await expect(red.getByTestId('tile-p95')).toHaveAttribute('data-tone', 'red');
  await expect(red.getByTestId('tile-total-requests')).toContainText('10');
  await expect(red.getByTestId('tile-rps')).toContainText('<0.01'); // 10 requests in 24 h: some traffic, not 0.00
  for (const label of ['Error Rate %', 'Requests/sec', 'P95 Latency ms', 'Uptime %', 'Total Requests', 'Avg Response'])
    await expect(red.getByText(label, { exact: true })).toBeVisible();
  await expect(red.getByText('Last 24 hours performance metrics')).toBeVisible();

  const monitors = page.getByTestId('card-monitors');
  await expect(monitors.getByTestId('tile-up')).toContainText('1');
  await expect(monitors.getByTestId('tile-down')).toContainText('1');
  await expect(monitors.getByTestId('tile-down')).toHaveAttribute('data-tone', 'red');
  await expect(monitors.getByTestId('tile-total')).toContainText('2');
  await expect(monitors.getByTestId('down-banner')).toContainText('1 Monitor Down');
  await expect(monitors.getByTestId('down-banner')).toContainText('Check your services');
  await expect(monitors.getByText(/^Last check: /)).not.toHaveText('Last check: Unknown');

  const traces = page.getByTestId('card-traces');
  await expect(traces.getByText('Last 10 error traces from your services')).toBeVisible();
  await expect(traces.getByRole('link', { name: /checkout · POST \/pay/ })).toHaveCount(3);
  await expect(traces.locator(`a[href="/traces/${traceId}"]`)).toContainText('payment backend refused');
  await shot(page, 'company-dashboard-1280');
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCSS('width', '60px');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'company-dashboard-375');
  await traces.locator(`a[href="/traces/${traceId}"]`).click();
  await expect(page).toHaveURL(tenantUrl(company.subdomain, `/traces/${traceId}`));
  // the trace screen: its spans as a waterfall, details on demand
  await expect(page.getByRole('main').getByRole('heading', { name: 'checkout · POST /pay' })).toBeVisible();
  await expect(page.getByTestId('trace-summary')).toContainText('1 span · 1 error');
  const spanRow = page.getByTestId('span-row');
  await expect(spanRow).toHaveCount(1);
  await spanRow.getByRole('button').click();
  await expect(spanRow).toContainText('payment backend refused');
  await expect(spanRow).toContainText('HTTP 500');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'trace-375');
  // another id is not found
  await page.goto(tenantUrl(company.subdomain, '/traces/0123456789abcdef0123456789abcdef'));
  await expect(page.getByRole('heading', { name: 'Trace not found' })).toBeVisible();
  await api.dispose();
});

test('company dashboard without traffic: no made-up error rate or latency, uptime from the monitors', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const viewer = await seedUser(api, 3, company.id);
  const seeded = await seedMonitors(api, company.id);
  await waitFor(async () => {
    const s = (await (await api.get(`/api/v1/monitors/summary?tenant=${company.id}`)).json()) as { down: number; up: number };
    return s.down === 1 && s.up === 1 ? s : null;
  });
  await signInUi(page, tenantUrl(company.subdomain), viewer);
  const red = page.getByTestId('card-red');
  await expect(red.getByTestId('tile-uptime')).toHaveAttribute('data-tone', 'red'); // one of two monitors down
  for (const id of ['tile-error-rate', 'tile-p95', 'tile-avg']) {
    await expect(red.getByTestId(id)).toContainText('—');
    await expect(red.getByTestId(id)).not.toHaveAttribute('data-tone', /./);
  }
  await expect(red.getByTestId('tile-total-requests')).toContainText('0');
  // once the failing monitor is paused nothing is down: the zero is not drawn as an alarm
  expect((await api.post(`/api/v1/monitors/${seeded.down}/pause`)).status()).toBe(200);
  await page.reload();
  const monitors = page.getByTestId('card-monitors');
  await expect(monitors.getByTestId('tile-paused')).toContainText('1');
  await expect(monitors.getByTestId('tile-down')).toContainText('0');
  await expect(monitors.getByTestId('tile-down')).toHaveAttribute('data-tone', 'grey');
  await expect(monitors.getByTestId('down-banner')).toHaveCount(0);
  await api.dispose();
});

test('super admin dashboard: top tenants by error rate, recent incidents, global monitor status', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  await seedMonitors(api, company.id);
  await sendSpans(api, company.id);
  const incident = await waitFor(async () => {
    const list = (await (await api.get('/api/v1/incidents/recent?limit=10')).json()) as Array<{
      title: string;
      tenantId: string;
      status: string;
    }>;
    return list.find((i) => i.tenantId === company.id) ?? null;
  });
  const summary = (await (await api.get('/api/v1/monitors/summary')).json()) as { total: number; criticalAlerts: number };
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await expect(page.getByText('Global overview of all tenants, metrics, and system health')).toBeVisible();

  const top = page.getByTestId('card-top-tenants');
  await expect(top.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/metrics');
  const row = top.getByRole('row', { name: new RegExp(company.name) });
  await expect(row).toContainText('30.00%');
  await expect(row.locator('.sw-red').first()).toBeVisible();
  await expect(row).toContainText('10 requests');
  await expect(row).toContainText(/[\d,]+ ms/);
  await expect(top.getByText('Showing top 5 tenants by error rate')).toBeVisible();
  // every column fits the card at 1280 px: nothing cut off or scrolled away
  const table = top.getByTestId('top-tenants-table');
  await expect.poll(() => table.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);

  const incidents = page.getByTestId('card-incidents');
  await expect(incidents.getByText(incident.title).first()).toBeVisible();
  await expect(incidents.getByText(company.name).first()).toBeVisible();
  await expect(incidents.getByText('Last 10 incidents across all tenants')).toBeVisible();

  const monitors = page.getByTestId('card-monitors');
  await expect(monitors.getByRole('link', { name: 'Manage' })).toHaveAttribute('href', '/monitors');
  await expect(monitors.getByText(/^Monitoring \d+ endpoints across all tenants$/)).toBeVisible();
  expect(summary.total).toBeGreaterThanOrEqual(2);
  if (summary.criticalAlerts > 0)
    await expect(monitors.getByTestId('critical-banner')).toContainText(
      `${summary.criticalAlerts} Critical Alert${summary.criticalAlerts === 1 ? '' : 's'}`,
    );
  else await expect(monitors.getByTestId('critical-banner')).toHaveCount(0);
  await shot(page, 'super-dashboard-data-1280');
  await api.dispose();
});

test('cards: skeleton while loading, the server detail or Failed to load data on error, No Data when empty', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const viewer = await seedUser(api, 3, company.id);
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/api/v1/monitors/summary*', async (route) => {
    await held;
    await route.continue();
  });
  await page.route('**/api/v1/traces/search*', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/problem+json',
      body: JSON.stringify({ title: 'Unavailable', status: 503, detail: 'Trace store is warming up.' }),
    }),
  );
  await page.route('**/api/v1/api-intelligence/metrics/red*', (route) => route.abort('connectionreset'));
  await signInUi(page, tenantUrl(company.subdomain), viewer);
  await expect(page.getByTestId('card-monitors').getByRole('status', { name: 'Loading' })).toBeVisible();
  await expect(page.getByTestId('card-traces').getByRole('alert')).toContainText('Trace store is warming up.');
  // The loading placeholder is announced as a status (an aria-label on a bare div is prohibited)
  await expectNoSeriousA11yViolations(page);
  await expect(page.getByTestId('card-red').getByRole('alert')).toContainText(/.+/);
  release();
  await expect(page.getByTestId('card-monitors').getByText('No Data')).toBeVisible();
  await expect(page.getByTestId('card-monitors').getByText('No monitors configured yet')).toBeVisible();
  await api.dispose();
});

test("company dashboard before anything happened: 'Last check: Unknown', no monitors, no error traces", async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  await api.dispose();
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await expect(page.getByRole('main').getByRole('heading', { name: 'My Dashboard' })).toBeVisible();
  const monitors = page.getByTestId('card-monitors');
  await expect(monitors.getByRole('heading', { name: 'Monitors Status' })).toBeVisible();
  await expect(monitors.getByText('No monitors configured yet')).toBeVisible();
  await expect(monitors.getByText(/^Last check: /)).toHaveText('Last check: Unknown');
  await expect(monitors.getByTestId('down-banner')).toHaveCount(0);
  const traces = page.getByTestId('card-traces');
  await expect(traces.getByRole('heading', { name: 'Recent Error Traces' })).toBeVisible();
  await expect(traces.getByText('No Data', { exact: true })).toBeVisible();
  await expect(traces.getByText('No errors in the last 24 hours')).toBeVisible();
  await expect(traces.getByText('Last 10 error traces from your services')).toBeVisible();
  await expect(traces.getByRole('link', { name: 'View All' })).toHaveAttribute('href', '/traces');
});

test("super admin's tenant selector: the dashboard shows the chosen company's cards, Global view brings the overview back", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  await seedMonitors(api, company.id);
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();

  const summary = page.waitForRequest((r) => r.url().includes('/api/v1/monitors/summary') && r.url().includes(`tenant=${company.id}`));
  await page.getByLabel('Tenant', { exact: true }).selectOption(company.id);
  await summary;
  await expect(page.getByRole('heading', { name: `${company.name} Dashboard` })).toBeVisible();
  const monitors = page.getByTestId('card-monitors');
  // that company's two monitors, one of them down, and nothing of the other companies
  await expect(monitors.getByTestId('tile-total')).toContainText('2');
  await expect(monitors.getByTestId('tile-down')).toContainText('1', { timeout: 15_000 });
  await expect(page.getByTestId('card-red')).toBeVisible();
  await expect(page.getByTestId('card-top-tenants')).toHaveCount(0);
  await shot(page, 'super-dashboard-tenant-1280');
  await expectNoSeriousA11yViolations(page);
  // the choice survives a reload
  await page.reload();
  await expect(page.getByRole('heading', { name: `${company.name} Dashboard` })).toBeVisible();

  await page.getByLabel('Tenant', { exact: true }).selectOption('');
  await expect(page.getByRole('heading', { name: 'Super Admin Dashboard' })).toBeVisible();
  await expect(page.getByTestId('card-top-tenants')).toBeVisible();
  await expect(page.getByTestId('card-monitors').getByText(/^Monitoring \d+ endpoints across all tenants$/)).toBeVisible();
  await api.dispose();
});
