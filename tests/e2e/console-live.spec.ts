// The live console (issue 13 item 7) in Chromium, with the checks run by a separate worker
// process (`npm run worker`'s entry) and the web server started with RUN_ENGINE=false, as a
// deployment that outgrew one process runs them. A company admin keeps the monitors list and
// the dashboard open; a loopback target turns to 500: the status pill reads Down and the Down
// tile counts it without a reload, the header's bell shows the notification, and both recover.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { request, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, seedCompany, seedUser, shot, signInUi } from './console-fixtures.ts';
import { startServer, type RunningServer } from './support/server.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
let server: RunningServer;
let worker: ChildProcess;
let target: http.Server;
let healthy = true;

test.beforeAll(async () => {
  target = http.createServer((_req, res) => {
    res.writeHead(healthy ? 200 : 500, { 'content-type': 'text/plain' });
    res.end(healthy ? 'ok' : 'boom');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const env = { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' };
  server = await startServer({ ...env, RUN_ENGINE: 'false', ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password });
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
  test.setTimeout(120_000);
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
  const origin = `http://${company.subdomain}.localhost:${server.port}`;

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

  healthy = false;
  const broke = Date.now();
  await expect(row.getByText('Down', { exact: true })).toBeVisible({ timeout: 8_000 });
  const seenDown = Date.now() - broke;
  await expect(dashboard.getByTestId('tile-down')).toContainText('1', { timeout: 5_000 });
  // the outage's notification reaches the bell of the open page
  await expect(bell).toHaveAccessibleName(/^Notifications, [1-9]\d* unread$/, { timeout: 5_000 });
  await expect(bell).toContainText(/\d/);
  expect(await sameDocument(page)).toBe(true);
  expect(await sameDocument(dashboard)).toBe(true);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'live-monitors-down-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(bell).toBeVisible();
  await shot(page, 'live-monitors-down-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  healthy = true;
  await expect(row.getByText('Up', { exact: true })).toBeVisible({ timeout: 8_000 });
  await expect(dashboard.getByTestId('tile-down')).toContainText('0', { timeout: 5_000 });
  expect(await sameDocument(page)).toBe(true);
  expect(await sameDocument(dashboard)).toBe(true);
  // checks every second, at most a couple of seconds from the failing answer to the pill
  expect(seenDown).toBeLessThan(5_000);
  await api.dispose();
});
