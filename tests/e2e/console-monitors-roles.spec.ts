// The Monitors area at scale and by role (issue 13): a server holding 2,400 monitors in two
// companies (seeded straight into its database before it starts). The list renders only the rows
// near the viewport, keeps table semantics (aria-rowcount, aria-rowindex) and fetches the rest on
// scroll; a viewer sees everything read-only with no button that would fail, and the server
// refuses a viewer's writes; the super admin sees every company's monitors with the company name,
// and choosing a tenant filters the monitors, incidents and maintenance screens.
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { createServices } from '../../src/server/services.ts';
import { seedIncident, seedMaintenance } from '../api/public/fixtures.ts';
import { seedConsole, type SeededCompany } from '../support/console-seed.ts';
import { seedUser } from '../support/fixtures.ts';
import { expectNoSeriousA11yViolations, signInUi, shotsIn } from './console-fixtures.ts';
import { startServer, type RunningServer } from './support/server.ts';

const PER_COMPANY = 1200;
let server: RunningServer;
let dataDir: string;
let companies: SeededCompany[];
let users: Record<'admin' | 'viewer' | 'root', { email: string; password: string }>;
const mainUrl = (p = '/') => `http://localhost:${server.port}${p}`;
const tenantUrl = (c: SeededCompany, p = '/') => `http://${c.subdomain}.localhost:${server.port}${p}`;
const shot = shotsIn('console-monitors-roles', false);

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-scale-'));
  const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDb({ kind: 'sqlite', file: config.sqlitePath });
  const services = await createServices(config, { db });
  const now = Date.now();
  companies = await seedConsole(db, now, { companies: 2, perCompany: PER_COMPANY, hourlyHours: 24, dailyDays: 30 });
  for (const c of companies) {
    await seedIncident(db, c.id, now, { title: `Outage at ${c.name}` });
    await seedMaintenance(db, c.id, now, { title: `Upgrade at ${c.name}` });
  }
  users = {
    admin: await seedUser(services, { userType: 2, companyId: companies[0].id }),
    viewer: await seedUser(services, { userType: 3, companyId: companies[0].id }),
    root: await seedUser(services, { userType: 1 }),
  };
  await db.close();
  server = await startServer({ DATA_DIR: dataDir, RUN_ENGINE: 'false' });
});
test.afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const table = (page: Page) => page.getByRole('table', { name: /Monitors/ });
const renderedRows = (page: Page) => page.locator('tbody tr[aria-rowindex]');
/** The row index of the monitor drawn at the middle of the viewport (0 while none is drawn there). */
const loadedRowAtCentre = (page: Page) =>
  page.evaluate(() => {
    const row = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2)?.closest('tr[data-loaded]');
    return Number(row?.getAttribute('aria-rowindex') ?? 0);
  });

test('a company admin scrolls 1,200 monitors: a window of rows rendered, the rest fetched on the way, table semantics kept', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(companies[0]), users.admin);
  await page.goto(tenantUrl(companies[0], '/monitors'));
  await expect(page.getByRole('heading', { name: 'Monitors (1,200)' })).toBeVisible();
  await expect(table(page)).toHaveAttribute('aria-rowcount', '1201');
  // newest first: the last seeded monitor of the company is row 2 (row 1 is the header)
  await expect(page.getByRole('row').nth(1)).toHaveAttribute('aria-rowindex', '2');
  await expect(page.getByRole('row').nth(1)).toContainText('1199');
  expect(await renderedRows(page).count()).toBeLessThan(60);

  // typed a key at a time: rows of every kind and height come and go, the list keeps up
  const search = page.getByRole('searchbox', { name: 'Search' });
  for (const key of 'checkout-0') {
    await search.press(key);
    await page.waitForTimeout(250); // each answer rendered before the next key, as a person types
  }
  await expect(page.getByRole('heading', { name: 'Monitors (100)' })).toBeVisible();
  await expect(page.getByText('Something went wrong')).toHaveCount(0);
  await search.fill('');
  await expect(page.getByRole('heading', { name: 'Monitors (1,200)' })).toBeVisible();

  // to the bottom: the oldest monitor, fetched on the way, at its row index
  // as a person presses End again when measured rows made the page taller than first estimated
  const last = page.getByRole('row').filter({ has: page.getByRole('link', { name: /^api-0000 / }) });
  await expect
    .poll(
      async () => {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        return (await last.count()) ? last.getAttribute('aria-rowindex') : null;
      },
      { timeout: 15_000 },
    )
    .toBe('1201');
  expect(await renderedRows(page).count()).toBeLessThan(60);
  // the middle of the list
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
  await expect.poll(() => loadedRowAtCentre(page)).toBeGreaterThan(400);
  expect(await loadedRowAtCentre(page)).toBeLessThan(800);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'list-middle-1280');

  // search narrows and starts at the top again
  await search.fill('api-00');
  await expect(page.getByRole('heading', { name: 'Monitors (10)' })).toBeVisible();
  await expect(table(page)).toHaveAttribute('aria-rowcount', '11');
  await expect(renderedRows(page)).toHaveCount(10);
  // bulk selection of what is listed
  await page.getByRole('checkbox', { name: 'Select all loaded monitors' }).check();
  await expect(page.getByText('10 selected')).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expect(page.getByRole('heading', { name: 'Monitors (1,200)' })).toBeVisible();

  // keyboard: Tab walks the rows in order, and the window follows the focus down the list
  await page.getByRole('row').nth(1).getByRole('link').focus();
  for (let i = 0; i < 60; i++) await page.keyboard.press('Tab');
  const focusedRow = await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('aria-rowindex'));
  expect(Number(focusedRow)).toBeGreaterThan(8);

  // the phone layout: rows stacked as cards, still windowed, nothing off the side
  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Monitors (1,200)' })).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 3));
  await expect.poll(() => loadedRowAtCentre(page)).toBeGreaterThan(200);
  expect(await renderedRows(page).count()).toBeLessThan(60);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, 'list-middle-375');
});

test('a viewer reads the list and a monitor page with no button that would fail; the server refuses their writes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(companies[0]), users.viewer);
  await page.goto(tenantUrl(companies[0], '/monitors'));
  await expect(page.getByRole('heading', { name: 'Monitors (1,200)' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toContainText('1199');
  for (const name of ['Add Monitor', /^Edit /, /^Pause /, /^Resume /, /selected$/])
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  // the only checkbox a viewer has is the Archived filter: no row selection
  await expect(page.getByRole('checkbox', { name: /^Select/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'viewer-list-1280');

  await page.getByRole('row').nth(1).getByRole('link').click();
  await expect(page.getByTestId('response-chart')).toBeVisible();
  for (const name of ['Edit', 'Pause', 'Resume', 'Archive', 'Delete'])
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  const id = page.url().split('/').pop()!;
  // the same calls a button would make, from the viewer's own signed-in page
  const statuses = await page.evaluate(async (monitorId) => {
    const post = (url: string, body?: unknown) =>
      fetch(
        url,
        body === undefined
          ? { method: 'POST' }
          : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      ).then((r) => r.status);
    return {
      pause: await post(`/api/v1/monitors/${monitorId}/pause`),
      create: await post('/api/v1/monitors', { type: 'push', name: 'Sneaky', interval_seconds: 60 }),
      edit: await fetch(`/api/v1/monitors/${monitorId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Renamed' }),
      }).then((r) => r.status),
      remove: await fetch(`/api/v1/monitors/${monitorId}`, { method: 'DELETE' }).then((r) => r.status),
    };
  }, id);
  expect(statuses).toEqual({ pause: 403, create: 403, edit: 403, remove: 403 });
});

test('the super admin sees every company with its name; a chosen tenant filters monitors, incidents and maintenance', async ({ page }) => {
  test.setTimeout(60_000);
  const [acme, globex] = companies;
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, mainUrl(), users.root);
  await page.goto(mainUrl('/monitors'));
  await expect(page.getByRole('heading', { name: 'All Monitors (2,400)' })).toBeVisible();
  // newest first: globex's newest monitor, then further down acme's, each with its company name
  await expect(page.getByRole('row').nth(1)).toContainText(globex.name);
  await page.getByRole('searchbox', { name: 'Search' }).fill('api-0000');
  await expect(page.getByRole('heading', { name: 'All Monitors (1)' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toContainText(acme.name);
  await page.getByRole('searchbox', { name: 'Search' }).fill('');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'super-all-1280');

  await page.getByLabel('Tenant', { exact: true }).selectOption(acme.id);
  await expect(page.getByRole('heading', { name: 'Monitors (1,200)' })).toBeVisible();
  await expect(page.getByRole('row').nth(1)).toContainText(acme.name);
  await expect(page.getByRole('table').getByText(globex.name)).toHaveCount(0);

  await page.goto(mainUrl('/monitors/incidents'));
  await expect(page.getByRole('link', { name: `Outage at ${acme.name}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Outage at ${globex.name}` })).toHaveCount(0);
  await page.goto(mainUrl('/monitors/maintenance'));
  await expect(page.getByText(`Upgrade at ${acme.name}`)).toBeVisible();
  await expect(page.getByText(`Upgrade at ${globex.name}`)).toHaveCount(0);

  // the global view again: both companies on every screen
  await page.getByLabel('Tenant', { exact: true }).selectOption('');
  await expect(page.getByText(`Upgrade at ${globex.name}`)).toBeVisible();
  await expect(page.getByText(`Upgrade at ${acme.name}`)).toBeVisible();
  await page.goto(mainUrl('/monitors/incidents'));
  await expect(page.getByRole('link', { name: `Outage at ${globex.name}` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Outage at ${acme.name}` })).toBeVisible();
  await page.goto(mainUrl('/monitors'));
  await expect(page.getByRole('heading', { name: 'All Monitors (2,400)' })).toBeVisible();
});
