// axe on every screen, at 1366 px and 390 px: the public pages (landing, sign-in, signup, password
// reset, invitation, setup, errors; a company's status page, uptime, history, an incident, the
// subscription pages, a private page's sign-in) as an anonymous visitor, and every console route
// of src/islands/console/routes.ts as the role that may open it (super admin on the main host,
// company admin and viewer on the company's host). 0 serious or critical findings anywhere.
// One server and one seeded company for the whole spec; one browser context per viewport and
// role; every page visited is printed with its finding count.
import { request, type Browser, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { ROUTES } from '../../src/islands/console/routes.ts';
import { startServer } from './support/server.ts';
import {
  adminApi,
  E2E_ADMIN,
  expect,
  loopbackTarget,
  mails,
  mainUrl,
  seedCompany,
  seedUser,
  sendOtlpSpans,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  type SeededCompany,
  type SeededUser,
} from './console-fixtures.ts';

const shot = shotsIn('a11y-every-screen');
const VIEWPORTS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;

const target = loopbackTarget((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
});

interface Seeded {
  company: SeededCompany;
  privateCompany: SeededCompany;
  admin: SeededUser;
  /** an admin who turned the light version off */
  darkAdmin: SeededUser;
  viewer: SeededUser;
  monitorId: string;
  sslMonitorId: string;
  incidentId: string;
  traceId: string;
  confirmPath: string;
  unsubscribePath: string;
  scheduleId: string;
}
let seeded: Seeded;
const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
async function mailFor(address: string): Promise<string> {
  await expect.poll(() => mails.some((m) => m.to.includes(address)), { timeout: 10_000 }).toBe(true);
  return unQp(mails.find((m) => m.to.includes(address))!.raw);
}

// the two viewports run side by side, each worker with its own server and seeded company
test.describe.configure({ mode: 'parallel' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api, { plan: 'professional' });
  const privateCompany = await seedCompany(api, { plan: 'professional' });
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  const darkAdmin = await seedUser(api, 2, company.id);
  const post = async (path: string, data: Record<string, unknown>) => {
    const r = await api.post(path, { data });
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300);
    return (await r.json()) as { id: string };
  };
  const monitor = await post('/api/v1/monitors', {
    type: 'http',
    company_id: company.id,
    name: 'Checkout API',
    url: `http://127.0.0.1:${target.port()}/`,
    is_public: true,
    interval_seconds: 60,
  });
  await post('/api/v1/monitors', {
    type: 'http',
    company_id: company.id,
    name: 'Storefront',
    url: `http://127.0.0.1:${target.port()}/shop`,
    is_public: true,
    interval_seconds: 60,
  });
  const ssl = await post('/api/v1/monitors', {
    type: 'ssl',
    company_id: company.id,
    name: 'Website certificate',
    host: 'localhost',
    port: target.port(),
  });
  const incident = await post('/api/v1/incidents', {
    company_id: company.id,
    title: 'Checkout failures',
    severity: 'high',
    message: 'Payments fail for some customers.',
    monitor_ids: [monitor.id],
    is_public: true,
  });
  const soon = Date.now() + 86_400_000;
  await post('/api/v1/maintenance-windows', {
    company_id: company.id,
    title: 'Database failover test',
    starts_at: new Date(soon).toISOString(),
    ends_at: new Date(soon + 3_600_000).toISOString(),
  });
  const traceId = 'a'.repeat(31) + '1';
  const t0 = BigInt(Date.now()) * 1_000_000n;
  await sendOtlpSpans(api, company.id, 'checkout', [
    {
      traceId,
      spanId: 'b'.repeat(16),
      name: 'POST /pay',
      kind: 2,
      startTimeUnixNano: String(t0),
      endTimeUnixNano: String(t0 + 120_000_000n),
      status: { code: 2, message: 'card declined' },
    },
  ]);
  // the private company's page asks for a password
  const access = await api.put(`/api/v1/status-page/access?tenant=${privateCompany.id}`, {
    data: { mode: 'password', password: 'Harbour lights 42' },
  });
  expect(access.status(), await access.text()).toBe(200);
  // a subscriber's confirmation mail gives the confirm and unsubscribe pages
  const subscriber = `reader-${Date.now()}@example.com`;
  const sub = await api.post(`/api/v1/public/subscribers/${company.subdomain}`, { data: { email: subscriber } });
  expect(sub.status(), await sub.text()).toBeLessThan(300);
  const mail = await mailFor(subscriber);
  const confirmPath = new URL(mail.match(/https?:\/\/\S+\/subscribe\/confirm\/[\w-]+/)![0]).pathname;
  const unsubscribePath = new URL(mail.match(/https?:\/\/\S+\/unsubscribe\/[\w-]+/)![0]).pathname;
  await api.dispose();
  // an on-call schedule with an override, written by the company admin on the company's host
  // (company accounts work there only; Node does not resolve *.localhost, so the Host header says it)
  const host = `${company.subdomain}.${new URL(mainUrl()).host}`;
  const asAdmin = await request.newContext({ baseURL: mainUrl(), extraHTTPHeaders: { host, origin: `http://${host}` } });
  expect((await asAdmin.post('/api/v1/auth/login', { data: { email: admin.email, password: admin.password } })).status()).toBe(200);
  const schedule = await asAdmin.post('/api/v1/schedules', {
    data: {
      name: 'Primary',
      time_zone: 'Europe/Berlin',
      layers: [{ user_ids: [admin.id, viewer.id], rotation_start: '2026-01-05T09:00', handoff: 'weekly', restrictions: [] }],
    },
  });
  expect(schedule.status(), await schedule.text()).toBe(201);
  const scheduleId = ((await schedule.json()) as { id: string }).id;
  const override = await asAdmin.post(`/api/v1/schedules/${scheduleId}/overrides`, {
    data: {
      user_id: viewer.id,
      start: new Date(Date.now() + 3_600_000).toISOString(),
      end: new Date(Date.now() + 86_400_000).toISOString(),
    },
  });
  expect(override.status(), await override.text()).toBe(201);
  await asAdmin.dispose();
  seeded = {
    company,
    privateCompany,
    admin,
    darkAdmin,
    viewer,
    monitorId: monitor.id,
    sslMonitorId: ssl.id,
    incidentId: incident.id,
    traceId,
    confirmPath,
    unsubscribePath,
    scheduleId,
  };
});

/** Waits until the screen has its content: no spinner, no loading skeleton. */
async function settled(page: Page): Promise<void> {
  // every screen has its h1 (the console draws after the page's load event)
  await expect(page.locator('h1').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.locator('.sw-spinner, [aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  // axe judges what stays on screen: a fade still running blends the text into its background
  // (the landing's carousel slide read 1.54:1 mid-fade once). The contexts prefer reduced motion,
  // which stops the carousel advancing; an animation that runs anyway is let finish.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
}

const findings: string[] = [];
let visited = 0;

/** axe on what the page shows now: serious and critical findings are kept, every page is printed. */
async function check(page: Page, label: string): Promise<void> {
  // legacy mode: axe runs in the page itself (the default opens a blank page per run to merge
  // frame results; these pages have no frames)
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  visited++;
  console.log(
    `${label.padEnd(52)} ${new URL(page.url()).pathname.slice(0, 48).padEnd(48)} ${serious.length ? `${serious.length} serious` : 'ok'}`,
  );
  for (const v of serious)
    findings.push(
      `${label} ${page.url()}: ${v.id} (${v.impact}) ${v.help}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary}`).join(' | ')}`,
    );
}

async function visit(page: Page, label: string, url: string): Promise<void> {
  await page.goto(url);
  await settled(page);
  await check(page, label);
}

/** Fonts must come from the page's own origin (Montserrat is served by the product): any other is kept as a finding. */
function watchFonts(page: Page): void {
  page.on('request', (r) => {
    if (r.resourceType() !== 'font') return;
    const pageOrigin = new URL(r.frame().url()).origin;
    if (new URL(r.url()).origin !== pageOrigin) findings.push(`font from another origin on ${r.frame().url()}: ${r.url()}`);
  });
}

/** A screen's dialog, opened by its button: the form a user fills in is a screen too. */
async function dialog(page: Page, label: string, url: string, button: string): Promise<void> {
  await page.goto(url);
  await settled(page);
  await page.getByRole('button', { name: button, exact: true }).first().click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await settled(page);
  await check(page, `${label} (${button} dialog)`);
}

/** A route's path with its parameters filled from the seeded data. */
function pathOf(path: string): string {
  return path
    .replace(':traceId', seeded.traceId)
    .replace('/monitors/incidents/:id', `/monitors/incidents/${seeded.incidentId}`)
    .replace('/ssl-monitoring/:id', `/ssl-monitoring/${seeded.sslMonitorId}`)
    .replace('/monitors/:id', `/monitors/${seeded.monitorId}`)
    .replace('/on-call/:id', `/on-call/${seeded.scheduleId}`);
}

type RoleName = 'super_admin' | 'customer_admin' | 'customer_viewer';

/** The spec's /my-… paths show the same screens as the menu's /metrics, /traces and /monitors. */
const ALIASES = new Set(['myMetrics', 'myTraces', 'myMonitors']);

/**
 * The console routes of the table to visit as `role`: a company admin every route it may open; a
 * super admin the routes only super admins have plus the ones that differ for them (global
 * views); a viewer the read-only versions of the main screens. Public routes are the visitor's.
 */
function routesOf(role: RoleName): Array<[string, string]> {
  const SUPER_TOO = ['dashboard', 'metrics', 'traces', 'monitors', 'settings', 'team', 'reports'];
  const VIEWER = [
    'dashboard',
    'monitors',
    'monitor',
    'incident',
    'statusPageSettings',
    'settings',
    'team',
    'account',
    'onCall',
    'onCallSchedule',
  ];
  return Object.entries(ROUTES)
    .filter(([name, def]) => {
      const audience = def.audience;
      if (typeof audience === 'string' || !(audience as readonly string[]).includes(role) || ALIASES.has(name)) return false;
      if (role === 'super_admin') return audience.length === 1 || SUPER_TOO.includes(name);
      if (role === 'customer_viewer') return VIEWER.includes(name);
      return true;
    })
    .map(([name, def]) => [name, pathOf(def.path)]);
}

async function anonymous(browser: Browser, viewport: Viewport): Promise<void> {
  const w = viewport.width;
  const co = (p: string) => tenantUrl(seeded.company.subdomain, p);
  const ctx = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  watchFonts(page);
  // /setup exists only before the first user: a server of its own with an empty database
  const fresh = await startServer();
  await visit(page, `${w} visitor: first-run setup`, `${fresh.baseUrl}/setup`);
  await fresh.stop();
  for (const [label, path] of [
    ['landing', '/'],
    ['sign-in', '/login'],
    ['signup', '/signup'],
    ['forgot password', '/forgotpassword'],
    ['reset password (bad link)', '/reset-password?token=unknown'],
    ['invitation (bad link)', '/invite?token=unknown'],
    ['not found', '/notfound'],
    ['maintenance', '/maintenance'],
    ['notifications (to sign-in)', '/notifications'],
  ] as const)
    await visit(page, `${w} visitor: ${label}`, mainUrl(path));
  for (const [label, path] of [
    ['status page', '/'],
    ['uptime', '/uptime'],
    ['uptime, 12 months', '/uptime?months=12'],
    ['history', '/history'],
    ['incident page', `/incidents/${seeded.incidentId}`],
    ['subscribe', '/subscribe'],
    ['subscribe: confirm link', seeded.confirmPath],
    ['unsubscribe link', seeded.unsubscribePath],
    ['acknowledge link (bad)', '/ack/unknown-token'],
    ['company sign-in', '/company-login'],
  ] as const) {
    await visit(page, `${w} visitor: ${label}`, co(path));
    if (['/uptime', '/history', '/subscribe'].includes(path)) await shot(page, `${path.slice(1)}-${w}`);
  }
  await visit(page, `${w} visitor: unknown company`, tenantUrl('nosuchcompany', '/'));
  await visit(page, `${w} visitor: private page sign-in`, tenantUrl(seeded.privateCompany.subdomain, '/'));
  await ctx.close();
}

async function console_(
  browser: Browser,
  viewport: Viewport,
  who: string,
  routes: Array<[string, string]>,
  user: { email: string; password: string },
  origin: string,
  dialogs: Array<[string, string]>,
  dark = false,
): Promise<void> {
  const w = viewport.width;
  const ctx = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  watchFonts(page);
  await signInUi(page, origin, user);
  if (dark) {
    const saved = await page.evaluate(async () => {
      const r = await fetch('/api/v1/auth/ui-settings', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ light_version: false, theme: 'purple' }),
      });
      return r.status;
    });
    expect(saved).toBe(200);
  }
  const tag = `${w} ${who}${dark ? ' (dark)' : ''}`;
  for (const [name, path] of routes) {
    await visit(page, `${tag}: ${name}`, origin + path);
    if (dark && ['dashboard', 'monitor', 'incident'].includes(name)) await shot(page, `dark-${name}-${w}`);
  }
  await visit(page, `${tag}: notifications`, `${origin}/notifications`);
  await visit(page, `${tag}: unknown path`, `${origin}/no-such-page`);
  for (const [path, button] of dialogs) await dialog(page, `${tag}: ${path}`, origin + path, button);
  await ctx.close();
}

type Viewport = { width: number; height: number };
const DARK = [
  'dashboard',
  'monitors',
  'monitor',
  'incidents',
  'incident',
  'statusPageSettings',
  'reports',
  'settings',
  'account',
  'alertChannels',
];

for (const viewport of VIEWPORTS) {
  test(`axe finds nothing serious or critical on any screen at ${viewport.width} px`, async ({ browser }) => {
    // about 90 screens: 1-2 minutes on an idle 2-core machine, far more when it is shared
    test.setTimeout(600_000);
    findings.length = 0;
    visited = 0;
    const co = tenantUrl(seeded.company.subdomain, '');
    await anonymous(browser, viewport);
    await console_(browser, viewport, 'super admin', routesOf('super_admin'), E2E_ADMIN, mainUrl(''), [
      ['/admin/tenants', 'Create Tenant'],
      ['/admin/users', 'Create User'],
    ]);
    await console_(browser, viewport, 'company admin', routesOf('customer_admin'), seeded.admin, co, [
      ['/monitors', 'Add Monitor'],
      ['/monitors/incidents', 'Write incident'],
      ['/monitors/maintenance', 'Schedule maintenance'],
      ['/settings/alerts', 'New channel'],
      ['/security', 'Add asset'],
    ]);
    await console_(browser, viewport, 'viewer', routesOf('customer_viewer'), seeded.viewer, co, []);
    // the light version off: the main screens of a company admin who chose it, on a desktop
    if (viewport.width === 1366) {
      const main = routesOf('customer_admin').filter(([name]) => DARK.includes(name));
      await console_(browser, viewport, 'company admin', main, seeded.darkAdmin, co, [['/monitors', 'Add Monitor']], true);
    }
    console.log(`${visited} screens checked at ${viewport.width} px, ${findings.length} serious or critical findings`);
    expect(findings).toEqual([]);
  });
}
