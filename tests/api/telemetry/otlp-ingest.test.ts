// OTLP ingest end to end: the real OpenTelemetry SDK exports (protobuf and JSON, gzip) to a
// running server; RED figures, error traces and whole traces read back through the API equal
// an oracle computed from the spans sent. Tenancy, bad keys and hostile bodies each get their
// documented answer and write nothing. Every response goes through the contract harness.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { SpanKind } from '@opentelemetry/api';
import { sql } from 'kysely';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { sendWithSdk, type PlannedSpan, type SentSpan } from './otel-sdk.ts';

const isRequest = (s: SentSpan) => s.kind === SpanKind.SERVER || s.kind === SpanKind.CONSUMER || s.parentSpanId === null;
const isError = (s: SentSpan) => Boolean(s.error) || (s.httpStatus ?? 0) >= 500;

/** Error traces as a reader expects them: one per trace, newest failure first, shown by its failed request if any. */
function errorTraces(sent: SentSpan[]): SentSpan[] {
  const errors = sent.filter(isError).sort((a, b) => b.startMs - a.startMs || a.spanId.localeCompare(b.spanId));
  const byTrace = new Map<string, SentSpan>();
  for (const s of errors) {
    const have = byTrace.get(s.traceId);
    const better = !have || (isRequest(s) && !isRequest(have)) || (isRequest(s) === isRequest(have) && s.startMs < have.startMs);
    if (better) byTrace.set(s.traceId, s);
  }
  return [...byTrace.values()];
}

function oracle(sent: SentSpan[]) {
  const req = sent.filter(isRequest);
  const durations = req.map((s) => s.durationMs).sort((a, b) => a - b);
  const p95 = durations[Math.max(1, Math.ceil(0.95 * durations.length)) - 1];
  const errors = req.filter(isError).length;
  return {
    totalRequests: req.length,
    errorRate: (errors / req.length) * 100,
    p95,
    avg: req.reduce((a, s) => a + s.durationMs, 0) / req.length,
  };
}

/** Deterministic traffic: roots (server spans) with client and internal children. */
function plan(now: number, n: number, seed: number): PlannedSpan[] {
  let x = seed;
  const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
  const roots: PlannedSpan[] = [];
  for (let i = 0; i < n; i++) {
    const startMs = now - 90 * 60_000 + i * 1000 + Math.floor(rnd() * 500);
    const durationMs = Math.round(rnd() * 1200 * 10) / 10 + 0.5;
    const kind = i % 10 === 9 ? SpanKind.CONSUMER : SpanKind.SERVER;
    const error = rnd() < 0.12;
    const http = !error && rnd() < 0.05 ? 503 : rnd() < 0.1 ? 404 : 200;
    roots.push({
      name: i % 3 === 0 ? 'GET /checkout' : 'POST /orders',
      kind,
      startMs,
      durationMs,
      error,
      errorMessage: error ? `payment declined #${i}` : undefined,
      httpStatus: http,
      children: [
        { name: 'SELECT orders', kind: SpanKind.CLIENT, startMs: startMs + 0.25, durationMs: durationMs / 3, error: i % 7 === 0 },
        { name: 'render', kind: SpanKind.INTERNAL, startMs: startMs + durationMs / 2, durationMs: durationMs / 4 },
      ],
    });
  }
  return roots;
}

describe.each(DB_KINDS)('OTLP ingest, RED and traces on %s', (db) => {
  let t: TestApp;
  let A: { id: string; subdomain: string };
  let B: { id: string; subdomain: string };
  let admin: ApiClient;
  let adminB: ApiClient;
  let viewer: ApiClient;
  let superAdmin: ApiClient;
  let keyA: string;
  let keyB: string;
  let sentA: SentSpan[] = [];
  let sentB: SentSpan[] = [];
  const hostA = () => `${A.subdomain}.localhost`;
  const hostB = () => `${B.subdomain}.localhost`;
  const otlpUrl = () => `${t.baseUrl}/v1/traces`;
  const spanCount = async () =>
    Number(
      (
        await t.services.db.k
          .selectFrom('spans')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const rollupSum = async () =>
    Number(
      (
        await t.services.db.k
          .selectFrom('red_rollups')
          .select((eb) => eb.fn.sum<number>('requests').as('n'))
          .executeTakeFirstOrThrow()
      ).n ?? 0,
    );

  beforeAll(async () => {
    t = await startTestApp({ db });
    A = await seedCompany(t.services, { name: 'Acme Shop' });
    B = await seedCompany(t.services, { name: 'Bolt Ltd', plan: 'professional' });
    const ua = await seedUser(t.services, { userType: 2, companyId: A.id });
    const ub = await seedUser(t.services, { userType: 2, companyId: B.id });
    const uv = await seedUser(t.services, { userType: 3, companyId: A.id });
    const us = await seedUser(t.services, { userType: 1 });
    admin = t.client();
    await signIn(admin, ua, hostA());
    adminB = t.client();
    await signIn(adminB, ub, hostB());
    viewer = t.client();
    await signIn(viewer, uv, hostA());
    superAdmin = t.client();
    await signIn(superAdmin, us);
  }, 60_000);
  afterAll(async () => t?.close());

  it('manages ingest keys: the secret once, hashed at rest, per company', async () => {
    const created = await admin.post('/api/v1/api-keys', { name: 'checkout prod', scope: 'ingest' }, { host: hostA() });
    expect(created.status).toBe(201);
    keyA = created.body.key;
    expect(keyA).toMatch(/^sw_live_[A-Za-z0-9_-]{32}$/);
    expect(created.body).toMatchObject({
      name: 'checkout prod',
      scope: 'ingest',
      company_id: A.id,
      prefix: keyA.slice(0, 12),
      last_used_at: null,
    });

    const stored = await t.services.db.k.selectFrom('api_keys').selectAll().where('id', '=', created.body.id).executeTakeFirstOrThrow();
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(keyA);

    const list = await admin.get('/api/v1/api-keys', { host: hostA() });
    expect(list.status).toBe(200);
    expect(list.body.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
    expect(list.text).not.toContain(keyA);

    // Viewers read but do not create; a super admin must name the company.
    expect((await viewer.post('/api/v1/api-keys', { name: 'x', scope: 'ingest' }, { host: hostA() })).status).toBe(403);
    expect((await viewer.get('/api/v1/api-keys', { host: hostA() })).status).toBe(200);
    expect((await superAdmin.post('/api/v1/api-keys', { name: 'x', scope: 'ingest' })).status).toBe(400);
    const forB = await superAdmin.post('/api/v1/api-keys', { name: 'bolt', scope: 'ingest', company_id: B.id });
    expect(forB.status).toBe(201);
    keyB = forB.body.key;
    // A company admin's company_id is ignored: the key is for their own company.
    const own = await admin.post('/api/v1/api-keys', { name: 'sneaky', scope: 'ingest', company_id: B.id }, { host: hostA() });
    expect(own.body.company_id).toBe(A.id);
    // Another company's key is not found; revoking is allowed to company admins (update right).
    expect((await admin.delete(`/api/v1/api-keys/${forB.body.id}`, { host: hostA() })).status).toBe(404);
    expect((await admin.delete(`/api/v1/api-keys/${own.body.id}`, { host: hostA() })).status).toBe(204);
    expect((await admin.get('/api/v1/api-keys', { host: hostA() })).body.map((k: { id: string }) => k.id)).toEqual([created.body.id]);
    const all = await superAdmin.get('/api/v1/api-keys');
    expect(all.body.map((k: { company_id: string }) => k.company_id).sort()).toEqual([A.id, B.id].sort());
    // The revoked key no longer ingests.
    const r = await t.client().request('POST', '/v1/traces', {
      raw: '{}',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${own.body.key}` },
    });
    expect(r.status).toBe(401);
  });

  it('ingests protobuf (gzip) and JSON exports of the real SDK; RED equals the oracle', async () => {
    const now = Date.now();
    const roots = plan(now, 160, 7);
    sentA = [
      ...(await sendWithSdk({
        url: otlpUrl(),
        key: keyA,
        format: 'protobuf',
        gzip: true,
        resource: { 'service.name': 'checkout' },
        roots: roots.slice(0, 80),
      })),
      ...(await sendWithSdk({ url: otlpUrl(), key: keyA, format: 'json', resource: { 'service.name': 'orders' }, roots: roots.slice(80) })),
    ];
    expect(sentA.length).toBe(480);
    expect(await spanCount()).toBe(480);

    const o = oracle(sentA);
    const red = await admin.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: hostA() });
    expect(red.status).toBe(200);
    expect(red.body.totalRequests).toBe(o.totalRequests);
    expect(red.body.totalRequests).toBe(160);
    expect(red.body.errorRate).toBeCloseTo(o.errorRate, 9);
    expect(Math.abs(red.body.p95 - o.p95) / o.p95).toBeLessThanOrEqual(0.02); // the sketch's promise
    expect(red.body.avgResponseTime).toBeCloseTo(o.avg, 1);
    expect(red.body.rps).toBeCloseTo(160 / 86400, 4);
    expect(red.body.uptime).toBeNull();

    // The last hour holds only the requests that started in it.
    const lastHour = await admin.get('/api/v1/api-intelligence/metrics/red?range=1h', { host: hostA() });
    const inHour = sentA.filter((s) => isRequest(s) && s.startMs >= now - 3_600_000 - 60_000);
    expect(lastHour.body.totalRequests).toBe(inHour.length);
  });

  it('lists error traces newest first and returns a whole trace for the waterfall', async () => {
    const res = await admin.get('/api/v1/traces/search?error=true&limit=10', { host: hostA() });
    expect(res.status).toBe(200);
    const expected = errorTraces(sentA).slice(0, 10);
    expect(res.body.map((x: { id: string }) => x.id)).toEqual(expected.map((s) => s.spanId));
    expect(new Set(res.body.map((x: { traceId: string }) => x.traceId)).size).toBe(res.body.length); // a trace once
    // traces where a request and a call under it both failed exist in the data: they are shown once
    expect(errorTraces(sentA).length).toBeLessThan(sentA.filter(isError).length);
    const first = res.body[0];
    const firstSent = expected[0];
    expect(first).toMatchObject({ traceId: firstSent.traceId, service: firstSent.service, operation: firstSent.name, status: 'error' });
    expect(first.duration).toBeCloseTo(firstSent.durationMs, 2);
    expect(first.timestamp).toBe(new Date(Math.floor(firstSent.startMs)).toISOString());
    if (firstSent.errorMessage) expect(first.errorMessage).toBe(firstSent.errorMessage);

    const filtered = await admin.get('/api/v1/traces/search?error=true&limit=200&operation=GET%20%2Fcheckout&service=checkout', {
      host: hostA(),
    });
    expect(filtered.body.length).toBe(errorTraces(sentA.filter((s) => s.name === 'GET /checkout' && s.service === 'checkout')).length);

    const root = sentA.find((s) => s.parentSpanId === null && s.error)!;
    const tr = await admin.get(`/api/v1/traces/${root.traceId}`, { host: hostA() });
    expect(tr.status).toBe(200);
    expect(tr.body).toMatchObject({ traceId: root.traceId, service: root.service, operation: root.name, spanCount: 3 });
    const byId = new Map(tr.body.spans.map((s: { spanId: string }) => [s.spanId, s]));
    for (const s of sentA.filter((x) => x.traceId === root.traceId)) {
      const got = byId.get(s.spanId) as Record<string, unknown>;
      expect(got).toMatchObject({ parentSpanId: s.parentSpanId, name: s.name, service: s.service });
      expect(got.startOffset as number).toBeCloseTo(s.startMs - root.startMs, 2);
      expect(got.duration as number).toBeCloseTo(s.durationMs, 2);
    }
    expect(tr.body.spans[0]).toMatchObject({
      spanId: root.spanId,
      kind: root.kind === SpanKind.CONSUMER ? 'consumer' : 'server',
      status: 'error',
      errorMessage: root.errorMessage,
    });
    expect((await admin.get('/api/v1/traces/0123456789abcdef0123456789abcdef', { host: hostA() })).status).toBe(404);
  });

  it('keeps companies apart whatever the span attributes say', async () => {
    const before = await admin.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: hostA() });
    sentB = await sendWithSdk({
      url: otlpUrl(),
      key: keyB,
      format: 'protobuf',
      resource: { 'service.name': 'checkout', 'tenant.id': A.id, company_id: A.id, 'statuswatch.company': A.subdomain },
      roots: plan(Date.now(), 20, 99).map((r) => ({ ...r, error: true, errorMessage: 'bolt failure' })),
    });
    const after = await admin.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: hostA() });
    expect(after.body).toEqual(before.body);
    const redB = await adminB.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: hostB() });
    expect(redB.body.totalRequests).toBe(20);
    expect(redB.body.errorRate).toBe(100);
    // A cannot read B's trace nor see B's errors; B sees only its own.
    expect((await admin.get(`/api/v1/traces/${sentB[0].traceId}`, { host: hostA() })).status).toBe(404);
    const errA = await admin.get('/api/v1/traces/search?error=true&limit=200', { host: hostA() });
    expect(errA.body.some((x: { errorMessage: string }) => x.errorMessage === 'bolt failure')).toBe(false);
    // A company user's tenant= is ignored.
    const sneaky = await admin.get(`/api/v1/traces/search?error=true&limit=200&tenant=${B.id}`, { host: hostA() });
    expect(sneaky.body).toEqual(errA.body);
    const errB = await adminB.get('/api/v1/traces/search?error=true&limit=200', { host: hostB() });
    expect(new Set(errB.body.map((x: { traceId: string }) => x.traceId))).toEqual(new Set(sentB.filter(isError).map((s) => s.traceId)));

    // Super admin: companies by error rate, and one company's figures with tenant=.
    const list = await superAdmin.get('/api/v1/api-intelligence/metrics/red?range=24h&top=5');
    expect(list.status).toBe(200);
    expect(list.body.map((x: { tenantId: string }) => x.tenantId)).toEqual([B.id, A.id]);
    expect(list.body[0]).toMatchObject({ tenantName: 'Bolt Ltd', totalRequests: 20, errorRate: 100 });
    expect(list.body[1].errorRate).toBeCloseTo(oracle(sentA).errorRate, 9);
    expect((await superAdmin.get('/api/v1/api-intelligence/metrics/red?range=24h&top=1')).body.length).toBe(1);
    const one = await superAdmin.get(`/api/v1/api-intelligence/metrics/red?range=24h&tenant=${A.id}`);
    expect(one.body).toEqual(after.body);
    const trB = await superAdmin.get(`/api/v1/traces/${sentB[0].traceId}`);
    expect(trB.status).toBe(200);
    expect((await superAdmin.get('/api/v1/api-intelligence/metrics/red?range=24h&tenant=no-such-company')).status).toBe(404);

    // An ingest key reads nothing: the read calls need a signed-in user.
    for (const path of [
      '/api/v1/traces/search?error=true',
      `/api/v1/traces/${sentA[0].traceId}`,
      '/api/v1/api-intelligence/metrics/red',
      '/api/v1/api-keys',
    ]) {
      expect((await t.client().get(path, { host: hostA(), headers: { authorization: `Bearer ${keyA}` } })).status, path).toBe(401);
    }
    // Viewers read RED and traces but cannot revoke keys.
    expect((await viewer.get('/api/v1/api-intelligence/metrics/red?range=24h', { host: hostA() })).body).toEqual(after.body);
    expect((await viewer.get('/api/v1/traces/search?error=true&limit=200', { host: hostA() })).body).toEqual(errA.body);
    const keys = (await viewer.get('/api/v1/api-keys', { host: hostA() })).body;
    expect((await viewer.delete(`/api/v1/api-keys/${keys[0].id}`, { host: hostA() })).status).toBe(403);
  });

  it('answers bad keys, hostile and malformed bodies as documented and writes nothing', async () => {
    const spans = await spanCount();
    const rollups = await rollupSum();
    const c = t.client();
    const post = (raw: string | Uint8Array, headers: Record<string, string>) => c.request('POST', '/v1/traces', { raw, headers });
    const json = (o: unknown) => JSON.stringify(o);
    const oneSpan = (traceId: string) => ({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'x' } }] },
          scopeSpans: [
            {
              spans: [
                {
                  traceId,
                  spanId: '00000000000000a1',
                  name: 'GET /',
                  kind: 2,
                  startTimeUnixNano: String(Date.now() * 1e6),
                  endTimeUnixNano: String(Date.now() * 1e6 + 5e6),
                },
              ],
            },
          ],
        },
      ],
    });
    const good = json(oneSpan('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'));

    for (const authorization of [undefined, 'Bearer sw_live_unknownunknownunknownunknown12', `Basic ${keyA}`, `Bearer ${keyA}x`]) {
      const r = await post(good, { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) });
      expect(r.status, String(authorization)).toBe(401);
      expect(r.body.detail).toBe('Invalid or missing API key. Send it as Authorization: Bearer <key>.');
    }
    const auth = { authorization: `Bearer ${keyA}` };
    expect((await post(good, { ...auth })).status).toBe(415);
    expect((await post(good, { ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    expect(
      (await post(brotliCompressSync(Buffer.from(good)), { ...auth, 'content-type': 'application/json', 'content-encoding': 'br' })).status,
    ).toBe(415);
    expect((await post(good, { ...auth, 'content-type': 'application/json', 'content-encoding': 'deflate' })).status).toBe(415);
    expect((await post('{"resourceSpans": [', { ...auth, 'content-type': 'application/json' })).status).toBe(400);
    expect(
      (await post(Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x01]), { ...auth, 'content-type': 'application/x-protobuf' })).status,
    ).toBe(400);
    expect((await post(Buffer.from('not gzip'), { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' })).status).toBe(
      400,
    );

    // 21 MiB as sent, and a gzip bomb: 64 KiB on the wire, 40 MiB once inflated.
    const big = Buffer.alloc(21 * 1024 * 1024, 0x20);
    const tooBig = await post(big, { ...auth, 'content-type': 'application/json' });
    expect(tooBig.status).toBe(413);
    const bomb = gzipSync(Buffer.concat([Buffer.from(good.slice(0, -1)), Buffer.alloc(40 * 1024 * 1024, 0x20), Buffer.from('}')]));
    expect(bomb.length).toBeLessThan(200 * 1024);
    const bombed = await post(bomb, { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(bombed.status).toBe(413);

    expect(await spanCount()).toBe(spans);
    expect(await rollupSum()).toBe(rollups);

    // Partial success: the good span is stored, the bad one counted as rejected.
    const mixed = oneSpan('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    mixed.resourceSpans[0].scopeSpans[0].spans.push({
      ...mixed.resourceSpans[0].scopeSpans[0].spans[0],
      traceId: 'not-hex',
      spanId: '00000000000000a2',
    });
    const partial = await post(json(mixed), { ...auth, 'content-type': 'application/json' });
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({ partialSuccess: { rejectedSpans: '1', errorMessage: '1 span(s) rejected: invalid traceId.' } });
    expect(await spanCount()).toBe(spans + 1);
    // A retried export is stored and counted once.
    expect((await post(json(mixed), { ...auth, 'content-type': 'application/json' })).status).toBe(200);
    expect(await spanCount()).toBe(spans + 1);
    expect(await rollupSum()).toBe(rollups + 1);
    const ok = await post(gzipSync(Buffer.from(good)), {
      ...auth,
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': 'gzip',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({});
  });

  it('answers 503 with Retry-After when the store fails, keeping nothing of the request', async () => {
    const rollups = await rollupSum();
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const spans = [1, 2].map((i) => ({
      traceId: 'd'.repeat(31) + i,
      spanId: '000000000000000' + i,
      name: 'GET /',
      kind: 2,
      startTimeUnixNano: String(nowNs),
      endTimeUnixNano: String(nowNs + 1_000_000n),
    }));
    const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
    const headers = { authorization: `Bearer ${keyA}`, 'content-type': 'application/json' };
    // The rollup table vanishes under the writer: the spans insert works, the rollup upsert fails.
    await sql`alter table red_rollups rename to red_rollups_away`.execute(t.services.db.k);
    try {
      const r = await t.client().request('POST', '/v1/traces', { raw: body, headers });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('5');
      // the operator learns why; the exporter only that it may retry
      expect(r.body.detail).toBe('The spans could not be stored; retry shortly.');
      expect(t.errorLog.some((l) => l.includes('The spans could not be stored') && l.includes('red_rollups'))).toBe(true);
    } finally {
      await sql`alter table red_rollups_away rename to red_rollups`.execute(t.services.db.k);
    }
    const stored = await t.services.db.k
      .selectFrom('spans')
      .select('span_id')
      .where(
        'trace_id',
        'in',
        spans.map((x) => x.traceId),
      )
      .execute();
    expect(stored).toEqual([]);
    // The exporter's retry stores it whole.
    expect((await t.client().request('POST', '/v1/traces', { raw: body, headers })).status).toBe(200);
    expect(await rollupSum()).toBe(rollups + 2);
  });

  it('answers 429 with Retry-After when a company exceeds its rate', async () => {
    const C = await seedCompany(t.services, { plan: 'starter' });
    const u = await seedUser(t.services, { userType: 2, companyId: C.id });
    const cl = t.client();
    await signIn(cl, u, `${C.subdomain}.localhost`);
    const key = (await cl.post('/api/v1/api-keys', { name: 'k', scope: 'ingest' }, { host: `${C.subdomain}.localhost` })).body.key;
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const spans = Array.from({ length: 30_000 }, (_, i) => ({
      traceId: (i + 1).toString(16).padStart(32, 'c'),
      spanId: (i + 1).toString(16).padStart(16, '0'),
      name: 'GET /burst',
      kind: 2,
      startTimeUnixNano: String(nowNs),
      endTimeUnixNano: String(nowNs + 1_000_000n),
    }));
    // Starter plan: 2,000 spans/s, burst 20,000. 30,000 at once leave a debt of ~10,000 spans.
    const body = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const first = await t.client().request('POST', '/v1/traces', { raw: body, headers });
    expect(first.status).toBe(200);
    const second = await t.client().request('POST', '/v1/traces', { raw: body, headers });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const red = await cl.get('/api/v1/api-intelligence/metrics/red?range=1h', { host: `${C.subdomain}.localhost` });
    expect(red.body.totalRequests).toBe(30_000);
  }, 60_000);
});
