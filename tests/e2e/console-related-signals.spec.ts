// One certificate problem, one notification (issue 25 item 3), in Chromium against a real server:
// a certificate monitor checks a loopback TLS server whose certificate is self-signed and expires
// in 29 days; the admin runs the TLS analysis too. The notifications page shows the incident once,
// and the incident's page lists "Certificate … is invalid", the analysis's problems and the expiry
// warning as related signals. Screens looked at, 1366 and 390 px wide.
import { startTlsTargets, type TlsTargets } from '../fixtures/targets/tls-targets.ts';
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
} from './console-fixtures.ts';

const shot = shotsIn('related-signals');
let tls: TlsTargets;
test.beforeAll(async () => {
  tls = await startTlsTargets();
});
test.afterAll(async () => {
  await tls?.close();
});

test("a self-signed certificate: one notification, and the other warnings in the incident's thread", async ({ page }) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const created = await api.post('/api/v1/monitors', {
    data: {
      type: 'ssl',
      company_id: company.id,
      name: 'TLS cert',
      host: 'localhost',
      port: tls.port.selfSigned,
      interval_seconds: 60,
      confirmations: 1,
      is_public: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const monitor = (await created.json()) as { id: string };

  // The first check finds the certificate refused and opens the incident (one confirmation).
  let incidentId = '';
  await expect(async () => {
    const r = await api.get(`/api/v1/incidents?tenant=${company.id}&status=open&monitor_id=${monitor.id}`);
    incidentId = ((await r.json()) as Array<{ id: string }>)[0]?.id ?? '';
    expect(incidentId).not.toBe('');
  }).toPass({ timeout: 20_000 });
  // The TLS analysis of the same certificate ("Analyse now" on SSL/TLS monitoring).
  const analysis = await api.post(`/api/v1/security/ssl/${monitor.id}/check`);
  expect(analysis.status(), await analysis.text()).toBe(200);

  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, `/monitors/incidents/${incidentId}`));
  const thread = page.getByRole('region', { name: 'Related signals (3)' });
  await expect(thread).toBeVisible();
  await expect(thread.getByText('Certificate of TLS cert is invalid')).toBeVisible();
  await expect(thread.getByText('Certificate of TLS cert expires in 29 days')).toBeVisible();
  await expect(thread.getByText(/TLS problem on TLS cert|new TLS problems on TLS cert/)).toBeVisible();
  await expect(thread.getByText('The certificate is self-signed', { exact: false })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await thread.scrollIntoViewIfNeeded();
    await shot(page, `incident-${width}`);
  }

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(tenantUrl(company.subdomain, '/notifications'));
  await expect(page.getByText('TLS cert is down').first()).toBeVisible();
  await expect(page.getByText('Certificate of TLS cert is invalid')).toHaveCount(0);
  await expect(page.getByText(/TLS problem on TLS cert|new TLS problems on TLS cert/)).toHaveCount(0);
  await expect(page.getByText('Certificate of TLS cert expires in 29 days')).toHaveCount(0);
  await shot(page, 'notifications-1366');
});
