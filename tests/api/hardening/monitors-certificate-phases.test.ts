// What the engine keeps of real checks of a loopback HTTPS target with a certificate made by the
// test (issue 13): the certificate's issuer, subject and expiry on the monitor (an ssl monitor
// too), and the per-period phase breakdown (DNS, connect, TLS, wait) of the response-time chart,
// summed into the rollups as results are written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/server/engine/scheduler.ts';
import { startTlsTargets, type TlsTargets } from '../../fixtures/targets/tls-targets.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

describe.each(DB_KINDS)('certificate facts and phase rollups on %s', (kind) => {
  let t: TestApp;
  let tls: TlsTargets;
  let clock = Date.UTC(2027, 2, 1, 9, 0, 0);
  let admin: ApiClient;
  let engine: ReturnType<typeof createEngine>;

  beforeAll(async () => {
    tls = await startTlsTargets();
    clock = Date.now();
    t = await startTestApp({ db: kind, now: () => clock, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '60' } });
    engine = createEngine(t.services, { extraCa: [tls.caPem] });
    t.services.monitoring = { ...t.services.monitoring, engine };
    const acme = await seedCompany(t.services, { plan: 'enterprise' });
    admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
  });
  afterAll(async () => {
    await t?.close();
    await tls?.close();
  });

  it('records who issued an https monitor’s certificate, whom it names and when it expires', async () => {
    const m = await admin.post('/api/v1/monitors', {
      name: 'Secure site',
      type: 'http',
      url: `https://localhost:${tls.port.valid}/`,
      interval_seconds: 60,
    });
    expect(m.status).toBe(201);
    expect(m.body).toMatchObject({ cert_issuer: null, cert_subject: null });
    await engine.runDueNow();
    const got = (await admin.get(`/api/v1/monitors/${m.body.id}`)).body;
    expect(got.status).toBe('operational');
    expect(got).toMatchObject({ cert_issuer: 'StatusWatch Labs Test CA R1', cert_subject: 'localhost' });
    // the leaf is valid for 200 days from the fixture's start
    expect(Date.parse(got.cert_expires_at) - Date.now()).toBeGreaterThan(198 * 86_400_000);

    const ssl = await admin.post('/api/v1/monitors', {
      name: 'Self-signed',
      type: 'ssl',
      host: 'localhost',
      port: tls.port.selfSigned,
      interval_seconds: 60,
    });
    await engine.runDueNow();
    // a self-signed certificate fails the check, and names itself as issuer
    const sslGot = (await admin.get(`/api/v1/monitors/${ssl.body.id}`)).body;
    expect(sslGot.last_error).toMatch(/certificate/i);
    expect(sslGot).toMatchObject({ cert_issuer: 'localhost', cert_subject: 'localhost' });
  });

  it('answers each period of the chart with its mean DNS, connect, TLS and wait times from the rollups', async () => {
    const m = await admin.post('/api/v1/monitors', {
      name: 'Phases',
      type: 'http',
      url: `https://localhost:${tls.port.valid}/`,
      interval_seconds: 60,
    });
    await engine.runDueNow();
    for (let i = 0; i < 3; i++) {
      clock += 60_000;
      await engine.runDueNow();
    }
    const checks = (await admin.get(`/api/v1/monitors/${m.body.id}/checks`)).body as Array<{ timings: Record<string, number> }>;
    expect(checks.length).toBeGreaterThanOrEqual(4);
    const rt = (await admin.get(`/api/v1/monitors/${m.body.id}/response-times?range=24h`)).body;
    const filled = rt.points.filter((p: { checks: number }) => p.checks > 0);
    const empty = rt.points.filter((p: { checks: number }) => p.checks === 0);
    expect(filled.length).toBeGreaterThanOrEqual(1);
    expect(empty[0].phases).toEqual({ dns: null, connect: null, tls: null, wait: null });
    // The rollups' phase means equal the means of the raw checks they hold
    const mean = (k: string) => checks.reduce((a, c) => a + c.timings[k], 0) / checks.length;
    const total = filled.reduce((a: number, p: { checks: number }) => a + p.checks, 0);
    const weighted = (k: 'dns' | 'connect' | 'tls') =>
      filled.reduce((a: number, p: { checks: number; phases: Record<string, number> }) => a + p.phases[k] * p.checks, 0) / total;
    for (const k of ['dns', 'connect', 'tls'] as const) {
      expect(filled.every((p: { phases: Record<string, number | null> }) => typeof p.phases[k] === 'number')).toBe(true);
      expect(weighted(k)).toBeCloseTo(mean(k), 1);
    }
    expect(filled[0].phases.tls).toBeGreaterThan(0);
    expect(filled[0].phases.wait).toBeGreaterThanOrEqual(0);
  });
});
