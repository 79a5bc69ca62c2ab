// The incident page's Evidence panel (issue 33 item 1), read by a viewer: an automatic incident
// whose service's spans name the failing host lists the service's errors with a link to an
// error trace; one where nothing stood out says so. Both at 1280 and 375 px (nothing wider than
// the viewport). The real engine checks loopback targets; the spans go through OTLP ingest.
import net from 'node:net';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const failing = loopbackTarget((_req, res) => res.writeHead(503, { 'content-type': 'text/plain' }).end('busy'));
const shot = shotsIn('incident-evidence');

async function refusingPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Six failing server spans of `checkout` 2.0.0 naming 127.0.0.1, through a new ingest key (OTLP/JSON). */
async function sendErrors(api: APIRequestContext, companyId: string): Promise<void> {
  const key = await api.post('/api/v1/api-keys', { data: { name: 'e2e', scope: 'ingest', company_id: companyId } });
  expect(key.status(), await key.text()).toBe(201);
  const secret = ((await key.json()) as { key: string }).key;
  const now = Date.now();
  const hex = (n: number, len: number) => n.toString(16).padStart(len, '0');
  const spans = Array.from({ length: 6 }, (_, i) => ({
    traceId: hex(now, 16) + hex(i + 1, 16),
    spanId: hex(i + 1, 16),
    name: 'POST /pay',
    kind: 2,
    startTimeUnixNano: String((now - 60_000 + i * 1000) * 1_000_000),
    endTimeUnixNano: String((now - 60_000 + i * 1000 + 800) * 1_000_000),
    attributes: [{ key: 'server.address', value: { stringValue: '127.0.0.1' } }],
    status: { code: 2, message: 'payment provider timed out' },
  }));
  const r = await api.post('/v1/traces', {
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    data: {
      resourceSpans: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'checkout' } }] }, scopeSpans: [{ spans }] }],
    },
  });
  expect(r.status(), await r.text()).toBeLessThan(300);
}

test('a viewer reads the evidence of automatic incidents: the errors of the service calling the host, or that nothing stood out', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const viewer = await seedUser(api, 3, company.id);
  await sendErrors(api, company.id);
  const create = async (data: Record<string, unknown>) => {
    const r = await api.post('/api/v1/monitors', {
      data: { company_id: company.id, interval_seconds: 1, timeout_seconds: 2, confirmations: 1, ...data },
    });
    expect(r.status(), await r.text()).toBe(201);
    return ((await r.json()) as { id: string }).id;
  };
  const pay = await create({ type: 'http', name: 'Payments', url: `http://127.0.0.1:${failing.port()}/pay` });
  // Another host: the spans naming 127.0.0.1 are not this incident's business.
  const queue = await create({ type: 'tcp', name: 'Queue', host: 'localhost', port: await refusingPort() });
  const incidents = new Map<string, string>();
  await expect
    .poll(
      async () => {
        const open = (await (await api.get(`/api/v1/incidents?tenant=${company.id}&status=open`)).json()) as Array<{
          id: string;
          monitor_id: string;
        }>;
        for (const i of open) incidents.set(i.monitor_id, i.id);
        return incidents.has(pay) && incidents.has(queue);
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  await api.dispose();

  await signInUi(page, tenantUrl(company.subdomain), viewer);
  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidents.get(pay)}`));
  const panel = page.getByRole('region', { name: 'Evidence' });
  await expect(panel.getByText('Service errors')).toBeVisible();
  await expect(panel).toContainText('checkout: 100 % of 6 spans naming 127.0.0.1 failed');
  await expect(panel).toContainText('"payment provider timed out"');
  await expect(panel.getByRole('link', { name: 'Error trace' })).toHaveAttribute('href', /^\/traces\/[0-9a-f]{32}$/);
  await expect(panel).toContainText(/Updated \d{4}-\d{2}-\d{2}/);
  await shots(page, 'service-errors');
  await expectNoSeriousA11yViolations(page);

  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidents.get(queue)}`));
  await expect(page.getByRole('region', { name: 'Evidence' }).getByText('Nothing stood out.')).toBeVisible();
  await shots(page, 'nothing');
});
