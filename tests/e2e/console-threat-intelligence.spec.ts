// /threat-intelligence in Chromium for a company admin, a viewer, a company without threat
// intelligence and a super admin. The data comes from the real jobs, run before the server
// starts against loopback fakes only: a DNS blocklist zone and registry, and feed files on a
// loopback HTTP server (the server is given the same settings, and runs no jobs itself).
import { test, expect } from '@playwright/test';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { securityAssetsRepo } from '../../src/server/db/repositories/security-assets-repo.ts';
import { threatFeeds } from '../../src/server/jobs/threat-feeds.ts';
import { threatIntel } from '../../src/server/jobs/threat-intel.ts';
import { createServices } from '../../src/server/services.ts';
import { SpanWriter } from '../../src/server/telemetry/span-writer.ts';
import { startBlocklistDns, type BlocklistDns } from '../fixtures/targets/dnsbl-server.ts';
import { seedCompany, seedUser } from '../support/fixtures.ts';
import { expectNoSeriousA11yViolations, signInUi, shotsIn } from './console-fixtures.ts';
import { startServer, type RunningServer } from './support/server.ts';

let server: RunningServer;
let dns: BlocklistDns;
let feeds: http.Server;
let dataDir: string;
const subdomains = { acme: '', gamma: '' };
let users: Record<'admin' | 'viewer' | 'outsider' | 'root', { email: string; password: string }>;
const mainUrl = (p = '/') => `http://localhost:${server.port}${p}`;
const tenantUrl = (sub: string, p = '/') => `http://${sub}.localhost:${server.port}${p}`;
const shot = shotsIn('console-threat-intelligence');

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  dns = await startBlocklistDns();
  feeds = http.createServer((req, res) => {
    if (req.url === '/urlhaus.csv') {
      return res.end(
        '# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter\n"1","2026-05-20 08:00:00","http://www.acme-e2e.test/inv.exe","online","","malware_download","exe","https://urlhaus.abuse.ch/url/1/","r"\n',
      );
    }
    if (req.url === '/c2.txt') return res.end('# C2\nevil.example\n');
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => feeds.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(feeds.address() as AddressInfo).port}`;
  const env = {
    DNS_RESOLVERS: `127.0.0.1:${dns.port}`,
    THREAT_DNSBL_ZONES: 'bl.test:ip',
    THREAT_FEEDS: JSON.stringify([
      { name: 'URLhaus', url: `${base}/urlhaus.csv`, format: 'abusech-csv' },
      { name: 'C2 list', url: `${base}/c2.txt`, format: 'plain', threat: 'botnet C2' },
    ]),
    THREAT_LOOKALIKE_QUERIES_PER_SECOND: '1000',
    THREAT_LOOKALIKE_CHECKS_PER_RUN: '1000',
  };
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-threat-'));
  const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });
  const db = openDb({ kind: 'sqlite', file: config.sqlitePath });
  let now = Date.now();
  const services = await createServices(config, { db, now: () => now });
  const acme = await seedCompany(services, { name: 'Acme Shop' });
  const gamma = await seedCompany(services, { name: 'Gamma Works' });
  subdomains.acme = acme.subdomain;
  subdomains.gamma = gamma.subdomain;
  await db.k.updateTable('companies').set({ threat_feed_enabled: true }).where('id', '=', acme.id).execute();
  users = {
    admin: await seedUser(services, { userType: 2, companyId: acme.id }),
    viewer: await seedUser(services, { userType: 3, companyId: acme.id }),
    outsider: await seedUser(services, { userType: 2, companyId: gamma.id }),
    root: await seedUser(services, { userType: 1 }),
  };
  const assets = securityAssetsRepo(db);
  for (const [id, hostname, kind] of [
    ['e2e-domain', 'acme-e2e.test', 'domain'],
    ['e2e-www', 'www.acme-e2e.test', 'host'],
    ['e2e-api', 'api.acme-e2e.test', 'host'],
  ] as const) {
    await assets.insert({
      id,
      company_id: acme.id,
      hostname,
      kind,
      verification_token: `t-${id}`,
      verification_method: null,
      verified_at: null,
      last_verification_at: null,
      last_verification_error: null,
      created_at: now,
      updated_at: now,
    });
    await assets.markVerified(id, 'dns', now);
  }
  dns.a.set('acme-e2e.test', ['192.0.2.20']);
  dns.a.set('www.acme-e2e.test', ['192.0.2.10']);
  dns.a.set('api.acme-e2e.test', ['192.0.2.11']);
  dns.a.set('10.2.0.192.bl.test', ['127.0.0.2']);
  dns.txt.set('10.2.0.192.bl.test', ['Listed for sending spam']);
  const writer = new SpanWriter(db);
  await writer.write(acme.id, [
    {
      trace_id: 'c'.repeat(32),
      span_id: '1'.repeat(16),
      parent_span_id: null,
      name: 'POST',
      service: 'checkout',
      kind: 3,
      start_us: (now - 60_000) * 1000,
      duration_ms: 12,
      status_code: 0,
      http_status: 200,
      is_error: false,
      is_request: false,
      error_message: null,
      attributes: JSON.stringify({ 'url.full': 'https://pay.evil.example/charge' }),
      events: '[]',
    },
  ]);
  await writer.close();
  await threatFeeds.run(services, now);
  await threatIntel.run(services, now);
  dns.a.set('acme-e2f.test', ['192.0.2.99']); // registered after the first run
  now += 3_600_000;
  await threatIntel.run(services, now);
  await db.close();
  server = await startServer({ DATA_DIR: dataDir, RUN_ENGINE: 'false', ...env });
});
test.afterAll(async () => {
  await server?.stop();
  await dns?.close();
  await new Promise((r) => feeds?.close(r));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a company admin sees each asset’s reputation with the reasons, the listed host its checkout service called, and the new lookalike', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(subdomains.acme), users.admin);
  await page.goto(tenantUrl(subdomains.acme, '/threat-intelligence'));
  await expect(page.getByRole('heading', { name: 'Threat Intelligence', level: 1 })).toBeVisible();
  const www = page.getByTestId('threat-asset-www.acme-e2e.test');
  await expect(www).toContainText('Listed');
  await expect(www).toContainText('bl.test: 192.0.2.10 127.0.0.2 (Listed for sending spam)');
  await expect(www).toContainText('URLhaus: www.acme-e2e.test malware_download');
  await expect(page.getByTestId('threat-asset-api.acme-e2e.test')).toContainText('Clean');
  await expect(page.getByTestId('threat-trace-matches')).toHaveText(
    /Your checkout service called pay\.evil\.example, listed by C2 list as botnet C2 \(evil\.example\)/,
  );
  await expect(page.getByTestId('threat-lookalikes')).toContainText('acme-e2f.test');
  await expect(page.getByTestId('threat-breach')).toHaveText('Breach lookup is not configured on this platform.');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await expect(www).toContainText('Listed');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'admin-375');
});

test('a viewer sees the same; a company without threat intelligence is told it is not enabled', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(subdomains.acme), users.viewer);
  await page.goto(tenantUrl(subdomains.acme, '/threat-intelligence'));
  await expect(page.getByTestId('threat-asset-www.acme-e2e.test')).toContainText('Listed');
  await expect(page.getByTestId('threat-trace-matches')).toContainText('checkout');
  await expectNoSeriousA11yViolations(page);

  await page.context().clearCookies();
  await signInUi(page, tenantUrl(subdomains.gamma), users.outsider);
  await page.goto(tenantUrl(subdomains.gamma, '/threat-intelligence'));
  await expect(page.getByText('Threat intelligence is not enabled for your company.')).toBeVisible();
  await expect(page.getByText('acme-e2e.test')).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'not-enabled-1280');
});

test('a super admin sees every company with threat intelligence', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, mainUrl(), users.root);
  await page.goto(mainUrl('/threat-intelligence'));
  await expect(page.getByTestId('threat-asset-www.acme-e2e.test')).toContainText('Listed');
  await expect(page.getByText('Choose a company in the header to see its breach lookup.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'super-admin-1280');
});
