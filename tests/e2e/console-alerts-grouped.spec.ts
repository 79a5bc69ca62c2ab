// A grouped alert in the delivery receipts (issue 14, item 4): three monitors of a company go
// down together, the real server's engine opens their incidents, and a Slack-like receiver on
// loopback gets one message listing them; the company admin sees one delivered message carrying
// three alerts and two `grouped` ones, and "Show the group" lists just that message.
import type { Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const slackBodies: string[] = [];
const loopback = loopbackTarget((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url?.startsWith('/services/')) slackBodies.push(Buffer.concat(chunks).toString('utf8'));
    // The monitors' target is down; the Slack hook accepts.
    res.writeHead(req.url?.startsWith('/services/') ? 200 : 503, { 'content-type': 'text/plain' }).end('ok');
  });
});

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('three monitors down together: one Slack message; the receipts show it carried three alerts', async ({ page }) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const channel = await api.post('/api/v1/alert-channels', {
    data: {
      company_id: company.id,
      name: 'Ops Slack',
      type: 'slack',
      config: { url: `http://127.0.0.1:${loopback.port()}/services/T0/B0/X` },
      events: ['incident.opened'],
    },
  });
  expect(channel.status(), await channel.text()).toBe(201);
  for (const name of ['API', 'Website', 'Checkout']) {
    const r = await api.post('/api/v1/monitors', {
      data: {
        type: 'http',
        company_id: company.id,
        name,
        url: `http://127.0.0.1:${loopback.port()}/${name}`,
        interval_seconds: 5,
        confirmations: 1,
      },
    });
    expect(r.status(), await r.text()).toBe(201);
  }
  // Held for the grouping window (15 s of quiet), then one message.
  await expect.poll(() => slackBodies.length, { timeout: 60_000 }).toBe(1);
  expect(JSON.parse(slackBodies[0]).blocks[0].text.text).toBe('3 monitors are down');

  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/notifications/deliveries'));
  await expect(page.getByRole('row', { name: /Ops Slack/ })).toHaveCount(3);
  const carrier = page.getByRole('row', { name: /Ops Slack.*delivered/ });
  await expect(carrier).toContainText('Grouped message: 3 alerts');
  await page.getByLabel('State').selectOption('grouped');
  const grouped = page.getByRole('row', { name: /Ops Slack/ });
  await expect(grouped).toHaveCount(2);
  await expect(grouped.first()).toContainText('Sent in a grouped message');
  await expect(grouped.first()).toContainText('None of its own');
  await expect(grouped.first().getByRole('button', { name: /Retry/ })).toHaveCount(0);
  await shots(page, 'alerts-deliveries-grouped');
  await expectNoSeriousA11yViolations(page);
  await grouped.first().getByRole('button', { name: 'Show the group' }).click();
  await expect(page.getByRole('row', { name: /Ops Slack/ })).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Showing one grouped message · Show all' })).toBeVisible();
  await page.getByRole('button', { name: 'Showing one grouped message · Show all' }).click();
  await expect(page.getByRole('button', { name: /Showing one grouped message/ })).toHaveCount(0);
});
