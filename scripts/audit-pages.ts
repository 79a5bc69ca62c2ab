// npm run audit:pages — Lighthouse (npm package) in Debian's Chromium on the landing page and a
// status page with 20 monitors, served by the real built server on loopback. Prints the four
// category scores of each. Build first: DIST_DIR=... astro build (the script reads DIST_DIR).
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseConfig } from '../src/server/config.ts';
import { openDb } from '../src/server/db/connect.ts';
import { createServices } from '../src/server/services.ts';
import { startServer } from '../tests/e2e/support/server.ts';
import { seedCompany } from '../tests/support/fixtures.ts';
import { DAY, HOUR, dayOf, hourOf, seedDaily, seedHourly, seedIncident, seedMonitor } from '../tests/api/public/fixtures.ts';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-audit-'));
{
  const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const db = openDb({ kind: 'sqlite', file: config.sqlitePath });
  const services = await createServices(config, { db });
  const now = Date.now();
  const co = await seedCompany(services, { name: 'Audit Corp', subdomain: 'audit' });
  for (let i = 0; i < 20; i++) {
    const m = await seedMonitor(db, co.id, now, { name: `Service ${i + 1}` });
    for (let h = 0; h < 24; h++) await seedHourly(db, m, hourOf(now) - h * HOUR, h === 3 && i === 2 ? { failures: 60, code: 500 } : {});
    for (let d = 0; d < 90; d++) await seedDaily(db, m, dayOf(now) - d * DAY);
  }
  await seedIncident(db, co.id, now, {
    title: 'Elevated latency',
    updates: [{ status: 'investigating', message: 'Looking into it.', at: now - 600_000 }],
  });
  await db.close();
}

const server = await startServer({
  DATA_DIR: dataDir,
  RUN_ENGINE: 'false',
  LOG_LEVEL: 'warn',
  ADMIN_EMAIL: 'audit@example.com',
  ADMIN_PASSWORD: 'audit-password-1', // setup done: "/" is the landing page
  ...(process.env.DIST_DIR ? { DIST_DIR: process.env.DIST_DIR } : {}),
});
const chrome = await chromeLauncher.launch({
  chromePath: '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
  ],
});
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
let failed = false;
try {
  for (const [name, url] of [
    ['landing', `http://localhost:${server.port}/`],
    ['status page (20 monitors)', `http://audit.localhost:${server.port}/`],
  ] as const) {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const scores = CATEGORIES.map((c) => `${c} ${Math.round((result.lhr.categories[c]?.score ?? 0) * 100)}`);
    console.log(`${name.padEnd(26)} ${scores.join('  ')}`);
    const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];
    console.log(`  ${metrics.map((m) => `${m.replace(/-/g, ' ')} ${result.lhr.audits[m]?.displayValue ?? '?'}`).join(', ')}`);
    for (const c of CATEGORIES) {
      const cat = result.lhr.categories[c];
      if ((cat?.score ?? 0) < 1) {
        const misses = (cat?.auditRefs ?? []).filter((r) => r.weight > 0 && (result.lhr.audits[r.id]?.score ?? 1) < 1).map((r) => r.id);
        console.log(`  ${c}: ${misses.join(', ')}`);
      }
    }
    if (result.lhr.runtimeError) {
      failed = true;
      console.error(result.lhr.runtimeError.message);
    }
  }
} finally {
  chrome.kill();
  await server.stop();
}
process.exit(failed ? 1 : 0);
