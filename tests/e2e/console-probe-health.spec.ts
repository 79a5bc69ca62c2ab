// A probe location's health on the Probe locations screen (issue 27 item 5), in Chromium against
// a real server whose database was seeded before it started: an offline location (its probe
// silent for two days) and a location flagged by its canary read so in the list and in their
// detail, beside a healthy one and one with no probe yet. PROBE_OFFLINE_SECONDS is a day here, so
// the server's own probe-health job, running meanwhile, keeps what was seeded. Screenshots at
// 1366 and 390 px, looked at.
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { createServices } from '../../src/server/services.ts';
import { seedUser } from '../support/fixtures.ts';
import { expectNoSeriousA11yViolations, signInUi, shotsIn } from './console-fixtures.ts';
import { startServer, type RunningServer } from './support/server.ts';

const DAY = 86_400_000;
let server: RunningServer;
let dataDir: string;
let root: { email: string; password: string };
const mainUrl = (p = '/') => `http://localhost:${server.port}${p}`;
const shot = shotsIn('console-probe-health');
const OFFLINE_SINCE = Date.UTC(2026, 10, 27, 8, 15);
const FLAGGED_SINCE = Date.UTC(2026, 10, 29, 9, 40);

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-probe-health-'));
  const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDb({ kind: 'sqlite', file: config.sqlitePath });
  const services = await createServices(config, { db });
  root = await seedUser(services, { userType: 1 });
  const now = Date.now();
  const locations = [
    { slug: 'eu-west', name: 'Frankfurt', offline_since: OFFLINE_SINCE, flagged_since: null, seen: OFFLINE_SINCE },
    { slug: 'us-east', name: 'Virginia', offline_since: null, flagged_since: FLAGGED_SINCE, seen: now },
    { slug: 'ap-south', name: 'Singapore', offline_since: null, flagged_since: null, seen: now },
    { slug: 'sa-east', name: 'São Paulo', offline_since: null, flagged_since: null, seen: null },
  ];
  for (const [i, l] of locations.entries()) {
    const id = `loc-${l.slug}`;
    await db.k
      .insertInto('probe_locations')
      .values({
        id,
        num: i + 1,
        slug: l.slug,
        name: l.name,
        company_id: null,
        created_at: now - 3 * DAY,
        created_by: null,
        offline_since: l.offline_since,
        flagged_since: l.flagged_since,
      })
      .execute();
    if (l.seen === null) continue;
    const token = `tok-${l.slug}`;
    await db.k
      .insertInto('probe_tokens')
      .values({
        id: token,
        location_id: id,
        name: 'host-1',
        token_hash: `h-${l.slug}`,
        token_prefix: 'swp_abcd',
        created_at: now - 3 * DAY,
        created_by: null,
        last_used_at: null,
        revoked_at: null,
      })
      .execute();
    await db.k
      .insertInto('probes')
      .values({
        id: `probe-${l.slug}`,
        location_id: id,
        token_id: token,
        instance: `${l.slug}-1`,
        version: '1.0.0',
        first_seen_at: now - 3 * DAY,
        last_seen_at: l.seen,
        checks_per_second: null,
        capabilities: '',
        lag_ms: null,
      })
      .execute();
  }
  await db.close();
  server = await startServer({ DATA_DIR: dataDir, RUN_ENGINE: 'false', PROBE_OFFLINE_SECONDS: '86400' });
});
test.afterAll(async () => {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function shots(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('the super admin sees which locations are offline or flagged, and why', async ({ page }) => {
  await signInUi(page, mainUrl(), root);
  await page.goto(mainUrl('/settings/probe-locations'));
  await expect(page.getByRole('heading', { name: 'Probe locations', level: 2 })).toBeVisible();
  await expect(page.getByTestId('location-eu-west')).toContainText('Offline since 2026-11-27 08:15');
  await expect(page.getByTestId('location-us-east')).toContainText('Flagged since 2026-11-29 09:40');
  await expect(page.getByTestId('location-ap-south')).toContainText('Healthy');
  await expect(page.getByTestId('location-sa-east')).toContainText('No probe yet');
  await expect(page.getByTestId('location-local')).toContainText('Always online');
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'list');

  await page.getByRole('button', { name: 'Probes and tokens of Frankfurt' }).click();
  const detail = page.getByTestId('location-detail');
  await expect(detail).toContainText('Offline since 2026-11-27 08:15 UTC: no probe of this location has called since.');
  await expect(detail.getByRole('table', { name: 'Probes' })).toContainText('Offline');
  await page.getByRole('button', { name: 'Probes and tokens of Virginia' }).click();
  await expect(detail).toContainText('Flagged since 2026-11-29 09:40 UTC: every check from this location fails');
  await expectNoSeriousA11yViolations(page);
  await detail.scrollIntoViewIfNeeded();
  await shots(page, 'flagged-detail');
});
