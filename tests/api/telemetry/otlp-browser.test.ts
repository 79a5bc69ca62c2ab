// OTLP from browsers and old exporters: the CORS preflight is answered for the origins the
// host's company lists on its active keys, the POST only for the origins of its own key (other
// origins get 403 without CORS headers and store nothing); JSON of pre-1.0 exporters
// (instrumentationLibrarySpans) is stored and counted, not answered 200 and dropped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';

const SHOP = 'https://shop.example.test';
const BLOG = 'http://blog.example.test:8080';
const EVIL = 'https://evil.example.test';

function exportBody(traceId: string, list: 'scopeSpans' | 'instrumentationLibrarySpans', durationMs = 5) {
  // nanoseconds since 1970 exceed 2^53: counted exactly as bigint, as exporters send them (strings)
  const start = BigInt(Date.now()) * 1_000_000n;
  return JSON.stringify({
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'web' } }] },
        [list]: [
          {
            ...(list === 'instrumentationLibrarySpans' ? { instrumentationLibrary: { name: 'old-sdk', version: '0.24.0' } } : {}),
            spans: [
              {
                traceId,
                spanId: '00000000000000b1',
                name: 'documentLoad',
                kind: 2,
                startTimeUnixNano: String(start),
                endTimeUnixNano: String(start + BigInt(durationMs) * 1_000_000n),
              },
            ],
          },
        ],
      },
    ],
  });
}

describe.each(DB_KINDS)('OTLP from browsers and old exporters on %s', (db) => {
  let t: TestApp;
  let A: { id: string; subdomain: string };
  let B: { id: string; subdomain: string };
  let admin: ApiClient;
  let shopKey: { id: string; key: string };
  let blogKey: { id: string; key: string };
  const hostA = () => `${A.subdomain}.localhost`;
  const spans = async (traceId: string) =>
    (await t.services.db.k.selectFrom('spans').select('span_id').where('trace_id', '=', traceId).execute()).length;

  beforeAll(async () => {
    t = await startTestApp({ db });
    A = await seedCompany(t.services, { name: 'Web Shop' });
    B = await seedCompany(t.services, { name: 'Other' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: A.id }), hostA());
  }, 60_000);
  afterAll(async () => t?.close());

  it('keeps allowed origins on keys: normalised, checked, editable', async () => {
    const created = await admin.post(
      '/api/v1/api-keys',
      { name: 'shop front', scope: 'ingest', allowed_origins: ['https://SHOP.example.test/', 'https://shop.example.test:443'] },
      { host: hostA() },
    );
    expect(created.status).toBe(201);
    expect(created.body.allowed_origins).toEqual([SHOP]);
    shopKey = created.body;
    const bad = await admin.post(
      '/api/v1/api-keys',
      { name: 'x', scope: 'ingest', allowed_origins: ['https://a.test/path'] },
      { host: hostA() },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('is not a browser origin');
    for (const o of ['*', 'null', 'ftp://a.test', 'https://user:pw@a.test'])
      expect(
        (await admin.post('/api/v1/api-keys', { name: 'x', scope: 'ingest', allowed_origins: [o] }, { host: hostA() })).status,
        o,
      ).toBe(400);

    blogKey = (await admin.post('/api/v1/api-keys', { name: 'blog', scope: 'ingest' }, { host: hostA() })).body;
    expect(blogKey).toMatchObject({ allowed_origins: [] });
    const patched = await admin.patch(`/api/v1/api-keys/${blogKey.id}`, { allowed_origins: [BLOG] }, { host: hostA() });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'blog', allowed_origins: [BLOG] });
    const list = await admin.get('/api/v1/api-keys', { host: hostA() });
    expect(Object.fromEntries(list.body.map((k: { name: string; allowed_origins: string[] }) => [k.name, k.allowed_origins]))).toEqual({
      'shop front': [SHOP],
      blog: [BLOG],
    });
    expect((await admin.patch(`/api/v1/api-keys/no-such-key`, { name: 'x' }, { host: hostA() })).status).toBe(404);
  });

  it("answers the preflight for origins on the host's company's keys only", async () => {
    const c = t.client();
    const preflight = (origin: string | undefined, host: string) =>
      c.request('OPTIONS', '/v1/traces', {
        host,
        headers: {
          ...(origin ? { origin } : {}),
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    for (const origin of [SHOP, BLOG]) {
      const r = await preflight(origin, hostA());
      expect(r.status, origin).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      expect(r.headers.get('access-control-allow-methods')).toBe('POST');
      expect(r.headers.get('access-control-allow-headers')).toMatch(/authorization/);
      expect(r.headers.get('access-control-allow-headers')).toMatch(/content-type/);
      expect(r.headers.get('vary')).toMatch(/Origin/);
    }
    // Unlisted origin, another company's host, the main host: 403 without CORS headers.
    for (const [origin, host] of [
      [EVIL, hostA()],
      [SHOP, `${B.subdomain}.localhost`],
      [SHOP, 'localhost'],
      ['null', hostA()],
    ]) {
      const r = await preflight(origin, host);
      expect(r.status, `${origin} on ${host}`).toBe(403);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
    // Not a preflight (no Origin, or this host's own): what the resource allows.
    const plain = await preflight(undefined, hostA());
    expect(plain.status).toBe(204);
    expect(plain.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it("accepts a browser POST only from its own key's origins, with CORS headers", async () => {
    const c = t.client();
    const post = (key: string, origin: string, traceId: string) =>
      c.request('POST', '/v1/traces', {
        host: hostA(),
        raw: exportBody(traceId, 'scopeSpans'),
        headers: { origin, 'content-type': 'application/json', authorization: `Bearer ${key}` },
      });
    const ok = await post(shopKey.key, SHOP, 'c1'.repeat(16));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SHOP);
    expect(await spans('c1'.repeat(16))).toBe(1);
    // BLOG is allowed on the company (the preflight passes) but not on the shop's key.
    for (const origin of [BLOG, EVIL]) {
      const r = await post(shopKey.key, origin, 'c2'.repeat(16));
      expect(r.status, origin).toBe(403);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
      expect(r.body.detail).toContain('allowed origins');
    }
    expect(await spans('c2'.repeat(16))).toBe(0);
    // A revoked key's origins leave the preflight too.
    expect((await admin.delete(`/api/v1/api-keys/${blogKey.id}`, { host: hostA() })).status).toBe(204);
    const r = await c.request('OPTIONS', '/v1/traces', {
      host: hostA(),
      headers: { origin: BLOG, 'access-control-request-method': 'POST' },
    });
    expect(r.status).toBe(403);
    // Servers send no Origin and are judged by the key alone (the test client sends its own origin, which is not cross-origin).
    expect(
      (
        await c.request('POST', '/v1/traces', {
          raw: exportBody('c3'.repeat(16), 'scopeSpans'),
          headers: { 'content-type': 'application/json', authorization: `Bearer ${shopKey.key}` },
        })
      ).status,
    ).toBe(200);
    expect(await spans('c3'.repeat(16))).toBe(1);
  });

  it('stores and counts JSON of pre-1.0 exporters (instrumentationLibrarySpans)', async () => {
    const r = await t.client().request('POST', '/v1/traces', {
      raw: exportBody('d1'.repeat(16), 'instrumentationLibrarySpans', 42),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${shopKey.key}` },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expect(await spans('d1'.repeat(16))).toBe(1);
    const stored = await t.services.db.k.selectFrom('spans').selectAll().where('trace_id', '=', 'd1'.repeat(16)).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'documentLoad', service: 'web', is_request: true });
    expect(stored.duration_ms).toBeCloseTo(42, 3);
    const red = await admin.get('/api/v1/api-intelligence/metrics/red?range=1h', { host: hostA() });
    expect(red.body.totalRequests).toBe(3); // c1, c3 and the old exporter's d1
  });
});
