// Browser journeys in the real Chromium against the loopback shop (tests/support/kind-servers/
// shop.ts): a journey passes with Web Vitals and secrets kept out of the result; a broken step
// fails at that step with its screenshot; a redirect or a subresource to a refused address fails
// naming it; a page that never stops loading is cut at the time-out; two runs queue behind
// BROWSER_CONCURRENCY=1. Then, on SQLite and PostgreSQL: the screenshot kept by the engine and
// served by the API as image/png, the plan quota, locations without a browser refused, and the prune by age and
// budget. One browser serves the whole file (launch.ts keeps it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecker } from '../../../../src/server/engine/checkers/run.ts';
import { DEFAULT_LIMITS, type CheckOutcome } from '../../../../src/server/engine/checkers/types.ts';
import { closeSharedBrowser } from '../../../../src/server/engine/checkers/browser/launch.ts';
import { queueJournal } from '../../../../src/server/engine/checkers/browser/queue.ts';
import { configureBrowser, DEFAULT_BROWSER_SETTINGS } from '../../../../src/server/engine/checkers/browser/settings.ts';
import type { BrowserStep } from '../../../../src/server/engine/checkers/browser/steps.ts';
import { KINDS } from '../../../../src/server/engine/kinds/index.ts';
import type { StepResult } from '../../../../src/server/engine/kinds/synthetic-run.ts';
import type { PrivateTargets } from '../../../../src/server/net/ssrf.ts';
import { SHOP_EMAIL, SHOP_PASSWORD, startShop, type Shop } from '../../../support/kind-servers/shop.ts';
import { fixedResolver } from './support.ts';
import { platformRegistry } from '../../../../src/server/metrics/platform.ts';
import { createEngine } from '../../../../src/server/engine/scheduler.ts';
import { checkScreenshotsRepo } from '../../../../src/server/db/repositories/check-screenshots-repo.ts';
import { pruneScreenshots } from '../../../../src/server/domain/monitors/screenshots.ts';
import { seedCompany, seedUser, signIn } from '../../../support/fixtures.ts';
import { DB_KINDS } from '../../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../../support/test-app.ts';

/** The shop by name (a resolver override); 127.0.0.1 alone is open, so 127.0.0.2 is a refused address. */
const OPEN: PrivateTargets = ['127.0.0.1/32'];

async function runJourney(
  steps: BrowserStep[],
  opts: {
    id?: string;
    timeoutMs?: number;
    allowPrivate?: PrivateTargets;
    secrets?: Record<string, string>;
    onStep?: (step: StepResult) => void;
  } = {},
): Promise<CheckOutcome> {
  const allowPrivate = opts.allowPrivate ?? OPEN;
  const kind = KINDS.browser;
  const { config, problems } = kind.validate((k) => ({ steps })[k as 'steps'] as never, { allowPrivate });
  expect(problems).toEqual({});
  return runChecker(
    kind.check,
    {
      id: opts.id ?? 'journey',
      type: 'browser',
      config,
      timeoutMs: opts.timeoutMs ?? 20_000,
      lastPushAt: null,
      intervalMs: 300_000,
      createdAt: 0,
    },
    {
      now: () => Date.now(),
      allowPrivateTargets: allowPrivate,
      resolve: fixedResolver({ 'shop.test': '127.0.0.1' }),
      limits: DEFAULT_LIMITS,
      secrets: async (names) => Object.fromEntries(Object.entries(opts.secrets ?? {}).filter(([n]) => names.includes(n))),
      ...(opts.onStep ? { onStep: opts.onStep } : {}),
    },
    new AbortController(),
    (e) => {
      throw e;
    },
  );
}

const signInAndBuy = (base: string): BrowserStep[] => [
  { action: 'goto', name: 'Open sign-in', url: `${base}/login` },
  { action: 'fill', selector: '#email', value: SHOP_EMAIL },
  { action: 'fill', selector: '#password', value: '{{secrets.SHOP_PASSWORD}}' },
  { action: 'click', name: 'Sign in', selector: 'button[type=submit]' },
  { action: 'assert_text', selector: '#user', value: SHOP_EMAIL },
  { action: 'click', name: 'Add a mug', selector: 'role=button[name="Add Mug to cart"]' },
  { action: 'assert_text', name: 'Cart total', selector: '#total', value: '12' },
  { action: 'click', selector: '#checkout' },
  { action: 'click', name: 'Pay', selector: '#pay' },
  { action: 'wait_for_text', value: 'Thank you for your order' },
  { action: 'assert_title', value: 'Order confirmed' },
];

describe('browser monitor validation', () => {
  const problemsOf = (steps: unknown) =>
    KINDS.browser.validate((k) => ({ steps })[k as 'steps'] as never, { allowPrivate: false }).problems;

  it.each([
    [[], 'A browser journey needs at least one step (the first goes to a URL)'],
    [[{ action: 'click', selector: '#a' }], 'Step 1 must be goto: a journey starts by opening a page'],
    [[{ action: 'goto', url: 'file:///etc/passwd' }], 'Step 1: the URL must start with http:// or https://'],
    [
      [{ action: 'goto', url: 'https://{{secrets.HOST}}/' }],
      "Step 1: the URL's host must be written out (templates only in its path or query)",
    ],
    [
      [
        { action: 'goto', url: 'https://a.example/' },
        { action: 'fill', selector: '#email' },
      ],
      'Step 2 (fill) needs a value',
    ],
    [
      [
        { action: 'goto', url: 'https://a.example/' },
        { action: 'click', selector: 'x'.repeat(501) },
      ],
      'Step 2: the selector must be plain text of at most 500 characters',
    ],
    [
      [
        { action: 'goto', url: 'https://a.example/' },
        { action: 'press', value: 'Enter; rm' },
      ],
      'Step 2: "Enter; rm" is not a key name (Enter, Tab, ArrowDown, Control+A)',
    ],
    [
      [
        { action: 'goto', url: 'https://a.example/' },
        { action: 'fill', selector: '#q', value: '{{token}}' },
      ],
      'Step 2: {{token}} is not known; browser steps take only {{secrets.NAME}}',
    ],
    [
      [
        { action: 'goto', url: 'https://a.example/' },
        { action: 'assert_count', selector: 'li', count: -1 },
      ],
      'Step 2: the count must be a whole number from 0 to 10000',
    ],
    [
      [
        { action: 'goto', url: 'https://a.example/' },
        { action: 'run_script', value: 'alert(1)' },
      ],
      expect.stringMatching(/^Step 2: action must be one of goto, click, /),
    ],
  ])('refuses %j with one sentence naming the step', (steps, text) => {
    expect(problemsOf(steps)).toEqual({ steps: text });
  });

  it('fails the check saying Chromium is missing when CHROMIUM_PATH names no browser', async () => {
    configureBrowser({ ...DEFAULT_BROWSER_SETTINGS, executablePath: '/nonexistent/chromium' });
    try {
      const o = await runJourney([{ action: 'goto', url: 'http://shop.test/' }]);
      expect(o.status).toBe('down');
      expect(o.error).toBe('Browser checks need Chromium, which is not installed at /nonexistent/chromium (set CHROMIUM_PATH)');
    } finally {
      configureBrowser(DEFAULT_BROWSER_SETTINGS);
    }
  });

  it('accepts a journey of 30 steps and refuses 31', () => {
    const steps = [{ action: 'goto', url: 'https://a.example/?q={{secrets.Q}}' }, ...Array(29).fill({ action: 'screenshot' })];
    expect(problemsOf(steps)).toEqual({});
    expect(problemsOf([...steps, { action: 'screenshot' }])).toEqual({ steps: 'A browser journey has at most 30 steps' });
  });
});

describe('browser journeys against the shop', () => {
  let shop: Shop;
  let base: string;
  let refusedBase: string;

  beforeAll(async () => {
    configureBrowser({ ...DEFAULT_BROWSER_SETTINGS, concurrency: 1 });
    shop = await startShop();
    base = `http://shop.test:${shop.port}`;
    refusedBase = `http://127.0.0.2:${shop.port}`;
  });
  afterAll(async () => {
    await shop?.close();
  });

  it('walks sign-in, cart and payment: every step passes with its time, Web Vitals are reported, the secret never shows', async () => {
    shop.set({ broken: null, subresource: null, redirectTo: null });
    const o = await runJourney(signInAndBuy(base), { secrets: { SHOP_PASSWORD } });
    expect(o.error).toBeNull();
    expect(o.status).toBe('operational');
    const run = o.detail!.run!;
    expect(run.steps.map((s) => s.status)).toEqual(Array(11).fill('passed'));
    expect(run.steps[0].name).toBe('Open sign-in');
    expect(run.steps[1].name).toBe('Fill #email');
    for (let i = 1; i <= 11; i++) expect(o.timings![`step_${i}`]).toBeGreaterThanOrEqual(0);
    expect(o.timings!.total).toBeGreaterThan(0);
    expect(run.web_vitals!.lcp_ms).toBeGreaterThan(0);
    expect(run.web_vitals!.cls).toBeGreaterThanOrEqual(0);
    expect(run.web_vitals!.tbt_ms).toBeGreaterThanOrEqual(0);
    expect(run.console_errors).toEqual([]);
    expect(shop.orders()).toBe(1);
    // The password reached the shop, and appears nowhere in what the run answers.
    expect(shop.requests.some((r) => r.method === 'POST' && r.path === '/login' && r.body.includes('correct-horse'))).toBe(true);
    expect(JSON.stringify(o)).not.toContain(SHOP_PASSWORD);
  });

  it('fails at the broken step, names what it looked for, and takes its screenshot (a PNG data URL for Test now)', async () => {
    shop.set({ broken: 'pay_button' });
    // Run now is told each step as it ends (streamed to the console), the failing one with its screenshot
    const told: StepResult[] = [];
    const o = await runJourney(signInAndBuy(base), { secrets: { SHOP_PASSWORD }, timeoutMs: 15_000, onStep: (s) => told.push(s) });
    expect(told.map((s) => `${s.index} ${s.status}`)).toEqual([...Array.from({ length: 8 }, (_, i) => `${i + 1} passed`), '9 failed']);
    expect(told[8].screenshot).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(told.slice(0, 8).every((s) => s.screenshot === null)).toBe(true);
    expect(JSON.stringify(told)).not.toContain(SHOP_PASSWORD);
    expect(o.status).toBe('down');
    const run = o.detail!.run!;
    const failedAt = run.steps.findIndex((s) => s.status === 'failed');
    expect(failedAt + 1).toBe(9);
    expect(run.steps[8].error).toBe('no visible element matches #pay');
    expect(o.error).toBe('Step 9 (Pay): no visible element matches #pay');
    expect(run.steps.slice(9).map((s) => s.status)).toEqual(['skipped', 'skipped']);
    expect(run.steps[8].screenshot).toMatch(/^data:image\/png;base64,iVBORw0KGgo/);
    expect(o.detail!.screenshots!.map((s) => s.index)).toEqual([9]);
    shop.set({ broken: null });
  });

  it('fails naming the refused address when a page redirects to it', async () => {
    shop.set({ redirectTo: `${refusedBase}/` });
    const o = await runJourney([{ action: 'goto', url: `${base}/go` }]);
    expect(o.status).toBe('down');
    expect(o.error).toBe(`Step 1 (Go to ${base}/go): ${refusedBase}/ was refused by the address guard: 127.0.0.2`);
    expect(o.detail!.run!.failed_requests).toContainEqual({ url: `${refusedBase}/`, error: 'refused by the address guard: 127.0.0.2' });
    shop.set({ redirectTo: null });
  });

  it('fails naming the refused address when a page loads a subresource from it', async () => {
    shop.set({ subresource: `${refusedBase}/pixel.png` });
    const o = await runJourney([{ action: 'goto', url: `${base}/` }]);
    expect(o.status).toBe('down');
    expect(o.error).toBe(`Step 1 (Go to ${base}/): ${refusedBase}/pixel.png was refused by the address guard: 127.0.0.2`);
    shop.set({ subresource: null });
  });

  it('refuses the shop itself on loopback when private targets are not allowed', async () => {
    const o = await runJourney([{ action: 'goto', url: `http://127.0.0.1:${shop.port}/` }], { allowPrivate: false });
    expect(o.error).toBe(
      `Step 1 (Go to http://127.0.0.1:${shop.port}/): http://127.0.0.1:${shop.port}/ was refused by the address guard: 127.0.0.1`,
    );
    expect(shop.requests.length).toBeGreaterThan(0);
  });

  it('cuts a page that never stops loading at the time-out, naming the step', async () => {
    shop.set({ broken: 'hang' });
    try {
      const o = await runJourney(
        [
          { action: 'goto', url: `${base}/` },
          { action: 'assert_title', value: 'Shop' },
        ],
        { timeoutMs: 4_000 },
      );
      expect(o.status).toBe('down');
      expect(o.error).toMatch(/^Step 1 \(Go to .*\): timed out at step 1 \(the run's limit is 3\.5 s\)$/);
      expect(o.detail!.run!.steps[1].status).toBe('skipped');
    } finally {
      // the shop is shared: a failure here must not break the next tests' pages
      shop.set({ broken: null });
    }
  });

  it('runs one journey at a time with BROWSER_CONCURRENCY=1: the second waits for the first to finish', async () => {
    const before = queueJournal().length;
    const steps: BrowserStep[] = [
      { action: 'goto', url: `${base}/` },
      { action: 'assert_count', selector: '.product', count: 3 },
    ];
    const [a, b] = await Promise.all([runJourney(steps, { id: 'first' }), runJourney(steps, { id: 'second' })]);
    expect([a.status, b.status]).toEqual(['operational', 'operational']);
    const events = queueJournal()
      .slice(before)
      .map((e) => `${e.id} ${e.event}`);
    expect(events).toEqual(['first queued', 'first started', 'second queued', 'first finished', 'second started', 'second finished']);
    // The operator's scrape shows the waits and an empty queue.
    const scrape = await platformRegistry.metrics();
    expect(Number(/^statuswatch_browser_queue_wait_seconds_count (\d+)$/m.exec(scrape)?.[1])).toBeGreaterThanOrEqual(2);
    expect(scrape).toMatch(/^statuswatch_browser_queue_depth 0$/m);
  });
});

describe.each(DB_KINDS)('browser monitors on %s', (kind) => {
  let t: TestApp;
  let shop: Shop;
  let acme: { id: string; subdomain: string };
  let admin: ApiClient;
  let otherAdmin: ApiClient;
  let firstId: string;
  const journey = (over: Record<string, unknown> = {}) => ({
    name: 'Shop journey',
    type: 'browser',
    interval_seconds: 300,
    timeout_seconds: 15,
    confirmations: 1,
    steps: [
      { action: 'goto', url: shop.url('/') },
      { action: 'goto', name: 'Open offers', url: shop.url('/offers') },
    ],
    ...over,
  });
  const shotCount = async () =>
    Number(
      (
        await t.services.db.k
          .selectFrom('check_screenshots')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    shop = await startShop();
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', BROWSER_CONCURRENCY: '1' } });
    t.services.monitoring = { engine: createEngine(t.services), immediateChecks: { windowMs: 0, perCompany: Infinity } };
    acme = await seedCompany(t.services, { plan: 'starter' });
    const globex = await seedCompany(t.services, { plan: 'professional' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    otherAdmin = new ApiClient(t.baseUrl, `${globex.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(otherAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }));
  });
  afterAll(async () => {
    await t?.close();
    await shop?.close();
  });

  it("keeps the failing step's screenshot and serves it to the company as image/png (another company gets 404)", async () => {
    const created = await admin.post('/api/v1/monitors', journey());
    expect(created.status).toBe(201);
    expect(created.body.locations).toBeNull(); // the company's default set (here: the built-in engine)
    firstId = created.body.id;
    await t.services.monitoring!.engine!.runDueNow();
    const m = await admin.get(`/api/v1/monitors/${created.body.id}`);
    expect(m.body.status).toBe('down');
    expect(m.body.last_error).toBe('Step 2 (Open offers): the page answered HTTP 404');
    const failed = m.body.last_run.steps[1];
    expect(failed).toMatchObject({ index: 2, status: 'failed', error: 'the page answered HTTP 404' });
    expect(failed.screenshot).toBeUndefined();
    const path = `/api/v1/monitors/${created.body.id}/screenshots/${failed.screenshot_id}`;
    const png = await admin.get(path);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.headers.get('cache-control')).toBe('private, max-age=86400, immutable');
    expect(png.bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect((await otherAdmin.get(path)).status).toBe(404);
    await admin.post(`/api/v1/monitors/${created.body.id}/pause`, {});
  });

  it('Test now answers the screenshot as a data URL and stores nothing', async () => {
    const before = await shotCount();
    const r = await admin.post('/api/v1/monitors/test', journey());
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('down');
    expect(r.body.run.steps[1].screenshot).toMatch(/^data:image\/png;base64,/);
    expect(r.body.run.steps[1].screenshot_id).toBeNull();
    expect(await shotCount()).toBe(before);
  });

  it('holds the plan quota of active browser monitors on create and on resume, and runs them only where a browser is', async () => {
    // Starter: one active browser monitor. The first test's is paused, so one more fits.
    const second = await admin.post('/api/v1/monitors', journey({ name: 'Second' }));
    expect(second.status).toBe(201);
    const third = await admin.post('/api/v1/monitors', journey({ name: 'Third' }));
    expect(third.status).toBe(422);
    expect(third.body.detail).toBe('Your Starter plan allows 1 active browser monitor. Pause one or upgrade your plan to add more.');
    const resumed = await admin.post(`/api/v1/monitors/${firstId}/resume`, {});
    expect(resumed.status).toBe(422);
    expect(resumed.body.detail).toMatch(/^Your Starter plan allows 1 active browser monitor/);
    // A location runs journeys once one of its probes has Chromium (tests/api/probes/probe-browser.test.ts); this one has none.
    expect((await admin.post('/api/v1/probe-locations', { name: 'Rack', slug: 'rack', private: true })).status).toBe(201);
    const remote = await admin.post('/api/v1/monitors', journey({ name: 'Remote', locations: ['local', 'rack'] }));
    expect(remote.status).toBe(400);
    expect(remote.body.errors.locations).toBe(
      'Location "rack" has no probe that runs browser checks: start its probe on a machine with Chromium (CHROMIUM_PATH), or choose another location',
    );
  });

  it("prunes screenshots past their days, then each company's oldest past its budget", async () => {
    const now = Date.now();
    const repo = checkScreenshotsRepo(t.services.db);
    const monitorId = firstId;
    await t.services.db.k.deleteFrom('check_screenshots').execute();
    const png = Buffer.alloc(100, 1);
    const shot = (id: string, ageDays: number) => ({
      id,
      company_id: acme.id,
      monitor_id: monitorId,
      checked_at: now - ageDays * 86_400_000,
      step_index: 1,
      png,
    });
    await repo.insert([shot('old', 8), shot('a', 3), shot('b', 2), shot('c', 1), shot('d', 0)]);
    const pruned = await pruneScreenshots(t.services, now, 7, () => 250);
    expect(pruned).toEqual({ byAge: 1, byBudget: 2 });
    const left = await t.services.db.k.selectFrom('check_screenshots').select('id').orderBy('id').execute();
    expect(left.map((r) => r.id)).toEqual(['c', 'd']);
  });
});

afterAll(async () => {
  await closeSharedBrowser();
});
