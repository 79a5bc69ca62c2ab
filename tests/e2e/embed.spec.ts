// The embeds on a company's OWN site (issue 32, docs/features/embeds.md): a page of another
// origin (a loopback server this test starts on its own port) with a strict CSP that allows only
// the lines the docs give, and CSS of its own that would restyle any link or box it reaches.
// With an ongoing incident the script's banner shows the incident's title and links to it, the
// badge says the page's state, the iframe badge and banner show the same without a script; after
// the incident is resolved a reload shows no banner; data-lang picks the language. Desktop and
// mobile widths; screenshots in .tmp/embed-shots (looked at).
import { test, expect, type Page } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../src/server/db/connect.ts';
import type { Services } from '../../src/server/domain/context.ts';
import type { RunningServer } from './support/server.ts';
import { rawRequest } from '../support/test-app.ts';
import { startPublicServer, seedBrandedCompany } from '../api/public/e2e-seed.ts';
import { seedIncident, seedMonitor } from '../api/public/fixtures.ts';

let server: RunningServer;
let db: Db;
let services: Services;
let site: Server;
let sitePort: number;
let incidentId: string;
const SUB = 'embedco';
const SHOTS = '.tmp/embed-shots';
const statusOrigin = () => `http://${SUB}.localhost:${server.port}`;

/** The CSP lines docs/features/embeds.md tells a company to add, and nothing else of ours. */
const siteCsp = () =>
  [
    "default-src 'none'",
    "style-src 'self'",
    `script-src 'self' ${statusOrigin()}`,
    `connect-src ${statusOrigin()}`,
    `frame-src ${statusOrigin()}`,
  ].join('; ');

/** The company's site: the script (banner and badge) and the two frames. */
const sitePage = () => `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>Embed Co shop</title>
<link rel="stylesheet" href="/site.css"></head><body>
<header><h1>Embed Co shop</h1><p id="badge-slot">Our status:
<script src="${statusOrigin()}/embed.js" async data-theme="light"></script></p></header>
<main><p>Products and prices.</p>
<iframe id="badge-frame" title="Status" src="${statusOrigin()}/embed/badge?theme=dark&lang=de" width="320" height="40"></iframe>
<iframe id="banner-frame" title="Incidents" src="${statusOrigin()}/embed/banner?lang=en" width="420" height="90"></iframe></main>
<script src="${statusOrigin()}/embed.js" async data-style="banner" data-position="bottom-right" data-theme="dark" data-accent="#ff6600"></script>
</body></html>`;

/** A page that asks for German with data-lang (the script then loads embed.js?lang=de). */
const germanPage = () => `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Embed Co</title></head>
<body><p id="de-slot">Status: <script src="${statusOrigin()}/embed.js" async data-lang="de"></script></p></body></html>`;

/** The site's own CSS: it would restyle every link and box of ours it could reach. */
const SITE_CSS = 'a{color:rgb(255,0,0)!important;font-size:40px!important}div{border:5px solid lime}body{font-family:serif}';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  ({ server, db, services } = await startPublicServer());
  const co = await seedBrandedCompany(services, { name: 'Embed Co', subdomain: SUB, primary: '#0a66c2' });
  const api = await seedMonitor(db, co.id, Date.now(), { name: 'Checkout API' });
  incidentId = await seedIncident(db, co.id, Date.now(), { monitorId: api.id, title: 'Checkout is failing', severity: 'high' });
  site = createServer((req, res) => {
    if (req.url === '/site.css') return res.writeHead(200, { 'content-type': 'text/css' }).end(SITE_CSS);
    const html = req.url === '/de' ? germanPage() : sitePage();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': siteCsp() }).end(html);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  sitePort = (site.address() as AddressInfo).port;
});

test.afterAll(async () => {
  await new Promise((resolve) => site?.close(resolve));
  await db?.close();
  await server?.stop();
});

/** Opens the site and collects what the browser reports against its CSP. */
async function openSite(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`http://127.0.0.1:${sitePort}/`);
  return violations;
}

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'mobile', width: 390, height: 844 },
]) {
  test(`${viewport.name}: an ongoing incident shows in the banner and badge, script and frames, under the site's strict CSP`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const violations = await openSite(page);
    const banner = page.locator('statuswatch-embed .n');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('Incident · Major impact');
    const link = banner.getByRole('link', { name: 'Checkout is failing' });
    await expect(link).toHaveAttribute('href', `${statusOrigin()}/incidents/${incidentId}`);
    // the site's CSS does not reach into the shadow root
    await expect(link).not.toHaveCSS('color', 'rgb(255, 0, 0)');
    await expect(link).toHaveCSS('font-size', '14px');
    // the banner sits in the corner asked for, inside the window
    const box = (await banner.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(box.y).toBeGreaterThan(viewport.height / 2);
    // the badge stands where its script is, and says the page's state
    const badge = page.locator('#badge-slot statuswatch-embed a.b');
    await expect(badge).toHaveText('Partial system outage');
    await expect(badge).toHaveAttribute('href', `${statusOrigin()}/`);
    // the frames, with no script
    const badgeFrame = page.frameLocator('#badge-frame');
    await expect(badgeFrame.getByRole('link')).toHaveText('Teilweiser Systemausfall');
    const bannerFrame = page.frameLocator('#banner-frame');
    await expect(bannerFrame.getByRole('link', { name: 'Checkout is failing' })).toHaveAttribute(
      'href',
      `${statusOrigin()}/incidents/${incidentId}`,
    );
    await page.screenshot({ path: `${SHOTS}/incident-${viewport.name}.png`, fullPage: true });
    expect(violations).toEqual([]);
    // no cookie of the status page's was set in the visitor's browser
    expect(await page.context().cookies(statusOrigin())).toEqual([]);
  });
}

test('dismissing the banner hides that incident for the rest of the visit', async ({ page }) => {
  await openSite(page);
  const banner = page.locator('statuswatch-embed .n');
  await expect(banner).toBeVisible();
  await banner.getByRole('button', { name: 'Dismiss' }).click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(page.locator('#badge-slot statuswatch-embed a.b')).toBeVisible();
  await expect(page.locator('statuswatch-embed .n')).toHaveCount(0);
});

test('data-lang chooses the language of the badge, whatever the browser says', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.goto(`http://127.0.0.1:${sitePort}/de`);
  await expect(page.locator('#de-slot statuswatch-embed a.b')).toHaveText('Teilweiser Systemausfall');
  // one badge: the English script handed over to the German one
  await expect(page.locator('statuswatch-embed')).toHaveCount(1);
  expect(violations).toEqual([]);
});

test('after the incident is resolved, a reload shows no banner and the badge says all is well', async ({ page }) => {
  await db.k
    .updateTable('incidents')
    .set({ status: 'resolved', resolved_at: Date.now(), updated_at: Date.now() })
    .where('id', '=', incidentId)
    .execute();
  // the server's snapshot notices the change within its recheck time
  await expect
    .poll(async () => {
      const r = await rawRequest(`http://127.0.0.1:${server.port}/embed/status.json`, 'GET', { host: `${SUB}.localhost:${server.port}` });
      return JSON.parse(r.text).ongoing.length;
    })
    .toBe(0);
  for (const viewport of [
    { name: 'desktop', width: 1280, height: 800 },
    { name: 'mobile', width: 390, height: 844 },
  ]) {
    await page.setViewportSize(viewport);
    const violations = await openSite(page);
    await expect(page.locator('#badge-slot statuswatch-embed a.b')).toHaveText('All systems operational');
    await expect(page.frameLocator('#badge-frame').getByRole('link')).toHaveText('Alle Systeme betriebsbereit');
    await expect(page.frameLocator('#banner-frame').locator('body')).toBeEmpty();
    await expect(page.locator('statuswatch-embed .n')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/resolved-${viewport.name}.png`, fullPage: true });
    expect(violations).toEqual([]);
  }
});
