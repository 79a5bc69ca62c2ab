// The /subscribe page's other ways in Chromium: a Slack channel's webhook (the confirmation
// lands in a loopback Slack fake that checks the request) and SMS through a loopback Twilio
// fake (the code step on its own page), screenshots at 1280 and 375 px, axe on every page at
// 1280 px and JavaScript off at 375 px.
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import path from 'node:path';
import type { Db } from '../../src/server/db/connect.ts';
import type { Services } from '../../src/server/domain/context.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { startServer, type RunningServer } from './support/server.ts';
import { E2E_OWNER, seedBrandedCompany } from '../api/public/e2e-seed.ts';
import { seedMonitor } from '../api/public/fixtures.ts';
import { type ChatFake, startSlackFake, startTwilioFake } from '../fixtures/subscribers/chat-fakes.ts';

const TWILIO = { sid: `AC${'b2'.repeat(16)}`, token: 'c3'.repeat(16), from: '+15005550006' };
let server: RunningServer;
let db: Db;
let slack: ChatFake;
let twilio: ChatFake;
const url = (p = '/') => `http://acme.localhost:${server.port}${p}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  slack = await startSlackFake();
  twilio = await startTwilioFake(TWILIO);
  server = await startServer({
    ADMIN_EMAIL: E2E_OWNER.email,
    ADMIN_PASSWORD: E2E_OWNER.password,
    RUN_ENGINE: 'false',
    ALLOW_PRIVATE_TARGETS: 'true',
    SUBSCRIBER_SLACK_HOSTS: slack.origin,
    TWILIO_ACCOUNT_SID: TWILIO.sid,
    TWILIO_AUTH_TOKEN: TWILIO.token,
    TWILIO_FROM: TWILIO.from,
    TWILIO_API_URL: twilio.origin,
  });
  db = openDb({ kind: 'sqlite', file: path.join(server.dataDir, 'statuswatch.sqlite') });
  const services = { db, now: Date.now } as unknown as Services;
  const acme = await seedBrandedCompany(services, { name: 'Acme', subdomain: 'acme', primary: '#aa3300' });
  await db.k.updateTable('companies').set({ plan: 'professional' }).where('id', '=', acme.id).execute();
  await seedMonitor(db, acme.id, Date.now(), { name: 'API' });
  await seedMonitor(db, acme.id, Date.now(), { name: 'Website' });
});
test.afterAll(async () => {
  await db?.close();
  await server?.stop();
  await slack?.close();
  await twilio?.close();
});

async function axeCheck(page: Page) {
  const results = await new AxeBuilder({ page }).setLegacyMode().analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

// At 1280 px with axe (which runs as a script in the page); at 375 px with JavaScript off.
for (const width of [1280, 375]) {
  test(`a Slack channel and a phone subscribe from /subscribe at ${width} px`, async ({ browser }) => {
    const js = width === 1280;
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: js });
    const page = await context.newPage();
    const axeClean = (p: Page) => (js ? axeCheck(p) : Promise.resolve());
    await page.goto(url('/subscribe'));
    const other = page.getByRole('region', { name: 'Other ways to get updates' });
    await expect(other).toBeVisible();
    await other.screenshot({ path: `.tmp/screens/subscribe-other-${width}.png` });
    await axeClean(page);

    const hook = `${slack.origin}/services/T0001/B0001/w${width}`;
    await other.getByRole('radio', { name: 'Slack' }).check();
    await other.getByLabel('Webhook URL', { exact: true }).fill(hook);
    await other
      .getByRole('group', { name: /^Components/ })
      .first()
      .getByLabel('API')
      .check();
    await other.getByRole('button', { name: 'Connect channel' }).click();
    await expect(page.getByText('We posted a confirmation message to that channel.')).toBeVisible();
    await page.screenshot({ path: `.tmp/screens/subscribe-chat-sent-${width}.png`, fullPage: true });
    await axeClean(page);
    const posted = slack.accepted.filter((r) => r.path === new URL(hook).pathname);
    expect(posted).toHaveLength(1);
    expect(posted[0].json.text).toBe('Confirm Acme status updates');

    const phone = width === 1280 ? '+447911123456' : '+447911123457';
    await page.goto(url('/subscribe'));
    await page.getByLabel(/Mobile number/).fill(phone);
    await page.getByRole('button', { name: 'Text me a code' }).click();
    await expect(page.getByRole('heading', { name: 'Enter your code' })).toBeVisible();
    await page.screenshot({ path: `.tmp/screens/subscribe-sms-code-${width}.png`, fullPage: true });
    await axeClean(page);
    const text = twilio.accepted.filter((r) => r.json.To === phone).at(-1)!;
    const code = text.json.Body.match(/^(\d{6}) is your code/)[1];
    await page.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('That did not work: This code is not right.')).toBeVisible();
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Confirmed. You will get Acme status alerts by text message.')).toBeVisible();
    await page.screenshot({ path: `.tmp/screens/subscribe-sms-done-${width}.png`, fullPage: true });
    await axeClean(page);
    expect(slack.refused).toEqual([]);
    expect(twilio.refused).toEqual([]);
    await context.close();
  });
}
