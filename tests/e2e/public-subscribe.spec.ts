// Subscribing from a company's status page in Chromium: the form (no JavaScript needed), the
// confirmation mail caught by a real SMTP sink, its link's page (opening it changes nothing;
// the button confirms), the unsubscribe link's page, screenshots at 1280 and 375 px, and axe.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import type { Db } from '../../src/server/db/connect.ts';
import type { Services } from '../../src/server/domain/context.ts';
import { openDb } from '../../src/server/db/connect.ts';
import path from 'node:path';
import { startServer, type RunningServer } from './support/server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { E2E_OWNER, seedBrandedCompany } from '../api/public/e2e-seed.ts';
import { seedMonitor } from '../api/public/fixtures.ts';

let server: RunningServer;
let smtp: SmtpSink;
let db: Db;
const now = Date.now();
const url = (p = '/') => `http://acme.localhost:${server.port}${p}`;
const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  smtp = await startSmtpSink();
  server = await startServer({ ADMIN_EMAIL: E2E_OWNER.email, ADMIN_PASSWORD: E2E_OWNER.password, RUN_ENGINE: 'false', SMTP_URL: smtp.url });
  db = openDb({ kind: 'sqlite', file: path.join(server.dataDir, 'statuswatch.sqlite') });
  const services = { db, now: Date.now } as unknown as Services;
  const acme = await seedBrandedCompany(services, { name: 'Acme', subdomain: 'acme', primary: '#aa3300' });
  await seedMonitor(db, acme.id, now, { name: 'API' });
  await seedMonitor(db, acme.id, now, { name: 'Website' });
});
test.afterAll(async () => {
  await db?.close();
  await server?.stop();
  await smtp?.close();
});

async function axeClean(page: Page) {
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function mailFor(address: string) {
  await expect.poll(() => smtp.mails.filter((m) => m.to.includes(address)).length, { timeout: 10_000 }).toBeGreaterThan(0);
  return unQp(smtp.mails.filter((m) => m.to.includes(address)).at(-1)!.raw);
}

test('subscribe through the status page form, confirm from the mailed link, and unsubscribe', async ({ page }) => {
  await page.goto(url('/'));
  const form = page.getByRole('region', { name: 'Get notified of incidents and maintenance' });
  await expect(form).toBeVisible();
  await axeClean(page);
  await form.getByRole('link', { name: 'Only some components?' }).click();
  await expect(page).toHaveURL(url('/subscribe'));
  await axeClean(page);
  await page.getByLabel('E-mail address').fill('visitor@example.com');
  await page.getByRole('group', { name: 'Notify me about (none ticked: all)' }).getByLabel('Website').check();
  await page.getByRole('button', { name: 'Subscribe' }).click();
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page).toHaveURL(url('/subscribe'));
  await axeClean(page);

  const mail = await mailFor('visitor@example.com');
  expect(mail).toMatch(/^Subject: \[Acme\] Confirm your status updates subscription/m);
  const confirmLink = mail.match(/http:\/\/acme\.localhost:\d+\/subscribe\/confirm\/[A-Za-z0-9_-]{43}/)![0];
  const unsubscribeLink = mail.match(/^List-Unsubscribe:\s+<([^>]+)>/m)![1];

  // Opening the link (as a mail scanner would) confirms nothing; the button does.
  await page.goto(confirmLink);
  await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
  await expect(page.getByText('for 1 chosen component will go to visitor@example.com')).toBeVisible();
  await axeClean(page);
  await page.reload();
  await page.getByRole('button', { name: 'Confirm subscription' }).click();
  await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
  await expect(page).toHaveURL(url('/subscribe/confirmed'));
  await axeClean(page);

  // The link works once.
  await page.goto(confirmLink);
  await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();

  await page.goto(unsubscribeLink);
  await expect(page.getByRole('heading', { name: 'Unsubscribe from status notices?' })).toBeVisible();
  await axeClean(page);
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
});

test('the form works without JavaScript; screenshots at 1280 and 375 px', async ({ browser }) => {
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(url('/'));
    await page
      .getByRole('region', { name: 'Get notified of incidents and maintenance' })
      .screenshot({ path: `.tmp/screens/subscribe-form-${width}.png` });
    await page.goto(url('/subscribe'));
    await page.screenshot({ path: `.tmp/screens/subscribe-page-${width}.png`, fullPage: true });
    await page.goto(url('/'));
    await page.getByLabel('E-mail address').fill(`nojs-${width}@example.com`);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    const mail = await mailFor(`nojs-${width}@example.com`);
    await page.goto(mail.match(/http:\/\/acme\.localhost:\d+\/subscribe\/confirm\/[A-Za-z0-9_-]{43}/)![0]);
    await page.screenshot({ path: `.tmp/screens/subscribe-confirm-${width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page.getByRole('heading', { name: 'You are subscribed' })).toBeVisible();
    await page.screenshot({ path: `.tmp/screens/subscribe-confirmed-${width}.png`, fullPage: true });
    await context.close();
  }
});

test('with ENABLE_NOTIFICATIONS off the form is gone and /subscribe answers 404', async ({ page }) => {
  const setFlag = (on: boolean) =>
    db.k
      .insertInto('feature_flags')
      .values({ name: 'ENABLE_NOTIFICATIONS', enabled: on, updated_at: Date.now(), updated_by: null })
      .onConflict((oc) => oc.column('name').doUpdateSet({ enabled: on, updated_at: Date.now() }))
      .execute();
  await setFlag(false);
  try {
    // The page's snapshot notices the change within a second (its fingerprint covers the flags).
    await expect
      .poll(async () => {
        await page.goto(url('/'));
        return page.getByRole('region', { name: 'Get notified of incidents and maintenance' }).count();
      })
      .toBe(0);
    const r = await page.goto(url('/subscribe'));
    expect(r?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Subscriptions are not available' })).toBeVisible();
  } finally {
    await setFlag(true);
  }
});
