// The landing page on the main host: every text and link of section 1, the three plans exactly,
// the carousel's 3000 ms period and its pauses, the signed-in redirect, a11y (axe), screenshots.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Db } from '../../src/server/db/connect.ts';
import type { RunningServer } from './support/server.ts';
import { rawRequest } from '../support/test-app.ts';
import { startPublicServer, E2E_OWNER } from '../api/public/e2e-seed.ts';

let server: RunningServer;
let db: Db;
const home = () => `http://localhost:${server.port}/`;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  ({ server, db } = await startPublicServer());
});
test.afterAll(async () => {
  await db?.close();
  await server?.stop();
});

test('navbar, hero, the four claims, AI section and call to action', async ({ page }) => {
  await page.goto(home());
  await expect(page).toHaveTitle('StatusWatch · Website and infrastructure monitoring');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Features' })).toHaveAttribute('href', '#features');
  await expect(nav.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '#pricing');
  await expect(nav.getByRole('link', { name: 'AI', exact: true })).toHaveAttribute('href', '#ai');
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  await expect(nav.getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("Know it's down before your customers do");
  const stats = page.getByRole('region', { name: 'Highlights' }).locator('li');
  await expect(stats).toHaveText(['99.9%Uptime', '50+DNS Servers', '24/7Monitoring', '1000+Companies']);
  await expect(page.locator('#features')).toBeAttached();
  await expect(page.locator('#ai').getByRole('heading', { level: 2 })).toHaveText('AI that reads your incidents');
  // what is built (issue 33), and no longer "In development"
  await expect(page.locator('#ai').getByText('In development')).toHaveCount(0);
  await expect(page.locator('#ai .ai-points li')).toHaveText([
    'What changed: phases, locations, DNS, certificates, deploys',
    "Anomaly detection against each monitor's usual latency",
    'Summaries by a language model you configure',
    'MCP server for AI assistants',
  ]);
  await expect(page.locator('.cta').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/signup');

  await nav.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/#pricing$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Pricing' })).toBeInViewport();
});

test('shows the three plans exactly as specified, Professional marked Most Popular', async ({ page }) => {
  await page.goto(home());
  const plans = page.locator('#pricing .plan');
  await expect(plans).toHaveCount(3);
  const expected = [
    ['Starter', '$29', ['Up to 10 monitors', 'Basic DNS and SSL checks', 'Email notifications', '7-day retention', 'Community support']],
    [
      'Professional',
      '$79',
      [
        '50 monitors',
        'Advanced DNS and SSL monitoring',
        'Enhanced notifications',
        '30-day retention',
        'Priority support',
        'Custom alerts',
        'API access',
      ],
    ],
    [
      'Enterprise',
      '$199',
      [
        'Unlimited monitors',
        'Advanced security scanning',
        'Custom integrations',
        '90-day retention',
        '24/7 support',
        'White-label options',
        'Advanced analytics',
      ],
    ],
  ] as const;
  for (const [i, [name, price, features]] of expected.entries()) {
    const plan = plans.nth(i);
    await expect(plan.getByRole('heading', { level: 3 })).toHaveText(name);
    await expect(plan.locator('.price')).toHaveText(`${price}/month`);
    await expect(plan.locator('ul li')).toHaveText([...features]);
    await expect(plan.getByRole('link', { name: `Get started with ${name}` })).toHaveAttribute('href', '/signup');
  }
  await expect(page.getByText('Most Popular')).toHaveCount(1);
  await expect(plans.nth(1).getByText('Most Popular')).toBeVisible();
});

/** Times (ms, page clock) at which the carousel's active slide changes. */
async function recordSlideChanges(page: Page, forMs: number): Promise<number[]> {
  return page.evaluate(async (ms) => {
    const root = document.querySelector<HTMLElement>('[data-carousel]')!;
    const times: number[] = [];
    const obs = new MutationObserver(() => times.push(performance.now()));
    obs.observe(root, { attributes: true, attributeFilter: ['data-active'] });
    await new Promise((r) => setTimeout(r, ms));
    obs.disconnect();
    return times;
  }, forMs);
}

test('rotates the feature carousel every 3000 ms, pausing on hover, focus and Pause', async ({ page }) => {
  await page.goto(home());
  const carousel = page.locator('[data-carousel]');
  await expect(carousel).toHaveAttribute('data-interval', '3000');
  await expect(carousel).toHaveAttribute('data-state', 'playing');
  await expect(carousel.locator('[data-slide]:visible')).toHaveCount(1);
  await expect(carousel.locator('[data-slide]:visible h3')).toHaveText('Uptime monitoring');
  await page.mouse.move(0, 0);
  const times = await recordSlideChanges(page, 9800);
  expect(times.length).toBeGreaterThanOrEqual(3);
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  for (const gap of gaps) expect(Math.abs(gap - 3000)).toBeLessThan(200);
  await expect(carousel.locator('[data-slide]:visible')).toHaveCount(1);

  await carousel.hover();
  await expect(carousel).toHaveAttribute('data-state', 'paused');
  expect(await recordSlideChanges(page, 3500)).toEqual([]);
  await page.mouse.move(0, 0);
  await expect(carousel).toHaveAttribute('data-state', 'playing');

  await carousel.getByRole('button', { name: 'Next feature' }).focus();
  await expect(carousel).toHaveAttribute('data-state', 'paused');
  await carousel.getByRole('button', { name: 'Next feature' }).press('Enter');
  const before = await carousel.getAttribute('data-active');
  await carousel.getByRole('button', { name: 'Pause the feature carousel' }).click();
  await page.locator('h1').click(); // focus and pointer leave the carousel: it stays paused by the button
  await page.mouse.move(0, 0);
  await expect(carousel.getByRole('button', { name: 'Play the feature carousel' })).toHaveText('Play');
  expect(await recordSlideChanges(page, 3500)).toEqual([]);
  expect(await carousel.getAttribute('data-active')).toBe(before);
});

test('never moves by itself when the visitor prefers reduced motion', async ({ browser }) => {
  const context = await browser.newContext({ reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(home());
  const carousel = page.locator('[data-carousel]');
  await expect(carousel).toHaveAttribute('data-state', 'paused');
  expect(await recordSlideChanges(page, 3500)).toEqual([]);
  await carousel.getByRole('button', { name: 'Next feature' }).click();
  await expect(carousel.locator('[data-slide]:visible h3')).toHaveText('DNS monitoring');
  await context.close();
});

test('shows every feature without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(home());
  await expect(page.locator('[data-slide]:visible')).toHaveCount(6);
  await expect(page.getByRole('button', { name: 'Next feature' })).toBeHidden();
  await context.close();
});

test("a server-rendered page keeps both Astro's script hashes and the page policy in its CSP", async () => {
  const r = await rawRequest(new URL('/login', home()).href, 'GET', { host: `localhost:${server.port}` });
  expect(r.status).toBe(200);
  const csp = r.headers.get('content-security-policy')!;
  expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp.match(/frame-ancestors/g)).toHaveLength(1);
});

test('is prerendered and served compressed by the host, with a CSP', async () => {
  const r = await rawRequest(home(), 'GET', { host: `localhost:${server.port}`, 'accept-encoding': 'br' });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-encoding')).toBe('br');
  expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(r.bytes.length).toBeLessThan(12_000);
  expect(r.headers.get('cache-control')).toBe('no-cache');
  const again = await rawRequest(home(), 'GET', {
    host: `localhost:${server.port}`,
    'accept-encoding': 'br',
    'if-none-match': r.headers.get('etag')!,
  });
  expect(again.status).toBe(304);
  // the br copy's ETag is its own: it does not validate the uncompressed page
  const plain = await rawRequest(home(), 'GET', { host: `localhost:${server.port}`, 'if-none-match': r.headers.get('etag')! });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('etag')).not.toBe(r.headers.get('etag'));
});

test('sends a signed-in user to /dashboard', async ({ page }) => {
  const login = await page.request.post(`http://localhost:${server.port}/api/v1/auth/login`, {
    data: { email: E2E_OWNER.email, password: E2E_OWNER.password },
    headers: { origin: `http://localhost:${server.port}` },
  });
  expect(login.status()).toBe(200);
  await page.goto(home());
  await expect(page).toHaveURL(`http://localhost:${server.port}/dashboard`);
});

test('has no serious accessibility violations; screenshots at 1280 and 375 px', async ({ browser }) => {
  for (const [width, scheme] of [
    [1280, 'light'],
    [375, 'light'],
    [375, 'dark'],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(home());
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({ path: `.tmp/screens/landing-${width}-${scheme}.png`, fullPage: true });
    await context.close();
  }
});
