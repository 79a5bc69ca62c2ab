// Truthful latency end to end: a known set of spans, sent with the real OpenTelemetry SDK in
// several exports (so rollup rows of one minute are merged on write and across minutes,
// services and operations on read), and every percentile the API shows (the company's RED card
// and the super admin's per-company list) within 2 % of the exact value from the raw spans.
// The set is the case: its exact p95 is 400 ms, which 20 fixed buckets reported as 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { sendWithSdk, type PlannedSpan } from './otel-sdk.ts';

function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
}

const within2 = (got: number, want: number) => Math.abs(got - want) / want;

/** 400 requests: most 20-390 ms, the p95 exactly 400 ms, a slow tail to 2.5 s. */
function knownSet(now: number, offset: number): PlannedSpan[] {
  const durations: number[] = [];
  for (let i = 0; i < 379; i++) durations.push(20 + ((i * 37) % 371) + (i % 7) * 0.13);
  durations.push(400);
  for (let i = 0; i < 20; i++) durations.push(401 + i * 105);
  return durations.map((durationMs, i) => ({
    name: i % 2 ? 'GET /cart' : 'POST /pay',
    kind: SpanKind.SERVER,
    // spread over 40 minutes, so several minute rows and two services hold them
    startMs: now - 45 * 60_000 + ((i * 6_007) % (40 * 60_000)) + offset,
    durationMs,
    httpStatus: 200,
    children: [{ name: 'db', kind: SpanKind.CLIENT, startMs: now - 50 * 60_000, durationMs: 9000 }], // not a request
  }));
}

describe.each(DB_KINDS)('percentiles within two percent of exact on %s', (db) => {
  let t: TestApp;
  let A: { id: string; subdomain: string };
  let admin: ApiClient;
  let superAdmin: ApiClient;
  let key: string;
  const host = () => `${A.subdomain}.localhost`;

  beforeAll(async () => {
    t = await startTestApp({ db });
    A = await seedCompany(t.services, { name: 'Latency Co', plan: 'professional' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: A.id }), host());
    superAdmin = t.client();
    await signIn(superAdmin, await seedUser(t.services, { userType: 1 }));
    key = (await admin.post('/api/v1/api-keys', { name: 'lat', scope: 'ingest' }, { host: host() })).body.key;
  }, 60_000);
  afterAll(async () => t?.close());

  it('shows p95 of the known set as 400 ms (±2 %), on the company card and in the super admin list', async () => {
    const now = Date.now();
    const roots = knownSet(now, 0);
    const url = `${t.baseUrl}/v1/traces`;
    // Four exports, interleaved in time: each minute's row is written more than once.
    for (let part = 0; part < 4; part++) {
      const mine = roots.filter((_, i) => i % 4 === part);
      await sendWithSdk({
        url,
        key,
        format: part % 2 ? 'json' : 'protobuf',
        resource: { 'service.name': part < 2 ? 'shop' : 'pay' },
        roots: mine,
      });
    }
    const durations = roots.map((r) => r.durationMs);
    const p95 = exactQuantile(durations, 0.95);
    expect(p95).toBe(400);

    const own = await admin.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: host() });
    expect(own.status).toBe(200);
    expect(own.body.totalRequests).toBe(400);
    expect(within2(own.body.p95, p95)).toBeLessThanOrEqual(0.02);
    const listed = await superAdmin.get('/api/v1/api-intelligence/metrics/red?range=24h');
    expect(listed.status).toBe(200);
    const row = listed.body.find((r: { tenantId: string }) => r.tenantId === A.id);
    expect(within2(row.p95, p95)).toBeLessThanOrEqual(0.02);
    const chosen = await superAdmin.get(`/api/v1/api-intelligence/metrics/red?range=24h&tenant=${A.id}`);
    expect(within2(chosen.body.p95, p95)).toBeLessThanOrEqual(0.02);

    // The last hour window holds the same spans; 1 h and 24 h agree.
    const hour = await admin.get('/api/v1/api-intelligence/metrics/red?range=1h', { host: host() });
    expect(hour.body.totalRequests).toBe(400);
    expect(within2(hour.body.p95, p95)).toBeLessThanOrEqual(0.02);
  });

  it('stays within 2 % as more spans arrive for the same minutes (merged rows)', async () => {
    const now = Date.now();
    const more = knownSet(now, 1).map((r) => ({ ...r, durationMs: r.durationMs * 3.3 }));
    await sendWithSdk({ url: `${t.baseUrl}/v1/traces`, key, format: 'protobuf', resource: { 'service.name': 'shop' }, roots: more });
    const all = [...knownSet(now, 0), ...more].map((r) => r.durationMs);
    const own = await admin.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: host() });
    expect(own.body.totalRequests).toBe(800);
    expect(within2(own.body.p95, exactQuantile(all, 0.95))).toBeLessThanOrEqual(0.02);
    expect(own.body.avgResponseTime).toBeCloseTo(all.reduce((a, b) => a + b, 0) / all.length, 1);
  });
});
