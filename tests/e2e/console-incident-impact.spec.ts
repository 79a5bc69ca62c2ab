// Honest status (issue 25). Item 1: one of five public monitors down reads "Partial System
// Outage" on the public page; a company admin raises the incident's impact on its console page
// (the page then reads "Major Service Outage") and marks a monitor critical in its form. Item 2:
// the branded sign-in page's "Public API Status" gives healthy TCP, DNS and push monitors a green
// state badge, while an HTTP monitor keeps the spec's code badge (green for 200). All checked by
// the real engine against loopback targets.
import net from 'node:net';
import type { Page } from '@playwright/test';
import { startDnsZoneServer, type DnsZoneServer } from '../fixtures/targets/dns-zone-server.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  mainUrl,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const web = loopbackTarget((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
const shot = shotsIn('incident-impact');

let tcp: net.Server;
let tcpPort = 0;
let dns: DnsZoneServer;
test.beforeAll(async () => {
  tcp = net.createServer((s) => s.end());
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as net.AddressInfo).port;
  dns = await startDnsZoneServer();
  dns.set('www.impact.test', [{ type: 'A', value: '192.0.2.10' }]);
});
test.afterAll(async () => {
  await new Promise((r) => tcp.close(r));
  await dns.close();
});

/** A loopback port nothing listens on: bound, then closed (connecting to it is refused). */
async function refusingPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** The public page's headline, reloaded until it reads `text` (the snapshot is rechecked each second). */
async function publicHeadline(page: Page, subdomain: string, text: string): Promise<void> {
  const p = await page.context().newPage();
  await expect(async () => {
    await p.goto(tenantUrl(subdomain, '/'));
    await expect(p.locator('#overall-text')).toHaveText(text, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await p.close();
}

/** Screenshots at 1366 and 390 px; at 390 nothing may scroll sideways. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('one of five monitors down is a partial outage; an admin raises the incident to a major outage and marks a monitor critical', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const create = async (data: Record<string, unknown>) => {
    const r = await api.post('/api/v1/monitors', {
      data: { company_id: company.id, interval_seconds: 1, timeout_seconds: 2, confirmations: 1, is_public: true, ...data },
    });
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as { id: string };
  };
  for (const name of ['Website', 'API', 'Docs', 'Shop'])
    await create({ type: 'http', name, url: `http://127.0.0.1:${web.port()}/${name}` });
  const cert = await create({ type: 'tcp', name: 'Certificate', host: '127.0.0.1', port: await refusingPort() });
  let incidentId = '';
  await expect
    .poll(
      async () => {
        const open = (await (await api.get(`/api/v1/incidents?tenant=${company.id}&status=open`)).json()) as Array<{
          id: string;
          impact: string;
        }>;
        incidentId = open[0]?.id ?? '';
        return open.map((i) => i.impact);
      },
      { timeout: 20_000 },
    )
    .toEqual(['major']);
  await api.dispose();
  await publicHeadline(page, company.subdomain, 'Partial System Outage');

  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidentId}`));
  await expect(page.getByRole('heading', { name: 'Certificate is down', level: 2 })).toBeVisible();
  const impact = page.getByLabel('Impact', { exact: true });
  await expect(impact).toHaveValue('major');
  await expect(impact.locator('option:checked')).toHaveText('Partial outage');
  await expect(page.getByRole('button', { name: 'Save impact' })).toBeDisabled();
  await shots(page, 'incident-partial');
  await expectNoSeriousA11yViolations(page);

  await impact.selectOption({ label: 'Major outage' });
  await page.getByRole('button', { name: 'Save impact' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Impact saved: Major outage.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save impact' })).toBeDisabled();
  await shots(page, 'incident-major');
  await publicHeadline(page, company.subdomain, 'Major Service Outage');
  // the list names the impact in the same words
  await page.goto(tenantUrl(company.subdomain, '/monitors/incidents'));
  await expect(page.getByRole('row').filter({ hasText: 'Certificate is down' })).toContainText('Major outage');

  // back to a partial outage, then mark the monitor critical in its form: its outage alone is major
  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidentId}`));
  await page.getByLabel('Impact', { exact: true }).selectOption({ label: 'Partial outage' });
  await page.getByRole('button', { name: 'Save impact' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Impact saved: Partial outage.' })).toBeVisible();
  await publicHeadline(page, company.subdomain, 'Partial System Outage');
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await page.getByRole('button', { name: 'Edit Certificate' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Certificate' });
  const critical = edit.getByLabel('Critical: its outage alone is a major outage');
  await expect(critical).not.toBeChecked();
  await critical.check();
  await shots(page, 'monitor-form-critical');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Monitor "Certificate" saved.' })).toBeVisible();
  await publicHeadline(page, company.subdomain, 'Major Service Outage');
  await page.goto(tenantUrl(company.subdomain, `/monitors/${cert.id}`));
  await expect(page.getByText('Yes: its outage alone is a major outage')).toBeVisible();
});

test('the branded sign-in list: green state badges for healthy TCP, DNS and push monitors, the code for HTTP ones', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const create = async (data: Record<string, unknown>) => {
    const r = await api.post('/api/v1/monitors', {
      data: { company_id: company.id, interval_seconds: 1, timeout_seconds: 2, confirmations: 1, is_public: true, ...data },
    });
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()) as { id: string; push_url: string | null };
  };
  await create({ type: 'http', name: 'Website', url: `http://127.0.0.1:${web.port()}/` });
  await create({ type: 'tcp', name: 'Database', host: '127.0.0.1', port: tcpPort });
  await create({ type: 'dns', name: 'DNS', host: 'www.impact.test', record_type: 'A', resolver: dns.server });
  const push = await create({ type: 'push', name: 'Nightly backup', interval_seconds: 3600 });
  expect((await api.get(mainUrl(`/api/v1/push/${push.push_url!.split('/').pop()}`))).status()).toBe(200);
  await expect
    .poll(
      async () => {
        const list = (await (await api.get(`/api/v1/monitors?tenant=${company.id}`)).json()) as Array<{ name: string; status: string }>;
        return list.map((m) => `${m.name}: ${m.status}`).sort();
      },
      { timeout: 20_000 },
    )
    .toEqual(['DNS: operational', 'Database: operational', 'Nightly backup: operational', 'Website: operational']);
  await api.dispose();

  await page.goto(tenantUrl(company.subdomain, '/company-login'));
  const rows = page.getByRole('region', { name: 'Public API Status' }).getByRole('listitem');
  await expect(rows).toHaveCount(4);
  const badge = (name: string) => rows.filter({ hasText: name }).locator('.sw-pill');
  await expect(badge('Website')).toHaveText('200');
  for (const name of ['Website', 'Database', 'DNS', 'Nightly backup']) await expect(badge(name)).toHaveClass(/sw-green/);
  for (const name of ['Database', 'DNS', 'Nightly backup']) await expect(badge(name)).toHaveText('Operational');
  await shots(page, 'sign-in-status');
  await expectNoSeriousA11yViolations(page);
});
