// Incident summaries in the console (issue 33, item 3), at 1280 and 375 px: a company admin turns
// them on in Settings → Company (budget and the month's usage on the card); on the incident page
// the "Summary (written by a language model)" section offers "Write summary" and shows why none
// can be written yet (no evidence panel: the evidence builder is wired at merge); a summary stored
// with the incident is shown with when, which model, from which evidence, and what was sent; a
// viewer reads it without the button. The model itself is exercised in tests/api/incident-summary.test.ts.
import type { Page } from '@playwright/test';
import { openDb } from '../../src/server/db/connect.ts';
import { parseConfig } from '../../src/server/config.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  serverDataDir,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

// Never contacted here: without an evidence panel no call is made.
test.use({
  serverEnv: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_API_KEY: 'sk-e2e', LLM_MODEL: 'small-model-1', LLM_MONTHLY_TOKENS: '50000' },
});

const shot = shotsIn('incident-summary');

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an admin opts in, sees why no summary can be written yet, and reads a stored one; a viewer only reads', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  const m = await api.post('/api/v1/monitors', {
    data: { type: 'http', company_id: company.id, name: 'Checkout API', url: 'http://127.0.0.1:9/', interval_seconds: 3600 },
  });
  expect(m.status(), await m.text()).toBe(201);
  const monitorId = (await m.json()).id as string;
  const inc = await api.post('/api/v1/incidents', {
    data: { company_id: company.id, title: 'Checkout API is down', impact: 'major', message: 'Looking into it.', monitor_ids: [monitorId] },
  });
  expect(inc.status(), await inc.text()).toBe(201);
  const incidentId = (await inc.json()).id as string;

  // Settings → Company: the card, the opt-in and a lower budget.
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings/company'));
  const card = page.getByTestId('settings-incident-summaries');
  await expect(card.getByRole('heading', { name: 'Incident summaries' })).toBeVisible();
  await expect(card).toContainText('A language model (small-model-1) chosen by the platform');
  await card.getByLabel('Write incident summaries with the language model').check();
  await card.getByLabel('Monthly token budget').fill('500');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('A whole number from 1000 to 50,000, or empty')).toBeVisible();
  await card.getByLabel('Monthly token budget').fill('20000');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('alert')).toHaveText('Incident summary settings saved.');
  const month = new Date().toISOString().slice(0, 7);
  await expect(card.getByTestId('incident-summaries-usage')).toHaveText(`${month}: 0 of 20,000 tokens used (0 summaries).`);
  await expectNoSeriousA11yViolations(page);
  await card.scrollIntoViewIfNeeded();
  await shots(page, 'settings-card');

  // The incident page: the section and its button; no evidence panel yet, and it says so.
  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidentId}`));
  const section = page.getByTestId('incident-summary');
  await expect(section.getByRole('heading', { name: 'Summary (written by a language model)' })).toBeVisible();
  await expect(section.getByText('No summary yet.')).toBeVisible();
  await section.getByRole('button', { name: 'Write summary' }).click();
  await expect(section.getByRole('alert')).toHaveText('This incident has no evidence panel yet; a summary is written from it only.');

  // A summary stored with the incident (as the evidence builder's trigger writes one).
  const db = openDb({ kind: 'sqlite', file: parseConfig({ NODE_ENV: 'test', DATA_DIR: serverDataDir() }).sqlitePath });
  const evidence = {
    incident_id: incidentId,
    monitor_id: monitorId,
    built_at: '2026-11-30T06:50:00.000Z',
    updated_at: '2026-11-30T06:55:00.000Z',
    line: 'TLS handshake 18× slower than usual; certificate replaced 40 min before',
    items: [
      {
        kind: 'phase',
        summary: 'TLS handshake 840 ms, baseline 45 ms',
        at: '2026-11-30T06:49:00.000Z',
        source: { label: 'Check results', href: '' },
        data: {},
      },
      {
        kind: 'certificate_change',
        summary: 'Certificate replaced',
        at: '2026-11-30T06:10:00.000Z',
        source: { label: 'SSL monitoring', href: '' },
        data: {},
      },
    ],
  };
  const prompt = [
    { role: 'system', content: 'You help the on-call engineer of a monitored service understand an incident.' },
    { role: 'user', content: 'Incident: Checkout API is down\nMonitor: Checkout API\n1. [phase] TLS handshake 840 ms, baseline 45 ms' },
  ];
  await db.k
    .insertInto('incident_summaries')
    .values({
      id: crypto.randomUUID(),
      company_id: company.id,
      incident_id: incidentId,
      trigger: 'evidence',
      requested_by: null,
      model: 'small-model-1',
      prompt: JSON.stringify(prompt),
      evidence: JSON.stringify(evidence),
      evidence_updated_at: Date.parse(evidence.updated_at),
      answer:
        'Summary: TLS handshakes to the Checkout API slowed from 45 ms to 840 ms after its certificate was replaced 40 minutes before the incident.\nNext steps:\n- Check the new certificate chain and its OCSP stapling\n- Compare the TLS configuration with the previous certificate',
      prompt_tokens: 500,
      completion_tokens: 200,
      total_tokens: 700,
      created_at: Date.parse('2026-11-30T06:56:00.000Z'),
    })
    .execute();
  await db.close();
  await page.reload();
  await expect(section.getByText(/^Summary: TLS handshakes to the Checkout API slowed/)).toBeVisible();
  await expect(section).toContainText(
    'Written 2026-11-30 06:56 UTC by small-model-1 from the evidence of 2026-11-30 06:55 UTC (2 findings). It may be wrong: check it against the evidence.',
  );
  await section.getByText('What the model was sent').click();
  await expect(section.locator('pre').nth(1)).toHaveText(prompt[1].content);
  await expect(section.getByRole('button', { name: 'Write summary' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await section.scrollIntoViewIfNeeded();
  await shots(page, 'incident-section');

  // A viewer reads it, with no button.
  const ctx = await browser.newContext();
  const vp = await ctx.newPage();
  await signInUi(vp, tenantUrl(company.subdomain), viewer);
  await vp.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidentId}`));
  const seen = vp.getByTestId('incident-summary');
  await expect(seen.getByText(/^Summary: TLS handshakes to the Checkout API slowed/)).toBeVisible();
  await expect(seen.getByRole('button', { name: 'Write summary' })).toHaveCount(0);
  await ctx.close();
});
