// The network kinds (ping, …) through the real HTTP server on SQLite and PostgreSQL: created,
// checked at once against loopback, shown with their fields, validated with field messages,
// counted against the per-destination budget, tried with Test now, and shown on the public page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../src/server/engine/scheduler.ts';
import { createMonitor } from '../../../../src/server/domain/monitors/service.ts';
import type { Services } from '../../../../src/server/domain/context.ts';
import { seedCompany, seedUser, signIn } from '../../../support/fixtures.ts';
import { DB_KINDS } from '../../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../../support/test-app.ts';
import { engineServices, seedTenant } from '../support.ts';
import { tlsTargets } from '../../../../src/server/domain/security/ssl-targets.ts';
import { startUdpServer, type UdpServer } from '../../../support/kind-servers/udp.ts';
import { startGrpcHealthServer, type GrpcHealthServer } from '../../../support/kind-servers/grpc-health.ts';
import { startWsServer, type WsServer } from '../../../support/kind-servers/websocket.ts';
import { startHttpTargets, type HttpTargets } from '../../../fixtures/targets/http-targets.ts';

describe.each(DB_KINDS)('network kinds through the API on %s', (db) => {
  let t: TestApp;
  let admin: ApiClient;
  let company: { id: string; subdomain: string };
  let udp: UdpServer;
  let grpcServer: GrpcHealthServer;
  let wsServer: WsServer;
  let httpTargets: HttpTargets;

  beforeAll(async () => {
    httpTargets = await startHttpTargets();
    wsServer = await startWsServer();
    udp = await startUdpServer();
    grpcServer = await startGrpcHealthServer();
    // A budget of 1 check a minute per host: monitors here run hourly (1/60 a minute) but the budget test's.
    t = await startTestApp({
      db,
      env: { ALLOW_PRIVATE_TARGETS: 'true', MIN_CHECK_INTERVAL_SECONDS: '1', MAX_CHECKS_PER_HOST_PER_MINUTE: '1' },
    });
    t.services.monitoring = { engine: createEngine(t.services), immediateChecks: { windowMs: 0, perCompany: Infinity } };
    company = await seedCompany(t.services, { plan: 'enterprise' });
    const user = await seedUser(t.services, { userType: 2, companyId: company.id });
    admin = new ApiClient(t.baseUrl, `${company.subdomain}.${t.config.productDomain}`);
    await signIn(admin, user);
  });
  afterAll(async () => {
    await t?.close();
    await udp?.close();
    await grpcServer?.close();
    await wsServer?.close();
    await httpTargets?.close();
  });

  const hourly = (body: Record<string, unknown>) => ({
    interval_seconds: 3600,
    timeout_seconds: 3,
    is_public: true,
    confirmations: 1,
    ...body,
  });

  it('ping: creates, checks ::1 at once, shows its fields and the public page lists it', async () => {
    const r = await admin.post('/api/v1/monitors', hourly({ name: 'Router ping', type: 'ping', host: '::1', packet_count: 2 }));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ type: 'ping', host: '::1', packet_count: 2, max_packet_loss_percent: 0, port: null, url: null });
    await t.services.monitoring!.engine!.runDueNow();
    const g = await admin.get(`/api/v1/monitors/${r.body.id}`);
    expect(g.body).toMatchObject({ status: 'operational', last_error: null });
    expect(g.body.last_response_time).toBeGreaterThan(0);
    const checks = await admin.get(`/api/v1/monitors/${r.body.id}/checks`);
    expect(Object.keys(checks.body[0].timings)).toEqual(['dns', 'total']);
    const page = await t.client().get(`/api/v1/public/public-status/${company.subdomain}`);
    expect(page.status).toBe(200);
    expect(JSON.stringify(page.body)).toContain('Router ping');
  });

  it('ping: Test now answers with the result; bad fields get their messages', async () => {
    const test = await admin.post('/api/v1/monitors/test', hourly({ name: 'x', type: 'ping', host: '127.0.0.1', packet_count: 1 }));
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ status: 'operational' });
    const bad = await admin.post('/api/v1/monitors', hourly({ name: 'x', type: 'ping', host: 'not a host', max_packet_loss_percent: 50 }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.host).toBe('Host must be a host name like db.example.com or an IP address');
    const schema = await admin.post('/api/v1/monitors', hourly({ name: 'x', type: 'ping', host: '::1', packet_count: 50 }));
    expect(schema.status).toBe(400);
  });

  it('ping: counts against the per-destination budget of its host', async () => {
    const first = await admin.post('/api/v1/monitors', {
      ...hourly({ name: 'Budget 1', type: 'ping', host: '127.0.0.9' }),
      interval_seconds: 60,
    });
    expect(first.status, first.text).toBe(201);
    const second = await admin.post('/api/v1/monitors', {
      ...hourly({ name: 'Budget 2', type: 'ping', host: '127.0.0.9' }),
      interval_seconds: 60,
    });
    expect(second.status).toBe(422);
    expect(second.body.errors.host).toMatch(/^Checks of 127\.0\.0\.9 are limited to 1 a minute/);
  });

  it('udp: creates, checks the echo server at once, shows its fields; Test now reports a mismatch; bad fields get messages', async () => {
    const body = { name: 'Game server', type: 'udp', host: '127.0.0.1', port: udp.port, udp_payload: 'echo:PONG', udp_expect: 'PONG' };
    const r = await admin.post('/api/v1/monitors', hourly(body));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ udp_payload: 'echo:PONG', udp_payload_format: 'text', udp_expect: 'PONG', udp_expect_silence: false });
    await t.services.monitoring!.engine!.runDueNow();
    expect((await admin.get(`/api/v1/monitors/${r.body.id}`)).body).toMatchObject({ status: 'operational', last_error: null });
    const test = await admin.post('/api/v1/monitors/test', hourly({ ...body, udp_expect: 'NOPE' }));
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ status: 'down', error: 'The answer (4 bytes) did not contain the expected text' });
    const bad = await admin.post('/api/v1/monitors', hourly({ ...body, udp_payload_format: 'hex', udp_payload: 'xyz' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({
      udp_payload: 'Payload must be hex bytes like 0a ff 10',
      udp_expect: 'Expected answer must be hex bytes like 0a ff 10',
    });
  });

  it('grpc: creates, checks the health server at once, hides metadata from viewers, Test now names NOT_SERVING', async () => {
    const body = { name: 'Orders API', type: 'grpc', host: '127.0.0.1', port: grpcServer.port, grpc_service: 'secured' };
    const r = await admin.post('/api/v1/monitors', hourly({ ...body, grpc_metadata: { authorization: 'Bearer letmein' } }));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ grpc_service: 'secured', grpc_tls: false, grpc_metadata: { authorization: 'Bearer letmein' } });
    await t.services.monitoring!.engine!.runDueNow();
    expect((await admin.get(`/api/v1/monitors/${r.body.id}`)).body).toMatchObject({ status: 'operational', last_error: null });
    const viewerUser = await seedUser(t.services, { userType: 3, companyId: company.id });
    const viewer = new ApiClient(t.baseUrl, `${company.subdomain}.${t.config.productDomain}`);
    await signIn(viewer, viewerUser);
    expect((await viewer.get(`/api/v1/monitors/${r.body.id}`)).body.grpc_metadata).toEqual({ authorization: '(hidden)' });
    const test = await admin.post('/api/v1/monitors/test', hourly({ ...body, grpc_service: 'down' }));
    expect(test.body).toMatchObject({ status: 'down', error: 'The server reports NOT_SERVING for "down"' });
    const bad = await admin.post('/api/v1/monitors', hourly({ ...body, grpc_metadata: { 'grpc-status': '0' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.grpc_metadata).toMatch(/^Metadata "grpc-status" is not allowed/);
  });

  it('websocket: creates, checks the echo server at once, Test now shows a refused upgrade with its status; bad fields get messages', async () => {
    const body = { name: 'Live feed', type: 'websocket', url: wsServer.url('/echo'), ws_message: 'hi', ws_expect: 'hi' };
    const r = await admin.post('/api/v1/monitors', hourly(body));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ url: wsServer.url('/echo'), ws_message: 'hi', ws_expect: 'hi', ws_subprotocol: null, headers: {} });
    await t.services.monitoring!.engine!.runDueNow();
    expect((await admin.get(`/api/v1/monitors/${r.body.id}`)).body).toMatchObject({ status: 'operational', last_http_code: 101 });
    const test = await admin.post('/api/v1/monitors/test', hourly({ ...body, url: wsServer.url('/forbidden') }));
    expect(test.body).toMatchObject({ status: 'down', error: 'The server answered HTTP 403 instead of accepting the WebSocket upgrade' });
    const bad = await admin.post('/api/v1/monitors', hourly({ ...body, url: 'http://example.com/' }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.url).toBe('URL must start with ws:// or wss://');
  });

  it('http: stores header assertions and a regex keyword, checks them, and names a failing header', async () => {
    const body = {
      name: 'API health',
      type: 'http',
      url: httpTargets.url('/json'),
      header_assertions: { 'Content-Type': '/^application\\/json/' },
      keyword: '"db":\\s*"ok"',
      keyword_regex: true,
    };
    const r = await admin.post('/api/v1/monitors', hourly(body));
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ header_assertions: body.header_assertions, keyword_regex: true });
    await t.services.monitoring!.engine!.runDueNow();
    expect((await admin.get(`/api/v1/monitors/${r.body.id}`)).body).toMatchObject({ status: 'operational', last_error: null });
    const test = await admin.post('/api/v1/monitors/test', hourly({ ...body, header_assertions: { 'Cache-Control': 'no-store' } }));
    expect(test.body).toMatchObject({ status: 'down', error: 'Header "Cache-Control" is missing' });
    const tcp = await admin.post('/api/v1/monitors', hourly({ name: 'x', type: 'tcp', host: '127.0.0.1', port: 1 }));
    expect(tcp.body).toMatchObject({ header_assertions: null, keyword_regex: null, packet_count: null, grpc_metadata: null });
  });

  it('grpc over TLS and wss monitors are TLS targets of the security suite; plaintext ones are not', async () => {
    const made: Record<string, string> = {};
    for (const [name, body] of Object.entries({
      'gRPC TLS': { type: 'grpc', host: 'localhost', port: 1, grpc_tls: true },
      'gRPC plain': { type: 'grpc', host: 'localhost', port: 2 },
      'WSS feed': { type: 'websocket', url: 'wss://localhost:3/feed' },
      'WS feed': { type: 'websocket', url: 'ws://localhost:4/feed' },
    })) {
      const r = await admin.post('/api/v1/monitors', hourly({ name, ...body }));
      expect(r.status, r.text).toBe(201);
      made[name] = r.body.id;
    }
    const targets = (await tlsTargets(t.services.db, company.id)).filter((x) => Object.values(made).includes(x.id));
    expect(targets.map((x) => [x.name, x.host, x.port]).sort()).toEqual([
      ['WSS feed', 'localhost', 3],
      ['gRPC TLS', 'localhost', 1],
    ]);
  });
});

describe('network kinds with private targets closed', () => {
  let services: Services;
  beforeAll(async () => {
    services = await engineServices('sqlite', { ALLOW_PRIVATE_TARGETS: 'false' });
  });
  afterAll(async () => {
    await services?.db.close();
  });

  it('refuses loopback and private literal targets at create time, naming the field', async () => {
    const ctx = (await seedTenant(services)).adminCtx;
    const make = (body: Record<string, unknown>) =>
      createMonitor(ctx, { name: 'x', interval_seconds: 60, is_public: false, ...body } as never);
    await expect(make({ type: 'ping', host: '127.0.0.1' })).rejects.toMatchObject({
      message: 'Target refused: 127.0.0.1 is a loopback address',
      fields: { host: 'Target refused: 127.0.0.1 is a loopback address' },
    });
    await expect(make({ type: 'ping', host: '::1' })).rejects.toThrow(/loopback/);
    await expect(make({ type: 'ping', host: '10.1.2.3' })).rejects.toThrow(/private/);
    await expect(make({ type: 'websocket', url: 'ws://[::1]:8080/feed' })).rejects.toMatchObject({
      fields: { url: 'Target refused: ::1 is a loopback address' },
    });
    await expect(make({ type: 'grpc', host: '::1', port: 50051 })).rejects.toThrow(/loopback/);
    await expect(make({ type: 'udp', host: '127.0.0.1', port: 53 })).rejects.toMatchObject({
      fields: { host: 'Target refused: 127.0.0.1 is a loopback address' },
    });
  });
});
