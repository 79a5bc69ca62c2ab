// The API intelligence inventory on both databases, over spans sent through the real ingest path
// with the OpenTelemetry SDK: endpoints named by http.route, url.template or a normalised path,
// exact counts, rates and status codes, p50/p95/p99 within 2 % of the raw durations, the
// endpoints new in the range, the slowest and the most failing, the change against the
// previous period, and who sees what (company admin, viewer, super admin, the feature flag).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind } from '@opentelemetry/api';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { sendWithSdk, type PlannedSpan } from './otel-sdk.ts';

const MIN = 60_000;
// A fixed clock 30 minutes into an hour: the 1 h window is [NOW's minute + 1 - 60 min, …).
const NOW = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 30 * MIN + 15_000;
const TO = NOW - (NOW % MIN) + MIN;
const FROM = TO - 60 * MIN;

function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
}
const relErr = (got: number, want: number) => Math.abs(got - want) / want;

// GET /users/{id}, named only by its paths: 200 requests in the last 50 minutes (180 answered
// 200, 10 answered 404, 10 answered 500) and 100 in the hour before (2 answered 500), 50 ms each.
const usersNow: PlannedSpan[] = Array.from({ length: 200 }, (_, i) => ({
  name: 'GET',
  kind: SpanKind.SERVER,
  startMs: NOW - 50 * MIN + i * 15_000,
  durationMs: 8 + ((i * 7919) % 613) * 0.97,
  httpStatus: i % 20 === 0 ? 500 : i % 20 === 1 ? 404 : 200,
  attributes: { 'http.request.method': 'GET', 'url.path': `/users/${1000 + i}` },
  children: [
    // An outgoing call with HTTP attributes of its own: not an endpoint of this service.
    {
      name: 'GET',
      kind: SpanKind.CLIENT,
      startMs: NOW - 50 * MIN + i * 15_000 + 1,
      durationMs: 2,
      attributes: { 'http.request.method': 'GET', 'url.full': 'http://db.test/x/1' },
    },
  ],
}));
const usersBefore: PlannedSpan[] = Array.from({ length: 100 }, (_, i) => ({
  name: 'GET',
  kind: SpanKind.SERVER,
  startMs: FROM - 55 * MIN + i * 30_000,
  durationMs: 50,
  httpStatus: i < 2 ? 500 : 200,
  attributes: { 'http.method': 'get', 'http.target': `/users/${7 + i}?expand=1` },
}));
// POST /carts/:id by http.route: 40 requests, 4 with span status ERROR; it was also called
// three hours ago (seen before, but not in the previous period).
const cartsNow: PlannedSpan[] = Array.from({ length: 40 }, (_, i) => ({
  name: 'POST /carts/:id',
  kind: SpanKind.SERVER,
  startMs: NOW - 40 * MIN + i * 30_000,
  durationMs: 30 + i,
  error: i % 10 === 0,
  httpStatus: 201,
  attributes: { 'http.request.method': 'POST', 'http.route': '/carts/:id', 'url.path': `/carts/${i}` },
}));
const cartsLongAgo: PlannedSpan = { ...cartsNow[1], startMs: NOW - 180 * MIN };
// GET /reports/{year} by url.template: new 10 minutes ago, slow.
const reportsNew: PlannedSpan[] = Array.from({ length: 5 }, (_, i) => ({
  name: 'GET /reports',
  kind: SpanKind.SERVER,
  startMs: NOW - 10 * MIN + i * 1000,
  durationMs: 900 + i * 10,
  httpStatus: 200,
  attributes: { 'http.request.method': 'GET', 'url.template': '/reports/{year}', 'url.path': '/reports/2026' },
}));
// A root span that is no HTTP request: in RED, never in the inventory.
const job: PlannedSpan = { name: 'nightly-job', kind: SpanKind.INTERNAL, startMs: NOW - 5 * MIN, durationMs: 5000 };
const secret: PlannedSpan[] = Array.from({ length: 25 }, (_, i) => ({
  name: 'GET /b-secret',
  kind: SpanKind.SERVER,
  startMs: NOW - 5 * MIN + i * 1000,
  durationMs: 5,
  httpStatus: 200,
  attributes: { 'http.request.method': 'GET', 'http.route': '/b-secret' },
}));

interface Row {
  tenantId: string;
  tenantName: string | null;
  service: string;
  method: string;
  route: string;
  [k: string]: unknown;
}
const find = (rows: Row[], method: string, route: string) => rows.find((r) => r.method === method && r.route === route);

describe.each(DB_KINDS)('API intelligence on %s', (db) => {
  let t: TestApp;
  let A: { id: string; subdomain: string };
  let B: { id: string; subdomain: string };
  let admin: ApiClient;
  let viewer: ApiClient;
  let adminB: ApiClient;
  let superAdmin: ApiClient;
  const hostA = () => ({ host: `${A.subdomain}.localhost` });
  const hostB = () => ({ host: `${B.subdomain}.localhost` });

  beforeAll(async () => {
    t = await startTestApp({ db, now: () => NOW });
    A = await seedCompany(t.services, { name: 'Endpoint Co', plan: 'professional' });
    B = await seedCompany(t.services, { name: 'Other Co', plan: 'professional' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: A.id }), hostA().host);
    viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: A.id }), hostA().host);
    adminB = t.client();
    await signIn(adminB, await seedUser(t.services, { userType: 2, companyId: B.id }), hostB().host);
    superAdmin = t.client();
    await signIn(superAdmin, await seedUser(t.services, { userType: 1 }));
    const keyA = (await admin.post('/api/v1/api-keys', { name: 'a', scope: 'ingest' }, hostA())).body.key;
    const keyB = (await adminB.post('/api/v1/api-keys', { name: 'b', scope: 'ingest' }, hostB())).body.key;
    const url = `${t.baseUrl}/v1/traces`;
    // In several exports, both encodings: minute rows are merged on write.
    await sendWithSdk({
      url,
      key: keyA,
      format: 'protobuf',
      resource: { 'service.name': 'shop' },
      roots: usersNow.filter((_, i) => i % 2 === 0),
    });
    await sendWithSdk({
      url,
      key: keyA,
      format: 'json',
      resource: { 'service.name': 'shop' },
      roots: usersNow.filter((_, i) => i % 2 === 1),
    });
    await sendWithSdk({ url, key: keyA, format: 'protobuf', resource: { 'service.name': 'shop' }, roots: [...usersBefore, job] });
    await sendWithSdk({
      url,
      key: keyA,
      format: 'json',
      resource: { 'service.name': 'carts' },
      roots: [cartsLongAgo, ...cartsNow, ...reportsNew],
    });
    await sendWithSdk({ url, key: keyB, format: 'protobuf', resource: { 'service.name': 'b-service' }, roots: secret });
  }, 120_000);
  afterAll(async () => t?.close());

  it('lists each endpoint once with exact counts, rate and status codes, percentiles within 2 %', async () => {
    const r = await admin.get('/api/v1/api-intelligence?range=1h', hostA());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ range: '1h', from: FROM, to: TO, previousFrom: FROM - 60 * MIN, truncated: false });
    const rows: Row[] = r.body.endpoints;
    expect(rows.map((e) => `${e.service} ${e.method} ${e.route}`)).toEqual([
      'shop GET /users/{id}',
      'carts POST /carts/:id',
      'carts GET /reports/{year}',
    ]);
    const users = find(rows, 'GET', '/users/{id}')!;
    expect(users).toMatchObject({
      tenantId: A.id,
      tenantName: 'Endpoint Co',
      requests: 200,
      errors: 10,
      rate: Math.round((200 / 3600) * 10_000) / 10_000,
      errorRate: 5,
      statusClasses: { '2xx': 180, '3xx': 0, '4xx': 10, '5xx': 10 },
      topCodes: [
        { code: 200, count: 180 },
        { code: 404, count: 10 },
        { code: 500, count: 10 },
      ],
      isNew: false,
      firstSeen: usersBefore[0].startMs - (usersBefore[0].startMs % MIN),
    });
    const durations = usersNow.map((s) => s.durationMs);
    for (const [q, key] of [
      [0.5, 'p50'],
      [0.95, 'p95'],
      [0.99, 'p99'],
    ] as const) {
      expect(relErr(users[key] as number, exactQuantile(durations, q)), key).toBeLessThanOrEqual(0.02);
    }
    expect(users.avgMs).toBeCloseTo(durations.reduce((a, b) => a + b, 0) / 200, 1);
    const carts = find(rows, 'POST', '/carts/:id')!;
    expect(carts).toMatchObject({ service: 'carts', requests: 40, errors: 4, errorRate: 10, statusClasses: { '2xx': 40, '5xx': 0 } });
    expect(
      relErr(
        carts.p95 as number,
        exactQuantile(
          cartsNow.map((s) => s.durationMs),
          0.95,
        ),
      ),
    ).toBeLessThanOrEqual(0.02);
  });

  it('names the new, the slowest and the most failing endpoints', async () => {
    const r = await viewer.get('/api/v1/api-intelligence?range=1h', hostA());
    expect(r.status).toBe(200);
    const label = (e: Row) => `${e.method} ${e.route}`;
    expect(r.body.newEndpoints.map(label)).toEqual(['GET /reports/{year}']);
    expect(r.body.newEndpoints[0].firstSeen).toBe(reportsNew[0].startMs - (reportsNew[0].startMs % MIN));
    expect(r.body.slowest.map(label)).toEqual(['GET /reports/{year}', 'GET /users/{id}', 'POST /carts/:id']);
    expect(r.body.mostFailing.map(label)).toEqual(['POST /carts/:id', 'GET /users/{id}']);
    // Over 24 h the carts endpoint is still not new: it was first seen three hours ago.
    const day = await viewer.get('/api/v1/api-intelligence?range=24h', hostA());
    // 24 hours end with the hour that holds now (whole hours: the hourly rollups answer).
    expect(day.body.to).toBe(NOW - (NOW % 3_600_000) + 3_600_000);
    expect(day.body.to - day.body.from).toBe(24 * 3_600_000);
    expect(day.body.newEndpoints.map(label).sort()).toEqual(['GET /reports/{year}', 'GET /users/{id}', 'POST /carts/:id']);
    const hour = find(r.body.endpoints, 'POST', '/carts/:id')!;
    expect(hour.firstSeen).toBe(cartsLongAgo.startMs - (cartsLongAgo.startMs % MIN));
  });

  it('compares latency and errors with the previous period of the same length', async () => {
    const r = await admin.get('/api/v1/api-intelligence?range=1h', hostA());
    const users = find(r.body.endpoints, 'GET', '/users/{id}')!;
    const prev = users.previous as { requests: number; errorRate: number; p95: number };
    expect(prev.requests).toBe(100);
    expect(prev.errorRate).toBe(2);
    expect(relErr(prev.p95, 50)).toBeLessThanOrEqual(0.02);
    expect(users.errorRateChange).toBe(3);
    const exactChange =
      ((exactQuantile(
        usersNow.map((s) => s.durationMs),
        0.95,
      ) -
        50) /
        50) *
      100;
    expect(Math.abs((users.p95ChangePct as number) - exactChange)).toBeLessThanOrEqual(exactChange * 0.05);
    expect(users.p95ChangePct).toBe(Math.round((((users.p95 as number) - prev.p95) / prev.p95) * 1000) / 10);
    // No requests in the previous hour: no change to show.
    const carts = find(r.body.endpoints, 'POST', '/carts/:id')!;
    expect(carts).toMatchObject({ previous: null, p95ChangePct: null, errorRateChange: null });
  });

  it('reads 30 days from the hourly rows with the same counts and percentiles', async () => {
    const r = await admin.get('/api/v1/api-intelligence?range=30d', hostA());
    expect(r.status).toBe(200);
    const users = find(r.body.endpoints, 'GET', '/users/{id}')!;
    const all = [...usersNow, ...usersBefore].map((s) => s.durationMs);
    expect(users).toMatchObject({ requests: 300, errors: 12, statusClasses: { '2xx': 278, '4xx': 10, '5xx': 12 } });
    expect(relErr(users.p95 as number, exactQuantile(all, 0.95))).toBeLessThanOrEqual(0.02);
    expect(relErr(users.p99 as number, exactQuantile(all, 0.99))).toBeLessThanOrEqual(0.02);
    expect(find(r.body.endpoints, 'POST', '/carts/:id')!.requests).toBe(41);
  });

  it('keeps companies apart; a super admin sees every company or the one chosen', async () => {
    const mine = await admin.get(`/api/v1/api-intelligence?range=1h&tenant=${B.id}`, hostA());
    expect(mine.status).toBe(200);
    expect(mine.body.endpoints.every((e: Row) => e.tenantId === A.id)).toBe(true);
    expect(JSON.stringify(mine.body)).not.toContain('b-secret');
    const theirs = await adminB.get('/api/v1/api-intelligence?range=1h', hostB());
    expect(theirs.body.endpoints.map((e: Row) => `${e.service} ${e.method} ${e.route} ${e.requests}`)).toEqual([
      'b-service GET /b-secret 25',
    ]);
    const all = await superAdmin.get('/api/v1/api-intelligence?range=1h');
    expect(all.status).toBe(200);
    expect(all.body.endpoints).toHaveLength(4);
    expect(find(all.body.endpoints, 'GET', '/b-secret')).toMatchObject({ tenantId: B.id, tenantName: 'Other Co', requests: 25 });
    const chosen = await superAdmin.get(`/api/v1/api-intelligence?range=1h&tenant=${B.id}`);
    expect(chosen.body.endpoints.map((e: Row) => e.route)).toEqual(['/b-secret']);
    expect((await superAdmin.get('/api/v1/api-intelligence?range=1h&tenant=nope')).status).toBe(404);
    expect((await t.client().get('/api/v1/api-intelligence')).status).toBe(401);
    expect((await admin.get('/api/v1/api-intelligence?range=2h', hostA())).status).toBe(400);
  });

  it('answers 403 to everyone while ENABLE_API_INTELLIGENCE is off', async () => {
    expect((await superAdmin.put('/api/v1/admin/flags', { ENABLE_API_INTELLIGENCE: false })).status).toBe(200);
    try {
      const r = await viewer.get('/api/v1/api-intelligence', hostA());
      expect(r.status).toBe(403);
      expect(r.body.detail).toMatch(/the “API intelligence” feature flag/);
      expect((await superAdmin.get('/api/v1/api-intelligence')).status).toBe(403);
    } finally {
      await superAdmin.put('/api/v1/admin/flags', { ENABLE_API_INTELLIGENCE: true });
    }
  });
});
