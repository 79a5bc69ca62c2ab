// The mail and database kinds from the console (issue 28) against real servers on loopback:
// PostgreSQL, MariaDB and Redis (Debian's, started here) and Node SMTP, IMAP and POP3 servers with
// STARTTLS or implicit TLS (the e2e server trusts the test CA). For each kind a company admin
// fills the Add Monitor dialog, runs Test now (Up, with its phases), creates the monitor and opens
// its page: the target shown without the password, the password never on screen. axe, and
// screenshots of the dialog and the monitor page at 1366 and 390 px.
import path from 'node:path';
import type { Page } from '@playwright/test';
import { makeCerts } from '../fixtures/targets/tls-targets.ts';
import { startPgCluster, type PgCluster } from '../support/pg-cluster.ts';
import { startMariaDbServer, type MariaDbServer } from '../support/mariadb-server.ts';
import { startRedisServer, type RedisServer } from '../support/redis-server.ts';
import { type MailServer, startImapServer, startPop3Server, startSmtpServer } from '../support/kind-servers/mail.ts';
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
  type SeededCompany,
  type SeededUser,
} from './console-fixtures.ts';

const certs = makeCerts();
test.use({ serverEnv: { NODE_EXTRA_CA_CERTS: path.join(certs.dir, 'ca.pem') } });
test.describe.configure({ mode: 'serial' });
const shot = shotsIn('console-kinds-data');

const PASSWORD = 'e2e-Secret-pass-77';
let pg: PgCluster;
let maria: MariaDbServer;
let redis: RedisServer;
const mail: Record<string, MailServer> = {};
let company: SeededCompany;
let admin: SeededUser;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  pg = await startPgCluster({ password: PASSWORD });
  maria = await startMariaDbServer();
  maria.sql(`CREATE USER 'monitor'@'%' IDENTIFIED BY '${PASSWORD}'; GRANT SELECT ON *.* TO 'monitor'@'%'`);
  redis = await startRedisServer({ password: PASSWORD });
  const account = { user: 'monitor@example.com', password: PASSWORD, cert: certs.certs.valid };
  mail.smtp = await startSmtpServer({ ...account, tls: 'starttls' });
  mail.imap = await startImapServer({ ...account, tls: 'implicit' });
  mail.pop3 = await startPop3Server({ ...account, tls: 'starttls' });
  const api = await adminApi();
  company = await seedCompany(api);
  admin = await seedUser(api, 2, company.id);
});
test.afterAll(async () => {
  pg?.stop();
  await Promise.all([maria?.stop(), redis?.stop(), ...Object.values(mail).map((m) => m.close())]);
});

/** Opens Add Monitor, picks the kind, fills its fields, runs Test now (Up, with phases) and creates it. */
async function addMonitor(page: Page, kind: string, name: string, fill: Record<string, string>, phases: string[], shotName?: string) {
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await dialog.getByLabel('Kind').selectOption({ label: kind });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  for (const [label, value] of Object.entries(fill)) {
    const field = dialog.getByLabel(label);
    if (label === 'Encryption') await field.selectOption(value);
    else await field.fill(value);
  }
  await dialog.getByRole('button', { name: 'Test now' }).click();
  const result = dialog.getByRole('region', { name: 'Test result' });
  await expect(result).toContainText('Up', { timeout: 15_000 });
  for (const phase of phases) await expect(result.getByText(phase, { exact: true })).toBeVisible();
  if (shotName) {
    await expectNoSeriousA11yViolations(page);
    await shot(page, shotName);
  }
  await dialog.getByRole('button', { name: 'Create Monitor' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `Monitor "${name}" created.` })).toBeVisible();
}

test('a company admin adds each mail and database kind, tests it and opens its page', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors'));

  const pgUrl = `postgres://postgres:${PASSWORD}@127.0.0.1:${new URL(pg.url).port}/postgres`;
  await addMonitor(
    page,
    'PostgreSQL',
    'Orders DB',
    { URL: pgUrl, Query: 'SELECT 40 + 2', 'Expected value': '42' },
    ['DNS', 'Connect', 'First byte', 'Total'],
    'dialog-postgres-1366',
  );
  await addMonitor(page, 'MySQL / MariaDB', 'Shop DB', { URL: `mysql://monitor@127.0.0.1:${maria.port}/`, Password: PASSWORD }, [
    'Connect',
    'First byte',
  ]);
  await addMonitor(page, 'Redis', 'Session cache', { URL: `redis://127.0.0.1:${redis.port}`, Password: PASSWORD }, [
    'Connect',
    'First byte',
  ]);
  const login = { 'User name': 'monitor@example.com', Password: PASSWORD };
  await addMonitor(
    page,
    'SMTP server',
    'Outgoing mail',
    { Host: 'localhost', Port: String(mail.smtp.port), Encryption: 'starttls', ...login },
    ['DNS', 'Connect', 'TLS', 'First byte', 'Total'],
    'dialog-smtp-1366',
  );
  await addMonitor(
    page,
    'IMAP server',
    'Mailboxes',
    { Host: 'localhost', Port: String(mail.imap.port), Encryption: 'implicit', ...login },
    ['TLS'],
  );
  await addMonitor(
    page,
    'POP3 server',
    'Old mailboxes',
    { Host: 'localhost', Port: String(mail.pop3.port), Encryption: 'starttls', ...login },
    ['TLS'],
  );

  // The list shows each target, the database URL without its password.
  const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row('Orders DB')).toContainText(`postgres://postgres@127.0.0.1:${new URL(pg.url).port}/postgres`);
  await expect(row('Outgoing mail')).toContainText(`localhost:${mail.smtp.port}`);
  await expect(page.locator('body')).not.toContainText(PASSWORD);

  // Editing: the password input starts blank, and Test now still logs in with the stored one.
  await row('Session cache').getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Session cache' });
  await expect(edit.getByLabel('Password')).toHaveValue('');
  await edit.getByRole('button', { name: 'Test now' }).click();
  await expect(edit.getByRole('region', { name: 'Test result' })).toContainText('Up', { timeout: 15_000 });
  await edit.getByRole('button', { name: 'Close' }).click();

  // Its page: checked by the engine, the target, and the certificate seen over STARTTLS.
  await row('Outgoing mail').getByRole('link', { name: 'Outgoing mail' }).click();
  await expect(page.getByRole('heading', { name: /Outgoing mail/ })).toBeVisible();
  const details = page.getByTestId('details');
  await expect(details).toContainText(`localhost:${mail.smtp.port}`);
  await expect(details.getByTestId('certificate')).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'monitor-smtp-1366');

  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await row('Orders DB').getByRole('link', { name: 'Orders DB' }).click();
  await expect(page.getByRole('heading', { name: /Orders DB/ })).toBeVisible();
  await expect(page.getByTestId('details')).toContainText(`postgres://postgres@127.0.0.1:${new URL(pg.url).port}/postgres`);
  await expect(page.locator('body')).not.toContainText(PASSWORD);
  await shot(page, 'monitor-postgres-1366');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByRole('heading', { name: /Orders DB/ })).toBeVisible();
  await shot(page, 'monitor-postgres-390');

  // The dialog on a phone, a mail kind with its encryption choice.
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await page.getByRole('button', { name: 'Add Monitor' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Monitor' });
  await dialog.getByLabel('Kind').selectOption({ label: 'IMAP server' });
  await expect(dialog.getByLabel('Encryption')).toHaveValue('starttls');
  await expect(dialog.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'password');
  await shot(page, 'dialog-imap-390');
});
