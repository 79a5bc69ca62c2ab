// The evidence panel of automatic incidents (issue 33 item 1) on both databases, each incident
// caused by a scripted fault against real loopback targets checked by the real engine: a DNS
// answer changed (loopback DNS server), a certificate replaced (loopback TLS server given a
// certificate the check refuses), a TLS handshake that does not finish (a TCP server that holds
// the handshake) against a seeded 7-day baseline, and a deploy whose spans error (the real
// OpenTelemetry SDK through OTLP ingest). Each shows the right evidence and nothing unrelated,
// in the API (viewer reads it, another company gets 404) and in the alert's one line.
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentEvidence } from '../../../src/lib/incident-evidence.ts';
import { checksRepo } from '../../../src/server/db/repositories/checks-repo.ts';
import type { Ctx } from '../../../src/server/domain/context.ts';
import { refreshOpenEvidence } from '../../../src/server/domain/incidents/evidence-refresh.ts';
import { listIncidents } from '../../../src/server/domain/incidents/service.ts';
import { createMonitor } from '../../../src/server/domain/monitors/service.ts';
import { listNotifications } from '../../../src/server/domain/notifications/service.ts';
import { createEngine, type Engine } from '../../../src/server/engine/scheduler.ts';
import { startDnsServer, type DnsTarget } from '../../fixtures/targets/dns-targets.ts';
import { makeCerts } from '../../fixtures/targets/tls-targets.ts';
import { signIn } from '../../support/fixtures.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { manualClock, seedTenant, type Clock } from '../engine/support.ts';
import { sendWithSdk, type PlannedSpan } from '../telemetry/otel-sdk.ts';

const MIN = 60_000;
const certs = makeCerts();

/** A loopback HTTP server answering `status` (changeable) on 127.0.0.1 only. */
async function plainServer() {
  const state = { status: 200 };
  const server = http.createServer((_req, res) => {
    res.writeHead(state.status, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { state, port: (server.address() as AddressInfo).port, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** HTTPS on 127.0.0.1 with the test CA's localhost certificate; `replace` swaps the certificate for new connections. */
async function tlsServer() {
  const server = https.createServer({ key: certs.certs.valid.key, cert: certs.certs.valid.cert }, (_req, res) => res.end('ok'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    replace: (kind: 'wrongHost') => server.setSecureContext({ key: certs.certs[kind].key, cert: certs.certs[kind].cert }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A TCP front to an HTTPS server that, once `hold` is set, accepts connections but never passes the handshake on. */
async function holdingProxy(upstreamPort: number) {
  const state = { hold: false };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (state.hold) return; // the ClientHello is read by nobody: the handshake never finishes
    const up = net.connect(upstreamPort, '127.0.0.1');
    sockets.add(up);
    up.on('close', () => sockets.delete(up));
    up.on('error', () => client.destroy());
    client.pipe(up).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

describe.each(DB_KINDS)('incident evidence from scripted faults on %s', (kind) => {
  let app: TestApp;
  let engine: Engine;
  let dns: DnsTarget;
  let clock: Clock;
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let other: Awaited<ReturnType<typeof seedTenant>>;
  let viewer: ApiClient;
  let otherAdmin: ApiClient;
  let ingestKey: string;
  const closers: Array<() => Promise<void>> = [];
  const host = () => `${t.company.subdomain}.localhost`;

  beforeAll(async () => {
    dns = await startDnsServer({ answer: true });
    // Real time, to the minute: the certificates and the span exporter live in it.
    clock = manualClock(Math.floor(Date.now() / MIN) * MIN);
    app = await startTestApp({
      db: kind,
      now: clock.now,
      env: {
        DNS_RESOLVERS: `127.0.0.1:${dns.port}`,
        ALLOW_PRIVATE_TARGETS: 'true',
        MIN_CHECK_INTERVAL_SECONDS: '1',
        MAX_CHECKS_PER_HOST_PER_MINUTE: '0',
      },
    });
    engine = createEngine(app.services, { extraCa: [certs.ca] });
    app.services.monitoring = { engine };
    t = await seedTenant(app.services);
    other = await seedTenant(app.services);
    viewer = app.client();
    await signIn(viewer, t.viewer, host());
    otherAdmin = app.client();
    await signIn(otherAdmin, other.admin, `${other.company.subdomain}.localhost`);
    const admin = app.client();
    await signIn(admin, t.admin, host());
    const key = await admin.post('/api/v1/api-keys', { name: 'shop', scope: 'ingest' }, { host: host() });
    expect(key.status, key.text).toBe(201);
    ingestKey = key.body.key;
  }, 60_000);
  afterAll(async () => {
    for (const c of closers) await c();
    await dns?.close();
    await app?.close();
  });

  const step = async () => {
    clock.advance(MIN);
    await engine.runDueNow();
  };
  const incidentOf = async (ctx: Ctx, monitorId: string) => {
    const all = (await listIncidents(ctx, {})) as Array<{ id: string; monitor_id: string | null; status: string }>;
    const found = all.find((i) => i.monitor_id === monitorId && i.status !== 'resolved');
    expect(found, 'an open incident for the monitor').toBeDefined();
    return found!.id;
  };
  /** What the viewer reads from the API (after the refresh job ran), checked against another company's view. */
  const evidenceOf = async (incidentId: string): Promise<IncidentEvidence> => {
    await refreshOpenEvidence(app.services, clock.now());
    const r = await viewer.get(`/api/v1/incidents/${incidentId}/evidence`, { host: host() });
    expect(r.status, r.text).toBe(200);
    const foreign = await otherAdmin.get(`/api/v1/incidents/${incidentId}/evidence`, { host: `${other.company.subdomain}.localhost` });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('"items"');
    return r.body as IncidentEvidence;
  };
  const kinds = (e: IncidentEvidence) => e.items.map((i) => i.kind).sort();
  const openedAlert = async (monitorName: string) => {
    const all = (await listNotifications(t.adminCtx, { limit: 200 })) as Array<{ title: string; message: string }>;
    return all.find((n) => n.title === `${monitorName} is down`);
  };

  it('a DNS answer changed: the change (was, now) and the connect that fails since, nothing else', async () => {
    const web = await plainServer();
    closers.push(web.close);
    const name = 'shop-a.example.test';
    dns.records.set(name, ['127.0.0.1']);
    await createMonitor(t.adminCtx, { name: 'Shop A answers', type: 'dns', host: name, interval_seconds: 60, timeout_seconds: 2 } as never);
    const m = await createMonitor(t.adminCtx, {
      name: 'Shop A',
      type: 'http',
      url: `http://${name}:${web.port}/`,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
    } as never);
    await engine.runDueNow();
    await step();
    // The fault: the name now points where nothing listens.
    dns.records.set(name, ['127.0.0.2']);
    await step();
    await step();
    const e = await evidenceOf(await incidentOf(t.adminCtx, m.id));
    expect(kinds(e)).toEqual(['dns_change', 'phase']);
    const change = e.items.find((i) => i.kind === 'dns_change')!;
    expect(change.data).toMatchObject({ host: name, before: ['127.0.0.1'], after: ['127.0.0.2'] });
    expect(change.summary).toContain('was 127.0.0.1; now 127.0.0.2');
    expect(change.source.href).toMatch(/^\/monitors\/[0-9a-f-]{36}$/);
    expect(e.items.find((i) => i.kind === 'phase')!.data).toMatchObject({ phase: 'connect', state: 'failing' });
    expect(e.line).toMatch(/DNS answers changed/);
  });

  it('a certificate replaced by one the check refuses: the replacement and the TLS handshake failing, nothing else', async () => {
    const site = await tlsServer();
    closers.push(site.close);
    const m = await createMonitor(t.adminCtx, {
      name: 'Shop B',
      type: 'http',
      url: `https://localhost:${site.port}/`,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
    } as never);
    await engine.runDueNow();
    await step();
    site.replace('wrongHost');
    await step();
    const e = await evidenceOf(await incidentOf(t.adminCtx, m.id));
    expect(kinds(e)).toEqual(['certificate_change', 'phase']);
    const cert = e.items.find((i) => i.kind === 'certificate_change')!;
    expect(cert.data.host).toBe('localhost');
    expect(String(cert.data.error)).toMatch(/certificate|host/i);
    // The certificate accepted before is the test CA's localhost certificate, valid 200 days.
    expect(Date.parse(String(cert.data.previous_expires_at))).toBeGreaterThan(clock.now() + 199 * 86_400_000);
    expect(cert.summary).toContain('is refused since');
    expect(e.items.find((i) => i.kind === 'phase')!.data).toMatchObject({ phase: 'tls', state: 'failing' });
    expect((await openedAlert('Shop B'))?.message).toMatch(/What changed: .*certificate replaced and refused/);
  });

  it('a TLS handshake that does not finish: the TLS phase against its 7-day baseline, in the panel and the alert, nothing else', async () => {
    const site = await tlsServer();
    const front = await holdingProxy(site.port);
    closers.push(front.close, site.close);
    const m = await createMonitor(t.adminCtx, {
      name: 'Shop C',
      type: 'http',
      url: `https://127.0.0.1:${front.port}/`,
      interval_seconds: 60,
      timeout_seconds: 1,
      confirmations: 1,
    } as never);
    // A week of history, as the engine stores it: TLS 4-8 ms, p95 8 ms.
    const rows = Array.from({ length: 200 }, (_, i) => ({
      monitor_id: m.id,
      company_id: t.company.id,
      checked_at: clock.now() - 6 * 86_400_000 + i * 40 * MIN,
      status: 'operational' as const,
      response_time_ms: 20,
      http_code: 200,
      error: null,
      timings: JSON.stringify({ dns: 0, connect: 1, tls: 4 + (i % 5), ttfb: 15, total: 20 }),
      cert_expires_at: null,
      location: 0,
    }));
    await checksRepo(app.services.db).insertMany(rows);
    await engine.runDueNow();
    front.state.hold = true;
    await step();
    const e = await evidenceOf(await incidentOf(t.adminCtx, m.id));
    expect(kinds(e), JSON.stringify(e.items)).toEqual(['phase']);
    const phase = e.items[0];
    expect(phase.data).toMatchObject({ phase: 'tls', state: 'failing', failing_checks: 1, stopped_checks: 1 });
    expect(Number(phase.data.baseline_checks)).toBeGreaterThanOrEqual(200);
    expect(Number(phase.data.baseline_p95_ms)).toBeLessThanOrEqual(50);
    expect(phase.summary).toMatch(/^TLS handshake did not complete in 1 of 1 failing check .*p95 of the last 7 days/);
    expect(phase.source.href).toBe(`/monitors/${m.id}`);
    // Built when the incident opened: the alert already carried the line.
    expect((await openedAlert('Shop C'))?.message).toContain('What changed: TLS handshake failing.');
  });

  it("a deploy whose spans error: the new service.version and the service's errors, nothing else", async () => {
    const api = await plainServer();
    closers.push(api.close);
    const name = 'api.shop.test';
    dns.records.set(name, ['127.0.0.1']);
    const m = await createMonitor(t.adminCtx, {
      name: 'Shop API',
      type: 'http',
      url: `http://${name}:${api.port}/health`,
      interval_seconds: 60,
      timeout_seconds: 2,
      confirmations: 1,
    } as never);
    await engine.runDueNow();
    const now = clock.now();
    const served = (startMs: number, error: boolean): PlannedSpan => ({
      name: 'GET /checkout',
      kind: SpanKind.SERVER,
      startMs,
      durationMs: error ? 900 : 40,
      error,
      errorMessage: error ? 'connection pool exhausted' : undefined,
      httpStatus: error ? 503 : 200,
      attributes: { 'server.address': name, 'http.request.method': 'GET', 'http.route': '/checkout' },
    });
    const send = (version: string, roots: PlannedSpan[]) =>
      sendWithSdk({
        url: `${app.baseUrl}/v1/traces`,
        key: ingestKey,
        format: 'protobuf',
        resource: { 'service.name': 'shop-api', 'service.version': version },
        roots,
      });
    // Version 1.4.2 served well the day before; 2.0.0 arrived 10 minutes ago and fails half its requests.
    await send(
      '1.4.2',
      Array.from({ length: 20 }, (_, i) => served(now - 20 * 60 * MIN + i * MIN, false)),
    );
    await send(
      '2.0.0',
      Array.from({ length: 10 }, (_, i) => served(now - 10 * MIN + i * MIN, i % 2 === 0)),
    );
    // Another service of the company, erroring on another host: not this incident's business.
    await sendWithSdk({
      url: `${app.baseUrl}/v1/traces`,
      key: ingestKey,
      format: 'protobuf',
      resource: { 'service.name': 'billing', 'service.version': '9.0.0' },
      roots: Array.from({ length: 6 }, (_, i) => ({
        ...served(now - 5 * MIN + i, true),
        attributes: { 'server.address': 'billing.shop.test' },
      })),
    });
    api.state.status = 503;
    await step();
    const e = await evidenceOf(await incidentOf(t.adminCtx, m.id));
    expect(kinds(e)).toEqual(['deploy', 'service_errors']);
    expect(e.items.find((i) => i.kind === 'deploy')!.data).toMatchObject({
      service: 'shop-api',
      version: '2.0.0',
      previous_version: '1.4.2',
    });
    const errors = e.items.find((i) => i.kind === 'service_errors')!;
    expect(errors.data).toMatchObject({ service: 'shop-api', host: name, errors: 5, top_errors: ['connection pool exhausted'] });
    expect(errors.source.href).toMatch(/^\/traces\/[0-9a-f]{32}$/);
    expect(JSON.stringify(e)).not.toContain('billing');
  });
});
