// A monitor's locations and quorum in the console (issue 27), in Chromium against a real server:
// a company admin picks locations (the built-in engine, a public one and the company's private
// one) and a quorum, saves, and reopening shows them; the monitor page's Locations section shows
// each location's state, online or offline, last check, response time and error; the list says
// where it fails; Settings sets the company's default locations. The per-location states are
// written straight into the server's database (the result writer that keeps them lands
// separately), as a multi-location monitor would have them. Screenshots at 1366 and 390 px,
// looked at.
import type { Page } from '@playwright/test';
import { openDb } from '../../src/server/db/connect.ts';
import { parseConfig } from '../../src/server/config.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  serverDataDir,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const shot = shotsIn('console-monitor-locations');
// what the monitor connects to: a listening loopback port, so the built-in engine sees it up
const target = loopbackTarget((_req, res) => res.end('ok'));

async function shots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('a company admin checks a monitor from three locations with a quorum of 2, and sees each location', async ({ page }) => {
  const api = await adminApi();
  const company = await seedCompany(api, { name: 'Locations Co', plan: 'enterprise' });
  const admin = await seedUser(api, 2, company.id);
  const pub = await api.post('/api/v1/probe-locations', {
    data: { name: 'Oregon', slug: `ore-${Date.now().toString(36)}`, private: false },
  });
  expect(pub.status(), await pub.text()).toBe(201);
  const oregon = (await pub.json()) as { slug: string };
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.setViewportSize({ width: 1366, height: 900 });
  // The company's private location, with a probe that said hello (so it is online; Oregon has none).
  const hello = await page.evaluate(async () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(path, {
        method: 'POST',
        credentials: headers.authorization ? 'omit' : 'same-origin',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const lab = await (await post('/api/v1/probe-locations', { name: 'Office lab', slug: 'office-lab', private: true })).json();
    const { token } = await (await post(`/api/v1/probe-locations/${lab.id}/tokens`, { name: 'rack 1' })).json();
    return (await post('/api/v1/probe/hello', { instance: 'lab-1', version: '1.0.0' }, { authorization: `Bearer ${token}` })).status;
  });
  expect(hello).toBe(200);

  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await dialog.getByLabel('Kind').selectOption('tcp');
  await dialog.getByLabel('Name').fill('Checkout');
  await dialog.getByLabel('Host').fill('127.0.0.1');
  await dialog.getByLabel('Port').fill(String(target.port()));
  const where = dialog.getByTestId('monitor-locations');
  await expect(where.getByLabel('Use the company default')).toBeChecked();
  await where.getByLabel('Choose locations').check();
  const picker = dialog.getByTestId('m-locations');
  await expect(picker.getByLabel(/Platform \(built-in\)/)).toBeChecked();
  await picker.getByLabel(/Oregon/).check();
  await picker.getByLabel(/Office lab/).check();
  await expect(picker.getByText('Private')).toBeVisible();
  // A quorum larger than the set is refused beside its field.
  await dialog.getByLabel('Down when this many locations agree').fill('4');
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(dialog.getByText('The quorum is from 1 to 3 (the number of locations).').first()).toBeVisible();
  await dialog.getByLabel('Down when this many locations agree').fill('2');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByTestId('monitor-locations').scrollIntoViewIfNeeded();
  await shot(page, 'dialog-locations-1366');
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor "Checkout" created.' })).toBeVisible();

  // Reopened, the dialog shows the choice.
  await page.getByRole('button', { name: 'Edit Checkout' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Checkout' });
  await expect(edit.getByLabel('Choose locations')).toBeChecked();
  for (const name of [/Platform \(built-in\)/, /Oregon/, /Office lab/])
    await expect(edit.getByTestId('m-locations').getByLabel(name)).toBeChecked();
  await expect(edit.getByLabel('Down when this many locations agree')).toHaveValue('2');
  await page.setViewportSize({ width: 390, height: 844 });
  await edit.getByTestId('monitor-locations').scrollIntoViewIfNeeded();
  await shot(page, 'dialog-locations-390');
  await page.setViewportSize({ width: 1366, height: 900 });
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // The built-in engine's own check (at creation) sees it up; the lab's probe and Oregon's
  // (offline now, its state stale) saw it down: the lab alone is 1 of the 2 voting locations,
  // fewer than the quorum of 2, so the monitor is degraded.
  const db = openDb({ kind: 'sqlite', file: parseConfig({ NODE_ENV: 'test', DATA_DIR: serverDataDir() }).sqlitePath });
  const now = Date.now();
  const monitor = await db.k.selectFrom('monitors').select(['id']).where('company_id', '=', company.id).executeTakeFirstOrThrow();
  const nums = await db.k.selectFrom('probe_locations').select(['slug', 'num']).where('slug', 'in', [oregon.slug, 'office-lab']).execute();
  const num = (slug: string) => Number(nums.find((n) => n.slug === slug)!.num);
  const state = (location: number, status: 'operational' | 'down', rt: number | null, error: string | null) => ({
    monitor_id: monitor.id,
    location,
    company_id: company.id,
    status,
    status_since: now - 300_000,
    last_checked_at: now - 20_000,
    last_status: status,
    last_response_time_ms: rt,
    last_http_code: null,
    last_error: error,
    updated_at: now,
  });
  const remote = [num(oregon.slug), num('office-lab')];
  await db.k.deleteFrom('monitor_location_states').where('monitor_id', '=', monitor.id).where('location', 'in', remote).execute();
  await db.k
    .insertInto('monitor_location_states')
    .values([
      state(num(oregon.slug), 'down', null, 'Connection timed out after 10 s'),
      state(num('office-lab'), 'down', null, 'Connection refused'),
    ])
    .execute();
  // A few earlier checks from each remote location, for the chart by location.
  await db.k
    .insertInto('check_results')
    .values(
      [1, 2, 3, 4, 5, 6].flatMap((i) => [
        {
          monitor_id: monitor.id,
          checked_at: now - 20_000 - i * 60_000 - 7_000,
          company_id: company.id,
          status: 'operational' as const,
          response_time_ms: 180 + i * 7,
          http_code: 200,
          error: null,
          timings: null,
          cert_expires_at: null,
          location: num(oregon.slug),
        },
        {
          monitor_id: monitor.id,
          checked_at: now - 20_000 - i * 60_000 - 31_000,
          company_id: company.id,
          status: 'operational' as const,
          response_time_ms: 45 + (i % 3) * 4,
          http_code: 200,
          error: null,
          timings: null,
          cert_expires_at: null,
          location: num('office-lab'),
        },
      ]),
    )
    .execute();
  await db.k
    .insertInto('check_results')
    .values({
      monitor_id: monitor.id,
      checked_at: now - 20_000,
      company_id: company.id,
      status: 'down',
      response_time_ms: null,
      http_code: null,
      error: 'Connection timed out after 10 s',
      timings: null,
      cert_expires_at: null,
      location: num(oregon.slug),
    })
    .execute();
  await db.k
    .updateTable('monitors')
    .set({ status: 'degraded', status_since: now - 300_000 })
    .where('id', '=', monitor.id)
    .execute();
  await db.close();

  await page.reload();
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Checkout' }) });
  await expect(row).toContainText('Degraded');
  // Oregon is offline: its stale state is not named
  await expect(row).toContainText('Down in Office lab (1 of 3)');
  await shots(page, 'list');

  await row.getByRole('link', { name: 'Checkout' }).click();
  const section = page.getByTestId('locations');
  await expect(section.getByRole('heading', { name: 'Locations' })).toBeVisible();
  await expect(section).toContainText('Down when 2 of 3 locations agree.');
  const locRow = (name: RegExp) => section.getByRole('row').filter({ hasText: name });
  // the built-in engine's state is the result writer's, from its own check
  await expect(async () => {
    await page.reload();
    await expect(locRow(/Platform \(built-in\)/)).toContainText('Operational', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  await expect(locRow(/Platform \(built-in\)/)).toContainText(/\d+ ms/);
  await expect(locRow(/Oregon/)).toContainText('Down');
  await expect(locRow(/Oregon/)).toContainText('Offline: not counted');
  await expect(locRow(/Oregon/)).toContainText('Connection timed out after 10 s');
  await expect(locRow(/Office lab/)).toContainText('Private');
  await expect(locRow(/Office lab/)).toContainText('Online');
  // Recent checks name their location.
  await expect(page.getByTestId('checks').getByRole('row').filter({ hasText: 'Connection timed out after 10 s' })).toContainText('Oregon');
  await expect(locRow(/Office lab/)).toContainText('Connection refused');
  await expectNoSeriousA11yViolations(page);
  await section.scrollIntoViewIfNeeded();
  await shots(page, 'monitor-page');
  // The chart by location: each location's line beside the total, and their averages in words.
  const chart = page.getByTestId('response-times');
  await chart.getByRole('button', { name: 'Latest checks' }).click();
  await chart.getByRole('button', { name: 'By location' }).click();
  await expect(chart.getByTestId('response-chart')).toHaveAttribute('data-mode', 'locations');
  await expect(chart).toContainText(/Average by location: .*Oregon 2\d\d ms.*Office lab 4\d ms/);
  await chart.scrollIntoViewIfNeeded();
  await chart.screenshot({ path: 'test-results/console-monitor-locations/chart-by-location-1366.png' });
  // the section alone at phone width (the whole page is too tall to read in one picture)
  await page.setViewportSize({ width: 390, height: 844 });
  await section.screenshot({ path: 'test-results/console-monitor-locations/locations-section-390.png' });
  await page.setViewportSize({ width: 1366, height: 900 });

  // The company's default set, in Settings.
  await page.goto(tenantUrl(company.subdomain, '/settings/company'));
  const defaults = page.getByTestId('settings-default-locations');
  await expect(defaults.getByLabel(/Platform \(built-in\)/)).toBeChecked();
  await defaults.getByLabel(/Oregon/).check();
  await defaults.getByRole('button', { name: 'Save default locations' }).click();
  await expect(defaults.getByText('Default locations saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('settings-default-locations').getByLabel(/Oregon/)).toBeChecked();
  await expectNoSeriousA11yViolations(page);
  await page.getByTestId('settings-default-locations').scrollIntoViewIfNeeded();
  await shots(page, 'settings');
});
