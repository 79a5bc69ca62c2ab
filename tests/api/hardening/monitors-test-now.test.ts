// Test now (issue 13): POST /api/v1/monitors/test validates like a create, runs one check through
// the engine's guarded checker against real loopback targets, answers the result with its phase
// timings, stores nothing, and is limited per company like the checks after a save.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { startHttpTargets, type HttpTargets } from '../../fixtures/targets/http-targets.ts';

describe.each(DB_KINDS)('test now on %s', (kind) => {
  let t: TestApp;
  let http: HttpTargets;
  let admin: ApiClient;
  let viewer: ApiClient;
  let tcpServer: net.Server;
  let tcpPort = 0;
  let connections = 0;

  beforeAll(async () => {
    http = await startHttpTargets();
    tcpServer = net.createServer((s) => {
      connections += 1;
      s.destroy();
    });
    await new Promise<void>((r) => tcpServer.listen(0, '127.0.0.1', r));
    tcpPort = (tcpServer.address() as net.AddressInfo).port;
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1' } });
    const acme = await seedCompany(t.services, { plan: 'starter' });
    const host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    viewer = new ApiClient(t.baseUrl, host);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
  });
  afterAll(async () => {
    await t?.close();
    await http?.close();
    await new Promise<void>((r) => tcpServer?.close(() => r()));
  });

  const httpBody = (over: Record<string, unknown> = {}) => ({ name: 'Site', type: 'http', url: http.url('/ok'), ...over });

  it('checks an http target once and answers status, code and each phase, saving nothing', async () => {
    const before = http.requests.length;
    const r = await admin.post('/api/v1/monitors/test', httpBody());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'operational', status_code: 200, error: null });
    expect(http.requests.length).toBe(before + 1);
    const { dns, connect, ttfb, total } = r.body.timings;
    for (const phase of [dns, connect, ttfb, total]) expect(phase).toBeGreaterThanOrEqual(0);
    expect(total).toBeGreaterThanOrEqual(ttfb);
    expect(r.body.response_time_ms).toBe(total);
    expect((await admin.get('/api/v1/monitors')).body).toEqual([]);
  });

  it("answers a failing check with the product's sentence", async () => {
    const r = await admin.post('/api/v1/monitors/test', httpBody({ url: http.url('/status/500') }));
    expect(r.body).toMatchObject({ status: 'down', status_code: 500, error: 'HTTP 500 is not an accepted status code' });
  });

  it('checks a tcp target', async () => {
    const r = await admin.post('/api/v1/monitors/test', { name: 'db', type: 'tcp', host: '127.0.0.1', port: tcpPort });
    expect(r.body.status).toBe('operational');
    expect(connections).toBe(1);
  });

  it('validates like a create: per-field messages, and the metadata address refused in words', async () => {
    const noUrl = await admin.post('/api/v1/monitors/test', { name: 'x', type: 'http' });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.errors.url).toBeTruthy();
    const metadata = await admin.post('/api/v1/monitors/test', httpBody({ url: 'http://169.254.169.254/latest/meta-data/' }));
    expect(metadata.status).toBe(400);
    expect(metadata.body.errors.url).toMatch(/not allowed|blocked|refused/i);
    const push = await admin.post('/api/v1/monitors/test', { name: 'cron', type: 'push' });
    expect(push.status).toBe(400);
  });

  it('is refused to viewers', async () => {
    expect((await viewer.post('/api/v1/monitors/test', httpBody())).status).toBe(403);
  });

  it('runs at most 10 tests a minute for a company, then answers 429 with Retry-After', async () => {
    // the tests above used 3 of this minute's 10
    const results = [];
    for (let i = 0; i < 8; i++) results.push(await admin.post('/api/v1/monitors/test', httpBody()));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
    const refused = results.at(-1)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.detail).toMatch(/at most 10 checks a minute/);
  });
});
