// Console e2e helpers: seed companies and users through the real admin API (signed in as the
// run's super admin), sign in through the real login screen, and check accessibility with axe.
import { test as base, expect, request, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { E2E_ADMIN } from './support/global-setup.ts';
import { startServer } from './support/server.ts';
import { startSmtpSink, type Mail } from '../support/smtp-sink.ts';

export { E2E_ADMIN, expect };

// Each worker runs its own server (fresh data directory, the same super admin), so these tests
// never depend on, or disturb, the shared e2e server of other suites.
let port = 0;
export const mainUrl = (path = '/') => `http://localhost:${port}${path}`;
export const tenantUrl = (subdomain: string, path = '/') => `http://${subdomain}.localhost:${port}${path}`;
let dataDir = '';
/** The worker's server's data directory (a spec writes rows no call can, e.g. states of a writer not merged yet). */
export const serverDataDir = () => dataDir;

/** Mail the worker's server sent (a real SMTP sink on loopback). */
export const mails: Mail[] = [];

export const test = base.extend<object, { consoleServer: number; serverEnv: Record<string, string> }>({
  /** More environment for the worker's server: `test.use({ serverEnv: { FLAG_ENABLE_X: 'false' } })` (a worker of its own) */
  serverEnv: [{}, { scope: 'worker', option: true }],
  consoleServer: [
    async ({ serverEnv }, use) => {
      const smtp = await startSmtpSink(mails);
      const server = await startServer({
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        ALLOW_PRIVATE_TARGETS: 'true',
        MIN_CHECK_INTERVAL_SECONDS: '1',
        SMTP_URL: smtp.url,
        ...serverEnv,
      });
      port = server.port;
      dataDir = server.dataDir;
      await use(server.port);
      await server.stop();
      await smtp.close();
    },
    { scope: 'worker', auto: true },
  ],
});
export const PASSWORD = 'Console-e2e-password-1';

let seq = 0;
export function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${(++seq).toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
}

export async function adminApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: mainUrl() });
  const r = await api.post('/api/v1/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } });
  expect(r.status(), await r.text()).toBe(200);
  return api;
}

export interface SeededCompany {
  id: string;
  name: string;
  subdomain: string;
}

export async function seedCompany(api: APIRequestContext, over: Record<string, unknown> = {}): Promise<SeededCompany> {
  const subdomain = unique('co');
  const body = { name: `Company ${subdomain}`, email: `owner@${subdomain}.example.com`, subdomain, ...over };
  const r = await api.post('/api/v1/admin/companies', { data: body });
  expect(r.status(), await r.text()).toBe(201);
  const c = (await r.json()) as SeededCompany;
  return { id: c.id, name: c.name, subdomain: c.subdomain };
}

export interface SeededUser {
  id: string;
  email: string;
  password: string;
  name: string;
}

export async function seedUser(
  api: APIRequestContext,
  userType: 1 | 2 | 3,
  companyId: string | null,
  over: Record<string, unknown> = {},
): Promise<SeededUser> {
  const email = `${unique('u')}@example.com`;
  const name = `User ${email.split('@')[0]}`;
  const body: Record<string, unknown> = { name, email, password: PASSWORD, user_type: String(userType), ...over };
  if (userType !== 1) body.company_id = companyId;
  const r = await api.post('/api/v1/admin/users', { data: body });
  expect(r.status(), await r.text()).toBe(201);
  const u = (await r.json()) as { id: string };
  return { id: u.id, email, password: PASSWORD, name };
}

/** Signs in through the login screen at `origin` and waits until the browser has left the sign-in screens. */
export async function signInUi(page: Page, origin: string, user: { email: string; password: string }): Promise<void> {
  await page.goto(origin.replace(/\/+$/, '') + '/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !['/login', '/company-login'].includes(u.pathname) && !u.pathname.startsWith('/auth/'));
}

/**
 * axe on what the page shows now: nothing serious or critical. Legacy mode runs axe in the page and
 * its same-origin frames; the default opens a new page for every run to merge the frames' results,
 * which took 1.5-2.0 s a call against 0.75-0.8 s (the console's frames, the embed preview among
 * them, are all same-origin).
 */
export async function expectNoSeriousA11yViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `.tmp/console-shots/${name}.png`, fullPage: true });
}

/** A spec's own screenshot folder under test-results/ (the pages looked at, at 1280 and 375 px). */
export function shotsIn(folder: string, fullPage = true): (page: Page, name: string) => Promise<Buffer> {
  return (page, name) => page.screenshot({ path: `test-results/${folder}/${name}.png`, fullPage });
}

/**
 * A plain HTTP server on 127.0.0.1 for a spec's monitors to check: started before the spec's
 * tests, closed after them. `port()` is read once the tests run.
 */
export function loopbackTarget(handler: http.RequestListener): { port: () => number } {
  let server: http.Server;
  let port = 0;
  test.beforeAll(async () => {
    server = http.createServer(handler);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  test.afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { port: () => port };
}

/** Sends `spans` (OTLP/JSON) for `service` through a new ingest key of the company, as an app would. */
export async function sendOtlpSpans(api: APIRequestContext, companyId: string, service: string, spans: unknown[]): Promise<void> {
  const key = await api.post('/api/v1/api-keys', { data: { name: 'e2e', scope: 'ingest', company_id: companyId } });
  expect(key.status(), await key.text()).toBe(201);
  const secret = ((await key.json()) as { key: string }).key;
  const r = await api.post('/v1/traces', {
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    data: {
      resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] }, scopeSpans: [{ spans }] }],
    },
  });
  expect(r.status(), await r.text()).toBeLessThan(300);
}
