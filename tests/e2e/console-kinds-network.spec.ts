// The network kinds (ping, udp, grpc, websocket) and http's header and regex assertions from the console against the built server: a company admin
// picks each kind in the Add Monitor dialog, fills its own fields, runs Test now against a
// loopback server (the result shows Up and the check's phases), creates it, and opens its monitor
// page, which shows it up. Screenshots of the dialog and the monitor page at 1366 and 390 px.
import { test as base } from '@playwright/test';
import type { Page } from '@playwright/test';
import { startGrpcHealthServer, type GrpcHealthServer } from '../support/kind-servers/grpc-health.ts';
import { startUdpServer, type UdpServer } from '../support/kind-servers/udp.ts';
import { startWsServer, type WsServer } from '../support/kind-servers/websocket.ts';
import { startHttpTargets, type HttpTargets } from '../fixtures/targets/http-targets.ts';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  unique,
} from './console-fixtures.ts';

const shot = shotsIn('console-kinds-network');
let udp: UdpServer;
let grpcServer: GrpcHealthServer;
let wsServer: WsServer;
let httpTargets: HttpTargets;
base.beforeAll(async () => {
  [udp, grpcServer, wsServer, httpTargets] = await Promise.all([
    startUdpServer(),
    startGrpcHealthServer(),
    startWsServer(),
    startHttpTargets(),
  ]);
});
base.afterAll(async () => {
  await Promise.all([udp?.close(), grpcServer?.close(), wsServer?.close(), httpTargets?.close()]);
});

interface KindCase {
  type: string;
  label: string;
  fill(dialog: ReturnType<Page['getByRole']>): Promise<void>;
  phases: string[];
  /** the monitor page's Details › Target */
  target(): string;
  /** what the edit dialog shows of the kind's own fields */
  stored(dialog: ReturnType<Page['getByRole']>): Promise<void>;
}

const CASES: KindCase[] = [
  {
    type: 'ping',
    label: 'Ping (ICMP)',
    fill: async (d) => {
      await d.getByLabel('Host').fill('127.0.0.1');
      await d.getByLabel('Packets').fill('2');
      await d.getByLabel('Max packet loss (%)').fill('50');
    },
    phases: ['DNS', 'Total'],
    target: () => '127.0.0.1',
    stored: async (d) => {
      await expect(d.getByLabel('Packets')).toHaveValue('2');
      await expect(d.getByLabel('Max packet loss (%)')).toHaveValue('50');
    },
  },
  {
    type: 'udp',
    label: 'UDP',
    fill: async (d) => {
      await d.getByLabel('Host').fill('127.0.0.1');
      await d.getByLabel('Port').fill(String(udp.port));
      await d.getByLabel('Payload', { exact: true }).fill('echo:PONG');
      await d.getByLabel('Expected answer').fill('PONG');
    },
    phases: ['DNS', 'Connect', 'First byte', 'Total'],
    target: () => `127.0.0.1:${udp.port}`,
    stored: async (d) => {
      await expect(d.getByLabel('Payload', { exact: true })).toHaveValue('echo:PONG');
      await expect(d.getByLabel('Payload format')).toHaveValue('text');
    },
  },
  {
    type: 'grpc',
    label: 'gRPC health',
    fill: async (d) => {
      await d.getByLabel('Host').fill('127.0.0.1');
      await d.getByLabel('Port').fill(String(grpcServer.port));
      await d.getByLabel('Service').fill('secured');
      await d.getByLabel('Metadata').fill('authorization: Bearer letmein');
    },
    phases: ['DNS', 'Connect', 'First byte', 'Total'],
    target: () => `127.0.0.1:${grpcServer.port}`,
    stored: async (d) => {
      await expect(d.getByLabel('Service')).toHaveValue('secured');
      await expect(d.getByLabel('Metadata')).toHaveValue('authorization: Bearer letmein');
    },
  },
  {
    type: 'websocket',
    label: 'WebSocket',
    fill: async (d) => {
      await d.getByLabel('URL').fill(wsServer.url('/echo'));
      await d.getByLabel('Subprotocol').fill('v1.chat');
      await d.getByLabel('Message to send').fill('ping-1');
      await d.getByLabel('Expected answer').fill('ping-1');
    },
    phases: ['DNS', 'Connect', 'First byte', 'Total'],
    target: () => wsServer.url('/echo'),
    stored: async (d) => {
      await expect(d.getByLabel('Subprotocol')).toHaveValue('v1.chat');
      await expect(d.getByLabel('Expected answer')).toHaveValue('ping-1');
    },
  },
  {
    // http's header assertions and regex keyword (issue 28, item 1's last line)
    type: 'http',
    label: 'HTTP(S)',
    fill: async (d) => {
      await d.getByLabel('URL').fill(httpTargets.url('/json'));
      await d.getByLabel('Keyword', { exact: true }).fill('"db":\\s*"ok"');
      await d.getByLabel('Keyword is a regular expression (RE2)').check();
      await d.getByLabel('Response headers must match').fill('Content-Type: /^application\\/json/');
    },
    phases: ['DNS', 'Connect', 'First byte', 'Total'],
    target: () => httpTargets.url('/json'),
    stored: async (d) => {
      await expect(d.getByLabel('Keyword is a regular expression (RE2)')).toBeChecked();
      await expect(d.getByLabel('Response headers must match')).toHaveValue('Content-Type: /^application\\/json/');
    },
  },
];

for (const kind of CASES) {
  test(`a company admin tests and creates a ${kind.type} monitor from the console and opens its page`, async ({ page }) => {
    test.setTimeout(60_000);
    const api = await adminApi();
    const company = await seedCompany(api, { plan: 'starter' });
    const admin = await seedUser(api, 2, company.id);
    const name = unique(`${kind.type}-`);

    await page.setViewportSize({ width: 1366, height: 900 });
    await signInUi(page, tenantUrl(company.subdomain), admin);
    await page.goto(tenantUrl(company.subdomain, '/monitors'));
    await page.getByRole('button', { name: 'Add Monitor' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
    await dialog.locator('#m-type').selectOption(kind.type);
    await expect(dialog.locator('#m-type option:checked')).toHaveText(kind.label);
    await dialog.getByLabel('Name').fill(name);
    await kind.fill(dialog);
    await dialog.getByLabel('Check every (seconds)').fill('60');
    await dialog.getByLabel('Confirmations before alerting').fill('1');
    await dialog.getByRole('button', { name: 'Test now' }).click();
    const result = dialog.getByRole('region', { name: 'Test result' });
    await expect(result).toContainText('Up');
    for (const phase of kind.phases) await expect(result.getByText(phase, { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await result.scrollIntoViewIfNeeded();
    await shot(page, `${kind.type}-dialog-1366`);
    await dialog.getByRole('button', { name: 'Create Monitor' }).click();
    await expect(page.getByRole('alert').filter({ hasText: `Monitor "${name}" created.` })).toBeVisible();

    await page.getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(page.getByText('Up', { exact: true }).first()).toBeVisible({ timeout: 1000 });
    }).toPass({ timeout: 20_000 });
    await expect(page.getByText(kind.label).first()).toBeVisible();
    await expect(page.getByTestId('details')).toContainText(kind.target());
    await shot(page, `${kind.type}-page-1366`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByRole('heading', { name })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, `${kind.type}-page-390`);
    // The edit dialog shows the kind's own fields as stored.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await kind.stored(edit);
    await shot(page, `${kind.type}-edit-390`);
  });
}
