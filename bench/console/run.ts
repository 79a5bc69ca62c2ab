// Console benchmark (issue 13 targets, DESIGN.md §5): the real built server on loopback holding
// 10,000 monitors across 10 companies with 90 days of rollups (seed.ts), measured in Chromium:
//  - navigation -> first rows of the monitor list (company admin: 1,000; super admin: 10,000)
//  - search keystroke -> list updated (each keystroke of a typed search)
//  - monitor page: navigation -> first chart drawn, and 90 days chosen -> chart drawn
//  - state change in the engine -> the open console shows it (only with the live stream)
//  - the list call on its own (server time), and the console's initial JS (scripts/console-budget.ts)
// Needs the pages built: DIST_DIR=$PWD/.tmp/dist-bench astro build && DIST_DIR=... npm run bench:console
// --pg (a throwaway cluster) or BENCH_DATABASE_URL=postgres://... runs the server on PostgreSQL.
// --runs N (default 5) navigations per figure. A benchmark, not a test: it prints, never fails.
import { chromium, type Browser, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '../../src/server/config.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { newId } from '../../src/server/domain/ids.ts';
import { createServices } from '../../src/server/services.ts';
import { startServer } from '../../tests/e2e/support/server.ts';
import { seedUser } from '../../tests/support/fixtures.ts';
import { createDatabase, startPgCluster } from '../../tests/support/pg-cluster.ts';
import { seedConsole } from '../../tests/support/console-seed.ts';

const { values } = parseArgs({
  options: {
    pg: { type: 'boolean', default: false },
    runs: { type: 'string', default: '5' },
    companies: { type: 'string', default: '10' },
    'per-company': { type: 'string', default: '1000' },
  },
});
const RUNS = Number(values.runs);
const SEARCH = 'checkout-01';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const max = (xs: number[]) => Math.max(...xs);
const ms = (n: number | null | undefined) => (n == null || !Number.isFinite(n) ? 'n/a' : `${n.toFixed(0)} ms`);
const line = (what: string, figure: string, target: string) => console.log(`${what.padEnd(58)} ${figure.padEnd(34)} target: ${target}`);

/** A loopback target for the live probe monitor: up until told otherwise. */
async function probeTarget() {
  let down = false;
  const server = http.createServer((_req, res) => {
    res.writeHead(down ? 500 : 200, { 'content-type': 'text/plain' });
    res.end('probe');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    setDown: (d: boolean) => (down = d),
    close: () => new Promise((r) => server.close(r)),
  };
}

async function seed(dataDir: string, url: string | undefined, probePort: number) {
  const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...(url ? { DATABASE_URL: url } : {}) });
  const db = url ? openDb({ kind: 'postgres', url }) : openDb({ kind: 'sqlite', file: config.sqlitePath });
  const services = await createServices(config, { db });
  const started = performance.now();
  const now = Date.now();
  const companies = await seedConsole(db, now, { companies: Number(values.companies), perCompany: Number(values['per-company']) });
  const seconds = (performance.now() - started) / 1000;
  const superAdmin = await seedUser(services, { userType: 1, email: 'bench-super@example.com' });
  const admin = await seedUser(services, { userType: 2, companyId: companies[0].id, email: 'bench-admin@example.com' });
  // the one monitor the engine checks during the run: the live figure watches it go down
  const probeId = newId();
  await db.k
    .insertInto('monitors')
    .values({
      id: probeId,
      company_id: companies[0].id,
      name: 'zz live probe',
      type: 'http',
      config: JSON.stringify({ url: `http://127.0.0.1:${probePort}/`, method: 'GET', accepted_status_codes: ['200-299'] }),
      interval_seconds: 1,
      timeout_seconds: 1,
      confirmations: 1,
      next_due_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const sample = await db.k
    .selectFrom('monitors')
    .select('id')
    .where('company_id', '=', companies[0].id)
    .where('type', '=', 'http')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  await db.close();
  return { companies, superAdmin, admin, probeId, monitorId: sample.id, seconds };
}

async function signIn(page: Page, origin: string, user: { email: string; password: string }) {
  await page.goto(`${origin}/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !['/login', '/company-login'].includes(u.pathname) && !u.pathname.startsWith('/auth/'));
}

/** Navigation start -> the first monitor row in the DOM, read from the page's own clock. */
async function firstRows(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  const t = await page.waitForFunction(() => (document.querySelector('tr[data-loaded]') ? performance.now() : false), null, {
    polling: 'raf',
    timeout: 30_000,
  });
  return (await t.jsonValue()) as number;
}

/**
 * Types SEARCH a key at a time (250 ms apart, a brisk typist) and times each keystroke to the end
 * of the list's busy state it caused (the rows of the answer rendered).
 */
async function searchKeystrokes(page: Page, url: string): Promise<number[]> {
  await firstRows(page, url);
  await page.evaluate(() => {
    const w = window as unknown as { keys: number[]; updates: number[] };
    w.keys = [];
    w.updates = [];
    new MutationObserver((changes) => {
      for (const c of changes)
        if (c.oldValue === 'true' && (c.target as Element).getAttribute('aria-busy') === 'false') w.updates.push(performance.now());
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['aria-busy'], attributeOldValue: true });
    document.addEventListener(
      'keydown',
      (e) => (e.target as Element).matches('input[type=search]') && w.keys.push(performance.now()),
      true,
    );
  });
  const box = page.getByRole('searchbox', { name: 'Search' });
  for (const ch of SEARCH) {
    await box.press(ch);
    await page.waitForTimeout(250);
  }
  await page.waitForTimeout(500);
  const { keys, updates } = await page.evaluate(() => {
    const w = window as unknown as { keys: number[]; updates: number[] };
    return { keys: w.keys, updates: w.updates };
  });
  return keys.map((k, i) => {
    const next = keys[i + 1] ?? Infinity;
    const u = updates.find((t) => t > k && t < next);
    return u === undefined ? NaN : u - k;
  });
}

/** Navigation -> the first chart drawn; then 90 days chosen -> its chart drawn. */
async function monitorChart(page: Page, url: string): Promise<{ first: number; ninety: number }> {
  await page.goto(url, { waitUntil: 'commit' });
  const drawn = (label: string) =>
    page
      .waitForFunction(
        (l) => {
          const c = document.querySelector('[data-testid="response-chart"]');
          return c?.getAttribute('aria-label')?.includes(l) && c.querySelector('canvas') ? performance.now() : false;
        },
        label,
        { polling: 'raf', timeout: 30_000 },
      )
      .then((h) => h.jsonValue() as Promise<number>);
  const first = await drawn('over 24 hours');
  const clicked = await page.evaluate(() => {
    const b = [...document.querySelectorAll('button')].find((x) => x.textContent === '90 days')!;
    const t = performance.now();
    b.click();
    return t;
  });
  return { first, ninety: (await drawn('over 90 days')) - clicked };
}

/** The live stream is in this build when the contract documents an event stream. */
function liveStreamInBuild(): boolean {
  const dir = path.resolve(import.meta.dirname, '../../openapi');
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.yaml'));
  return files.some((f) => readFileSync(path.join(dir, f), 'utf8').includes('text/event-stream'));
}

/**
 * The engine's state change -> the open console shows it: the probe's target starts failing with
 * its row on screen; the figure is the time the row reads 'Down' less the monitor's status_since.
 */
async function measureLiveUpdate(page: Page, origin: string, probe: { setDown: (d: boolean) => void }, probeId: string) {
  await page.goto(`${origin}/monitors`);
  await page.getByRole('searchbox', { name: 'Search' }).fill('zz live probe');
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'zz live probe' }) });
  await row.getByText('Up', { exact: true }).waitFor({ timeout: 20_000 });
  probe.setDown(true);
  await row.getByText('Down', { exact: true }).waitFor({ timeout: 20_000 });
  const shownAt = Date.now();
  const since = await page.evaluate(async (id) => {
    const r = await fetch(`/api/v1/monitors/${id}`);
    return Date.parse(((await r.json()) as { status_since: string }).status_since);
  }, probeId);
  return shownAt - since;
}

/** The list call alone, from the signed-in page (Node's resolver knows no *.localhost). */
async function listCallTimes(page: Page): Promise<{ first: number; search: number }> {
  const time = async (query: string) => {
    const xs: number[] = [];
    for (let i = 0; i < 10; i++)
      xs.push(
        await page.evaluate(async (q) => {
          const t = performance.now();
          const r = await fetch(`/api/v1/monitors?limit=50&offset=0${q}`);
          if (r.status !== 200) throw new Error(`list answered ${r.status}`);
          await r.arrayBuffer();
          return performance.now() - t;
        }, query),
      );
    return median(xs);
  };
  return { first: await time(''), search: await time(`&q=${SEARCH}`) };
}

async function measureAs(browser: Browser, who: string, origin: string, user: { email: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, origin, user);
  const navs: number[] = [];
  for (let i = 0; i < RUNS; i++) navs.push(await firstRows(page, `${origin}/monitors`));
  const keys = await searchKeystrokes(page, `${origin}/monitors`);
  const api = await listCallTimes(page);
  await context.close();
  return { who, navs, keys, api };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sw-bench-console-'));
  const cluster = values.pg && !process.env.BENCH_DATABASE_URL ? await startPgCluster() : undefined;
  const url = process.env.BENCH_DATABASE_URL ?? (cluster ? await createDatabase(cluster.url, 'bench_console') : undefined);
  const probe = await probeTarget();
  const seeded = await seed(dataDir, url, probe.port);
  const distDir = process.env.DIST_DIR ?? path.resolve('dist');
  const server = await startServer({
    DATA_DIR: dataDir,
    DIST_DIR: distDir,
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    PUBLIC_SCHEME: 'http',
    ALLOW_PRIVATE_TARGETS: 'true',
    MIN_CHECK_INTERVAL_SECONDS: '1',
    ...(url ? { DATABASE_URL: url } : {}),
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const main = `http://localhost:${server.port}`;
    const tenant = `http://${seeded.companies[0].subdomain}.localhost:${server.port}`;
    const perCompany = Number(values['per-company']);
    const all = perCompany * seeded.companies.length;
    const results = [
      await measureAs(browser, `company admin, ${perCompany.toLocaleString('en')} monitors`, tenant, seeded.admin),
      await measureAs(browser, `super admin, ${all.toLocaleString('en')} monitors`, main, seeded.superAdmin),
    ];
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, tenant, seeded.admin);
    const charts: Array<{ first: number; ninety: number }> = [];
    for (let i = 0; i < RUNS; i++) charts.push(await monitorChart(page, `${tenant}/monitors/${seeded.monitorId}`));
    const live = liveStreamInBuild() ? await measureLiveUpdate(page, tenant, probe, seeded.probeId) : null;
    await context.close();

    console.log(
      `\nConsole, ${all.toLocaleString('en')} monitors in ${seeded.companies.length} companies (90 days of daily and 7 of hourly rollups), ${url ? 'PostgreSQL' : 'SQLite'}, ` +
        `seeded in ${seeded.seconds.toFixed(1)} s; Chromium at 1280x900, ${RUNS} runs, loopback, ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)}`,
    );
    for (const r of results) {
      const keys = r.keys.filter(Number.isFinite);
      line(`${r.who}: navigation -> first rows`, `median ${ms(median(r.navs))}, max ${ms(max(r.navs))}`, '<= 1000 ms');
      line(
        `${r.who}: search keystroke -> list updated`,
        keys.length
          ? `median ${ms(median(keys))}, max ${ms(max(keys))} (${keys.length} of ${r.keys.length} keys shown before the next)`
          : 'n/a',
        '<= 100 ms',
      );
      line(`${r.who}: GET /monitors (50 rows) server`, `median ${ms(r.api.first)}, search ${ms(r.api.search)}`, '(part of the above)');
    }
    line('monitor page: navigation -> first chart (24 h)', `median ${ms(median(charts.map((c) => c.first)))}`, '');
    line(
      'monitor page: 90 days chosen -> chart drawn',
      `median ${ms(median(charts.map((c) => c.ninety)))}, max ${ms(max(charts.map((c) => c.ninety)))}`,
      '<= 1000 ms',
    );
    line(
      'monitor page: navigation -> 90-day chart (sum of medians)',
      ms(median(charts.map((c) => c.first)) + median(charts.map((c) => c.ninety))),
      '<= 1000 ms',
    );
    line('engine state change -> open console shows it', live === null ? 'n/a (live stream not in this build)' : ms(live), '<= 2000 ms');
    const budget = execFileSync(process.execPath, ['scripts/console-budget.ts'], {
      env: { ...process.env, DIST_DIR: distDir },
      encoding: 'utf8',
    });
    console.log(`\nnpm run budget:console (target: initial JS <= 120 KB gzip)\n${budget.trim()}`);
  } finally {
    await browser.close();
    await server.stop();
    await probe.close();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true }); // about 800 MB on SQLite
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
