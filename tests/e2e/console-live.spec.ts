// The live console (issue 13 item 7) in Chromium, with the checks run by a separate worker
// process (`npm run worker`'s entry) and the web server started with RUN_ENGINE=false, as a
// deployment that outgrew one process runs them. A company admin keeps the monitors list and
// the dashboard open; a loopback target turns to 500: the status pill reads Down and the Down
// tile counts it without a reload, the header's bell shows the notification, and both recover.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { request, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, seedCompany, seedUser, shot, signInUi } from './console-fixtures.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let server: RunningServer;
let worker: ChildProcess;
let target: http.Server;
let healthy = true;
// The browser talks to the server through this loopback proxy, so the test can cut its connections.
let proxy: net.Server;
const proxied = new Set<net.Socket>();
let refusing = false;
const dropConnections = () => {
  for (const s of proxied) s.destroy();
  proxied.clear();
};

test.beforeAll(async () => {
  target = http.createServer((_req, res) => {
    res.writeHead(healthy ? 200 : 500, { 'content-type': 'text/plain' });
    res.end(healthy ? 'ok' : 'boom');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const env = { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' };
  server = await startServer({ ...env, RUN_ENGINE: 'false', ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password });
  proxy = net.createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = net.connect(server.port, '127.0.0.1');
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      proxied.add(a);
      a.pipe(b);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        proxied.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  // the worker shares the server's SQLite file (DATA_DIR)
  worker = spawn(process.execPath, ['src/server/worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: server.dataDir, ...env },
    stdio: 'ignore',
  });
});

test.afterAll(async () => {
  if (worker && worker.exitCode === null) {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  }
  dropConnections();
  await new Promise((r) => proxy?.close(r));
  await server?.stop();
  target?.closeAllConnections();
  await new Promise((r) => target?.close(r));
});

async function rootApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: server.baseUrl });
  const r = await api.post('/api/v1/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
  expect(r.status(), await r.text()).toBe(200);
  return api;
}

/** Marks the document, so a test can tell that what it saw came without a reload. */
const markDocument = (page: Page) => page.evaluate(() => Object.assign(window, { __sameDocument: true }));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test('a monitor going down and recovering shows on the open list, dashboard and bell without a reload', async ({ page, context }) => {
  test.setTimeout(150_000);
  const api = await rootApi();
  const company = await seedCompany(api, { plan: 'enterprise' });
  const admin = await seedUser(api, 2, company.id);
  const created = await api.post('/api/v1/monitors', {
    data: {
      company_id: company.id,
      type: 'http',
      name: 'Checkout',
      url: `http://127.0.0.1:${(target.address() as AddressInfo).port}/`,
      interval_seconds: 1,
      timeout_seconds: 1,
      confirmations: 1,
      is_public: false,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const origin = `http://${company.subdomain}.localhost:${(proxy.address() as AddressInfo).port}`;

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, origin, admin);
  await page.goto(`${origin}/monitors`);
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Checkout' }) });
  await markDocument(page);
  // the worker's first check turns 'Pending' into 'Up' on the open page
  await expect(row.getByText('Up', { exact: true })).toBeVisible({ timeout: 20_000 });
  const bell = page.getByRole('link', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications');

  const dashboard = await context.newPage();
  await dashboard.setViewportSize({ width: 1280, height: 900 });
  await dashboard.goto(`${origin}/dashboard`);
  await expect(dashboard.getByTestId('tile-up')).toContainText('1');
  await markDocument(dashboard);
  const monitorId = ((await created.json()) as { id: string }).id;
  const monitorPage = await context.newPage();
  await monitorPage.goto(`${origin}/monitors/${monitorId}`);
  await expect(monitorPage.getByTestId('monitor-status')).toHaveText('Up');
  await markDocument(monitorPage);
  const notifications = await context.newPage();
  await notifications.goto(`${origin}/notifications`);
  await expect(notifications.getByTestId('notification-counts')).toHaveText('0 unread · 0 read');
  await markDocument(notifications);
  const incidents = await context.newPage();
  await incidents.goto(`${origin}/monitors/incidents`);
  await expect(incidents.getByRole('heading', { name: 'Incidents', exact: true })).toBeVisible();
  await markDocument(incidents);

  healthy = false;
  const broke = Date.now();
  await expect(row.getByText('Down', { exact: true })).toBeVisible({ timeout: 8_000 });
  const seenDown = Date.now() - broke;
  await expect(dashboard.getByTestId('tile-down')).toContainText('1', { timeout: 5_000 });
  // the outage's notification reaches the bell of the open page
  await expect(bell).toHaveAccessibleName(/^Notifications, [1-9]\d* unread$/, { timeout: 5_000 });
  await expect(bell).toContainText(/\d/);
  // the monitor's own page, and the notification list with its counts
  await expect(monitorPage.getByTestId('monitor-status')).toHaveText('Down', { timeout: 5_000 });
  await expect(monitorPage.getByRole('cell', { name: 'Down', exact: true }).first()).toBeVisible();
  await expect(notifications.getByTestId('notification-counts')).toHaveText(/^[1-9]\d* unread · 0 read$/, { timeout: 5_000 });
  await expect(notifications.getByText('Checkout').first()).toBeVisible();
  // the incident the outage opened appears in the open incidents list
  await expect(incidents.getByRole('row').filter({ hasText: 'Checkout' }).first()).toBeVisible({ timeout: 5_000 });
  for (const p of [page, dashboard, incidents, monitorPage, notifications]) expect(await sameDocument(p)).toBe(true);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'live-monitors-down-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(bell).toBeVisible();
  await shot(page, 'live-monitors-down-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  healthy = true;
  await expect(row.getByText('Up', { exact: true })).toBeVisible({ timeout: 8_000 });
  await expect(monitorPage.getByTestId('monitor-status')).toHaveText('Up', { timeout: 5_000 });
  await expect(dashboard.getByTestId('tile-down')).toContainText('0', { timeout: 5_000 });
  expect(await sameDocument(page)).toBe(true);
  expect(await sameDocument(dashboard)).toBe(true);
  // checks every second, at most a couple of seconds from the failing answer to the pill
  expect(seenDown).toBeLessThan(5_000);

  // The connection drops and stays down (as in sleep) while a second outage opens an incident:
  // once the browser reconnects by itself, the open pages reload what they show.
  const incidentRows = incidents.getByRole('row').filter({ hasText: 'Checkout' });
  await expect(incidentRows).toHaveCount(1);
  const streams: number[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/v1/events') streams.push(Date.now());
  });
  refusing = true;
  dropConnections();
  healthy = false;
  await expect.poll(() => serverStatus(), { timeout: 8_000 }).toBe('down');
  // the console has tried to reconnect while refused
  await expect.poll(() => streams.length, { timeout: 15_000, message: 'a reconnect attempt' }).toBeGreaterThanOrEqual(1);
  refusing = false;
  // the browser's own retries or the console's back-off (up to 10 s) find the server again
  await expect(incidentRows).toHaveCount(2, { timeout: 15_000 });
  await expect(row.getByText('Down', { exact: true })).toBeVisible({ timeout: 8_000 });
  expect(streams.length).toBeGreaterThanOrEqual(1);
  for (const p of [page, dashboard, incidents]) expect(await sameDocument(p)).toBe(true);
  healthy = true;
  await api.dispose();

  /** The monitor's status as the server holds it (asked on a connection of its own) */
  async function serverStatus(): Promise<string> {
    const r = await api.get(`/api/v1/monitors/${((await created.json()) as { id: string }).id}`);
    return ((await r.json()) as { status: string }).status;
  }
});
