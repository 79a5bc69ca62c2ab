// The metrics and trace search calls on real databases, over spans stored through the span
// writer at known times: bucketed series (counts exact, p95 within 2 % of the exact value from
// the raw durations), the previous period, the service/operation filters, tenant isolation,
// the CSV export's right, flag and audit event; trace search filters and paging.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { SpanWriter } from '../../../src/server/telemetry/span-writer.ts';
import type { DecodedSpan } from '../../../src/server/telemetry/otlp-spans.ts';

const MIN = 60_000;
// A fixed clock, 30 minutes into an hour: the 1 h window's buckets are whole minutes.
const NOW = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 30 * MIN + 15_000;

function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
}
const relErr = (got: number, want: number) => Math.abs(got - want) / want;

let seq = 0;
function span(over: Partial<DecodedSpan> & { startMs: number }): DecodedSpan {
  seq++;
  const { startMs, ...rest } = over;
  return {
    trace_id: seq.toString(16).padStart(32, 'c'),
    span_id: seq.toString(16).padStart(16, '0'),
    parent_span_id: null,
    name: 'GET /cart',
    service: 'shop',
    kind: 2,
    start_us: startMs * 1000,
    duration_ms: 10,
    status_code: 0,
    http_status: 200,
    is_error: false,
    is_request: true,
    error_message: null,
    attributes: '{}',
    events: '[]',
    ...rest,
  };
}

/** 300 requests in one minute (8 minutes ago) with a spread of latencies; 30 of them failed. */
function busyMinute(): DecodedSpan[] {
  const start = NOW - 8 * MIN - (NOW % MIN);
  return Array.from({ length: 300 }, (_, i) =>
    span({
      startMs: start + i * 150,
      duration_ms: 5 + ((i * 7919) % 997) * 0.731,
      is_error: i % 10 === 0,
      status_code: i % 10 === 0 ? 2 : 0,
      name: i % 3 === 0 ? 'POST /pay' : 'GET /cart',
      service: i % 3 === 0 ? 'pay' : 'shop',
      attributes: JSON.stringify({ 'http.route': i % 3 === 0 ? '/pay' : '/cart', 'user.tier': i % 2 ? 'gold' : 'free' }),
    }),
  );
}

describe.each(DB_KINDS)('metrics series and trace search on %s', (db) => {
  let t: TestApp;
  let writer: SpanWriter;
  let A: { id: string; subdomain: string };
  let B: { id: string; subdomain: string };
  let admin: ApiClient;
  let viewer: ApiClient;
  let adminB: ApiClient;
  let superAdmin: ApiClient;
  const hostA = () => ({ host: `${A.subdomain}.localhost` });
  const hostB = () => ({ host: `${B.subdomain}.localhost` });
  const busy = busyMinute();
  // The previous hour: 40 requests of 100 ms, 4 failed.
  const earlier = Array.from({ length: 40 }, (_, i) =>
    span({ startMs: NOW - 75 * MIN + i * 1000, duration_ms: 100, is_error: i < 4, status_code: i < 4 ? 2 : 0 }),
  );
  // Company B: its own service, which A must never see.
  const other = Array.from({ length: 25 }, (_, i) => span({ startMs: NOW - 5 * MIN + i * 1000, service: 'b-secret', name: 'GET /b' }));
  // One trace with a request and two child spans (span count 3), 2 minutes ago.
  const root = span({ startMs: NOW - 2 * MIN, duration_ms: 1200, name: 'GET /slow', attributes: '{"http.route":"/slow"}' });
  const children = [1, 2].map((i) =>
    span({ startMs: NOW - 2 * MIN + i, trace_id: root.trace_id, parent_span_id: root.span_id, kind: 3, is_request: false, name: 'db' }),
  );

  beforeAll(async () => {
    t = await startTestApp({ db, now: () => NOW });
    A = await seedCompany(t.services, { name: 'Metric Co', plan: 'professional' });
    B = await seedCompany(t.services, { name: 'Other Co', plan: 'professional' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: A.id }), hostA().host);
    viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: A.id }), hostA().host);
    adminB = t.client();
    await signIn(adminB, await seedUser(t.services, { userType: 2, companyId: B.id }), hostB().host);
    superAdmin = t.client();
    await signIn(superAdmin, await seedUser(t.services, { userType: 1 }));
    writer = new SpanWriter(t.services.db);
    await writer.write(A.id, [...busy, ...earlier, root, ...children]);
    await writer.write(B.id, other);
  }, 60_000);
  afterAll(async () => {
    await writer?.close();
    await t?.close();
  });

  it('answers per-minute buckets for 1 h with exact counts and p50/p95/p99 within 2 % of the raw spans', async () => {
    const r = await admin.get('/api/v1/metrics/series?range=1h', hostA());
    expect(r.status).toBe(200);
    expect(r.body.bucketMs).toBe(MIN);
    expect(r.body.current).toHaveLength(60);
    expect(r.body.to).toBe(NOW - (NOW % MIN) + MIN);
    const total = r.body.current.reduce((n: number, p: { requests: number }) => n + p.requests, 0);
    expect(total).toBe(301); // the busy minute and the slow request; child spans are not requests
    const minute = r.body.current.find((p: { requests: number }) => p.requests === 300);
    expect(minute.t).toBe(NOW - 8 * MIN - (NOW % MIN));
    expect(minute.errors).toBe(30);
    expect(minute.errorRate).toBe(10);
    expect(minute.rate).toBe(5);
    const durations = busy.map((s) => s.duration_ms);
    for (const [q, key] of [
      [0.5, 'p50'],
      [0.95, 'p95'],
      [0.99, 'p99'],
    ] as const) {
      expect(relErr(minute[key], exactQuantile(durations, q))).toBeLessThanOrEqual(0.02);
    }
    // An empty bucket says so, rather than drawing 0 ms.
    expect(r.body.current[0]).toMatchObject({ requests: 0, p95: null, errorRate: null });
  });

  it('merges sketches per bucket for the longer ranges (24 h in 15 minutes, 30 d in 6 hours)', async () => {
    const day = await admin.get('/api/v1/metrics/series?range=24h', hostA());
    expect(day.body.bucketMs).toBe(15 * MIN);
    expect(day.body.current).toHaveLength(96);
    const month = await admin.get('/api/v1/metrics/series?range=30d', hostA());
    expect(month.body.bucketMs).toBe(6 * 60 * MIN);
    expect(month.body.current).toHaveLength(120);
    const last = month.body.current[month.body.current.length - 1];
    const inBucket = [...busy, ...earlier, root].filter((s) => s.start_us / 1000 >= last.t).map((s) => s.duration_ms);
    expect(last.requests).toBe(inBucket.length);
    expect(relErr(last.p95, exactQuantile(inBucket, 0.95))).toBeLessThanOrEqual(0.02);
  });

  it('draws the previous period beside the current one', async () => {
    const r = await admin.get('/api/v1/metrics/series?range=1h', hostA());
    expect(r.body.previous).toHaveLength(60);
    expect(r.body.previous[0].t).toBe(r.body.from - 60 * MIN);
    const prev = r.body.previous.filter((p: { requests: number }) => p.requests > 0);
    expect(prev.reduce((n: number, p: { requests: number }) => n + p.requests, 0)).toBe(40);
    expect(prev.reduce((n: number, p: { errors: number }) => n + p.errors, 0)).toBe(4);
    expect(prev.every((p: { p95: number }) => relErr(p.p95, 100) <= 0.02)).toBe(true);
  });

  it('filters by service and operation and lists the choices', async () => {
    const pay = await admin.get('/api/v1/metrics/series?range=1h&service=pay', hostA());
    const n = (r: { body: { current: Array<{ requests: number }> } }) => r.body.current.reduce((s, p) => s + p.requests, 0);
    expect(n(pay)).toBe(100);
    const cart = await viewer.get('/api/v1/metrics/series?range=1h&service=shop&operation=GET%20%2Fcart', hostA());
    expect(n(cart)).toBe(200);
    expect(pay.body.endpoints).toEqual([
      { service: 'pay', operation: 'POST /pay' },
      { service: 'shop', operation: 'GET /cart' },
      { service: 'shop', operation: 'GET /slow' },
    ]);
  });

  it('keeps companies apart; a super admin sees every company or the one chosen', async () => {
    const mine = await admin.get(`/api/v1/metrics/series?range=1h&tenant=${B.id}`, hostA());
    expect(mine.body.endpoints.map((e: { service: string }) => e.service)).not.toContain('b-secret');
    const theirs = await adminB.get('/api/v1/metrics/series?range=1h', hostB());
    expect(theirs.body.endpoints).toEqual([{ service: 'b-secret', operation: 'GET /b' }]);
    const total = (r: { body: { current: Array<{ requests: number }> } }) => r.body.current.reduce((s, p) => s + p.requests, 0);
    expect(total(theirs)).toBe(25);
    const all = await superAdmin.get('/api/v1/metrics/series?range=1h');
    expect(total(all)).toBe(326);
    const chosen = await superAdmin.get(`/api/v1/metrics/series?range=1h&tenant=${A.id}`);
    expect(total(chosen)).toBe(301);
    expect((await superAdmin.get('/api/v1/metrics/series?range=1h&tenant=nope')).status).toBe(404);
    expect((await t.client().get('/api/v1/metrics/series?range=1h')).status).toBe(401);
  });

  it('exports CSV only for super admins while ENABLE_GLOBAL_EXPORT is on, and audits it', async () => {
    expect((await superAdmin.get('/api/v1/metrics/export?range=1h')).status).toBe(403); // flag off by default
    expect((await superAdmin.put('/api/v1/admin/flags', { ENABLE_GLOBAL_EXPORT: true })).status).toBe(200);
    expect((await admin.get('/api/v1/metrics/export?range=1h', hostA())).status).toBe(403);
    expect((await viewer.get('/api/v1/metrics/export?range=1h', hostA())).status).toBe(403);
    const r = await superAdmin.get(`/api/v1/metrics/export?range=1h&tenant=${A.id}&service=pay`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = r.text.trim().split('\r\n');
    expect(lines[0]).toBe('period,bucket_start,requests,errors,rate_per_s,error_rate_pct,p50_ms,p95_ms,p99_ms');
    expect(lines).toHaveLength(121);
    const busyRow = lines.find((l) => l.startsWith('current,') && l.split(',')[2] === '100');
    expect(busyRow).toBeDefined();
    const audit = await superAdmin.get('/api/v1/admin/audit?event=metrics_export');
    expect(audit.status).toBe(200);
    const events = audit.body.items;
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ event: 'metrics_export' });
    expect(JSON.stringify(events[0])).toContain(A.id);
  });

  it('searches traces by service, operation, status, duration, time range and attribute', async () => {
    const ids = (r: { body: { traces: Array<{ traceId: string }> } }) => r.body.traces.map((x) => x.traceId);
    const slow = await viewer.get('/api/v1/traces?min_duration_ms=1000', hostA());
    expect(slow.status).toBe(200);
    expect(slow.body.traces).toEqual([
      expect.objectContaining({
        traceId: root.trace_id,
        service: 'shop',
        operation: 'GET /slow',
        duration: 1200,
        status: 'ok',
        spanCount: 3,
      }),
    ]);
    const errors = await admin.get('/api/v1/traces?status=error&service=pay&limit=200', hostA());
    expect(errors.body.traces).toHaveLength(10);
    expect(errors.body.traces.every((x: { status: string; service: string }) => x.status === 'error' && x.service === 'pay')).toBe(true);
    const ok = await admin.get('/api/v1/traces?status=ok&operation=POST%20%2Fpay&limit=200', hostA());
    expect(ok.body.traces).toHaveLength(90);
    const gold = await admin.get(`/api/v1/traces?attr=${encodeURIComponent('user.tier=gold')}&limit=200`, hostA());
    expect(gold.body.traces).toHaveLength(150);
    const route = await admin.get(`/api/v1/traces?attr=${encodeURIComponent('http.route=/slow')}`, hostA());
    expect(ids(route)).toEqual([root.trace_id]);
    const from = new Date(NOW - 80 * MIN).toISOString();
    const to = new Date(NOW - 70 * MIN).toISOString();
    const old = await admin.get(`/api/v1/traces?from=${from}&to=${to}&limit=200`, hostA());
    expect(old.body.traces).toHaveLength(40); // the previous hour's requests, 75 minutes ago
  });

  it('pages by time without gaps or repeats, and never shows another company', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = `/api/v1/traces?limit=64&from=${new Date(NOW - 2 * 60 * MIN).toISOString()}${cursor ? `&cursor=${cursor}` : ''}`;
      const r = await admin.get(q, hostA());
      expect(r.status).toBe(200);
      for (const x of r.body.traces) seen.push(x.id);
      const starts = r.body.traces.map((x: { timestamp: string }) => Date.parse(x.timestamp));
      expect([...starts].sort((a, b) => b - a)).toEqual(starts);
      cursor = r.body.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(seen).toHaveLength(341);
    expect(new Set(seen).size).toBe(341);
    const theirs = await adminB.get(`/api/v1/traces?tenant=${A.id}&limit=200`, hostB());
    expect(theirs.body.traces.every((x: { service: string }) => x.service === 'b-secret')).toBe(true);
    const all = await superAdmin.get('/api/v1/traces?service=b-secret&limit=200');
    expect(all.body.traces).toHaveLength(25);
    expect((await admin.get('/api/v1/traces?attr=bad%20key', hostA())).status).toBe(400);
    expect((await admin.get('/api/v1/traces?cursor=zzz', hostA())).status).toBe(400);
    expect(
      (await admin.get(`/api/v1/traces?from=${new Date(NOW).toISOString()}&to=${new Date(NOW - MIN).toISOString()}`, hostA())).status,
    ).toBe(400);
  });
});
