// A company's feeds and badges on its own host, against scripted rollups written into the
// database: /feed.rss and /feed.atom answer as /history.rss and /history.atom do; the SVG badges
// of a public monitor carry their figures; a private monitor has no badge.
import { test, expect } from '@playwright/test';
import type { Db } from '../../src/server/db/connect.ts';
import type { Services } from '../../src/server/domain/context.ts';
import type { RunningServer } from './support/server.ts';
import { rawRequest } from '../support/test-app.ts';
import { startPublicServer, seedBrandedCompany } from '../api/public/e2e-seed.ts';
import { DAY, HOUR, dayOf, hourOf, seedDaily, seedHourly, seedIncident, seedMonitor, type SeededMonitor } from '../api/public/fixtures.ts';

let server: RunningServer;
let db: Db;
let services: Services;
let api: SeededMonitor;
let secret: SeededMonitor;
const now = Date.now();
const SUB = 'badgeco';
const url = (path: string) => `http://${SUB}.localhost:${server.port}${path}`;
/** Node cannot resolve *.localhost: talk to loopback with the tenant's Host header. */
const get = (path: string) => rawRequest(`http://127.0.0.1:${server.port}${path}`, 'GET', { host: `${SUB}.localhost:${server.port}` });

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, db, services } = await startPublicServer());
  const co = await seedBrandedCompany(services, { name: 'Badge Co', subdomain: SUB });
  api = await seedMonitor(db, co.id, now, { name: 'API', lastResponseTimeMs: 123.456 });
  // last 24 h: 4 hours of 60 checks, 3 failed → 237/240 = 98.75 %
  for (let i = 0; i < 4; i++) await seedHourly(db, api, hourOf(now) - i * HOUR, { checks: 60, failures: i === 1 ? 3 : 0 });
  // last 7 days: 4 days of 1000 checks, 10 failed → 3990/4000 = 99.75 %
  for (let i = 0; i < 4; i++) await seedDaily(db, api, dayOf(now) - i * DAY, { checks: 1000, failures: i === 2 ? 10 : 0 });
  secret = await seedMonitor(db, co.id, now, { name: 'Secret DB', isPublic: false });
  await seedIncident(db, co.id, now, { monitorId: api.id, title: 'API answers slowly', status: 'investigating' });
  await seedIncident(db, co.id, now, { title: 'Private maintenance note', isPublic: false });
});

test.afterAll(async () => {
  await db?.close();
  await server?.stop();
});

test('/feed.rss and /feed.atom answer like /history.rss and /history.atom', async () => {
  for (const [alias, original, type] of [
    ['/feed.rss', '/history.rss', 'application/rss+xml'],
    ['/feed.atom', '/history.atom', 'application/atom+xml'],
  ] as const) {
    const a = await get(alias);
    const o = await get(original);
    expect(a.status, alias).toBe(200);
    expect(o.status, original).toBe(200);
    expect(a.headers.get('content-type')).toContain(type);
    expect(a.headers.get('content-type')).toBe(o.headers.get('content-type'));
    expect(a.headers.get('etag')).toBe(o.headers.get('etag'));
    expect(a.text).toBe(o.text);
    expect(a.text).toContain('API answers slowly');
    expect(a.text).not.toContain('Private maintenance note');
    // a current ETag gets 304 on the alias too
    const again = await rawRequest(`http://127.0.0.1:${server.port}${alias}`, 'GET', {
      host: `${SUB}.localhost:${server.port}`,
      'if-none-match': a.headers.get('etag')!,
    });
    expect(again.status).toBe(304);
  }
  expect((await get('/feed.atom')).text).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
  expect((await get('/feed.rss')).text).toMatch(/<rss[^>]*version="2.0"/);
});

test('SVG badges of a public monitor: uptime 24h, uptime 7d and response time with their figures', async ({ page }) => {
  for (const [file, label, figure] of [
    ['uptime-24h.svg', 'uptime 24h', '98.75%'],
    ['uptime-7d.svg', 'uptime 7d', '99.75%'],
    ['response-time.svg', 'response time', '123 ms'],
  ] as const) {
    const response = await page.goto(url(`/badges/${api.id}/${file}`));
    expect(response?.status(), file).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = page.locator('svg');
    await expect(svg.locator('title')).toHaveText(`${label}: ${figure}`);
    await expect(svg.locator('text').filter({ hasText: figure }).first()).toBeAttached();
    await expect(svg.locator('text').filter({ hasText: label }).first()).toBeAttached();
  }
});

test("a private monitor's badge, and an unknown monitor's, is 404", async ({ page }) => {
  for (const file of ['uptime-24h.svg', 'uptime-7d.svg', 'response-time.svg', 'status.svg']) {
    expect((await page.goto(url(`/badges/${secret.id}/${file}`)))?.status(), file).toBe(404);
  }
  expect((await page.goto(url('/badges/no-such-monitor/uptime-24h.svg')))?.status()).toBe(404);
  // the same badge of the public monitor is there
  expect((await page.goto(url(`/badges/${api.id}/status.svg`)))?.status()).toBe(200);
});
