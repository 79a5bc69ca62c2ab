// Truthful latency end to end: a known set of spans, sent with the real OpenTelemetry SDK in
// several exports (so rollup rows of one minute are merged on write and across minutes,
// services and operations on read), and every percentile the API shows (the company's RED card
// for every range, the super admin's per-company list, the metrics screen's series per bucket
// for every range, service and operation, over the minute and the hourly tiers) within 2 % of
// the exact value from the raw spans. The traces screen shows each request's own duration,
// which must be the exact one sent.
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
  /** Every request span sent so far, as the oracle sees it */
  const sent: Array<{ name: string; service: string; startMs: number; durationMs: number }> = [];
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
    roots.forEach((r, i) => sent.push({ ...r, service: i % 4 < 2 ? 'shop' : 'pay' }));
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
    for (const r of more) sent.push({ ...r, service: 'shop' });
    await sendWithSdk({ url: `${t.baseUrl}/v1/traces`, key, format: 'protobuf', resource: { 'service.name': 'shop' }, roots: more });
    const all = [...knownSet(now, 0), ...more].map((r) => r.durationMs);
    const own = await admin.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: host() });
    expect(own.body.totalRequests).toBe(800);
    expect(within2(own.body.p95, exactQuantile(all, 0.95))).toBeLessThanOrEqual(0.02);
    expect(own.body.avgResponseTime).toBeCloseTo(all.reduce((a, b) => a + b, 0) / all.length, 1);
  });

  it('answers every p50/p95/p99 of the metrics series, each range and filter, and the 30-day card within 2 %', async () => {
    // Both earlier tests' spans: the set, and the same set 3.3 times slower in the shop service.
    expect(sent).toHaveLength(800);
    type Point = { t: number; requests: number; p50: number | null; p95: number | null; p99: number | null };
    let checked = 0;
    for (const [range, bucketMs] of [
      ['1h', 60_000],
      ['24h', 15 * 60_000],
      ['7d', 3_600_000],
      ['30d', 6 * 3_600_000],
    ] as const) {
      for (const [filter, keep] of [
        ['', () => true],
        ['&service=pay', (s: { service: string }) => s.service === 'pay'],
        ['&operation=GET%20%2Fcart', (s: { name: string }) => s.name === 'GET /cart'],
      ] as const) {
        const r = await admin.get(`/api/v1/metrics/series?range=${range}${filter}`, { host: host() });
        expect(r.status).toBe(200);
        expect(r.body.bucketMs).toBe(bucketMs);
        const mine = sent.filter((s) => keep(s));
        for (const p of r.body.current as Point[]) {
          const values = mine.filter((s) => s.startMs >= p.t && s.startMs < p.t + bucketMs).map((s) => s.durationMs);
          expect(p.requests).toBe(values.length);
          if (values.length === 0) continue;
          for (const [key, q] of [
            ['p50', 0.5],
            ['p95', 0.95],
            ['p99', 0.99],
          ] as const) {
            expect(within2(p[key]!, exactQuantile(values, q))).toBeLessThanOrEqual(0.02);
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);

    // The 30-day card (whole hours from the hourly tier) and the super admin's 30-day list.
    const all = sent.map((s) => s.durationMs);
    const month = await admin.get('/api/v1/api-intelligence/metrics/red?range=30d', { host: host() });
    expect(month.body.totalRequests).toBe(800);
    expect(within2(month.body.p95, exactQuantile(all, 0.95))).toBeLessThanOrEqual(0.02);
    const listed = await superAdmin.get('/api/v1/api-intelligence/metrics/red?range=30d');
    expect(within2(listed.body.find((r: { tenantId: string }) => r.tenantId === A.id).p95, exactQuantile(all, 0.95))).toBeLessThanOrEqual(
      0.02,
    );

    // The traces screen shows each request's own duration: the slowest ones, exactly.
    const slow = await admin.get('/api/v1/traces?min_duration_ms=8000&limit=200', { host: host() });
    expect(slow.status).toBe(200);
    const want = all.filter((d) => d >= 8000).sort((a, b) => b - a);
    const got = (slow.body.traces as Array<{ duration: number }>).map((x) => x.duration).sort((a, b) => b - a);
    expect(got).toHaveLength(want.length);
    got.forEach((d, i) => expect(d).toBeCloseTo(want[i], 1));
  });
});
