// gRPC health checks against a real @grpc/grpc-js server on loopback: SERVING, NOT_SERVING,
// UNKNOWN, an unknown service, metadata, never answering, slow, garbage and huge answers, TLS with
// the test CA (trusted, and untrusted without it), a closed port, and the SSRF guard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcKind } from '../../../../src/server/engine/kinds/grpc.ts';
import { decodeHealthResponse, encodeHealthRequest } from '../../../../src/server/engine/checkers/grpc-health.ts';
import { makeCerts } from '../../../fixtures/targets/tls-targets.ts';
import { startGrpcHealthServer, type GrpcHealthServer } from '../../../support/kind-servers/grpc-health.ts';
import { unreachablePort } from '../../../support/kind-servers/udp.ts';
import { checkKind, fixedResolver } from './support.ts';
import { credentialHeaders } from '../../../../src/server/cli/monitors-as-code/state.ts';

describe('grpc checks against loopback', () => {
  let plain: GrpcHealthServer;
  let v6: GrpcHealthServer;
  let secure: GrpcHealthServer;
  let named: GrpcHealthServer;
  let ca: string;
  beforeAll(async () => {
    const certs = makeCerts();
    ca = certs.ca;
    [plain, v6, secure, named] = await Promise.all([
      startGrpcHealthServer(),
      startGrpcHealthServer({ host: '::1' }),
      startGrpcHealthServer({ tls: certs.certs.valid }),
      // A certificate for other.example alone (no IP): it verifies only if the host is the server name.
      startGrpcHealthServer({ tls: certs.certs.wrongHost }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([plain?.close(), v6?.close(), secure?.close(), named?.close()]);
  });

  const grpcCheck = (extra: Record<string, unknown>, opts: Parameters<typeof checkKind>[2] = {}, s = plain) =>
    checkKind('grpc', { host: s.host, port: s.port, ...extra }, { timeoutMs: 1500, ...opts });

  it('is up when the whole server is SERVING, over IPv4 and IPv6, with its phases', async () => {
    const r = await grpcCheck({});
    expect(r).toMatchObject({ status: 'operational', error: null });
    expect(Object.keys(r.timings!).sort()).toEqual(['connect', 'dns', 'total', 'ttfb']);
    expect(await grpcCheck({}, {}, v6)).toMatchObject({ status: 'operational' });
  });

  it('is down on NOT_SERVING, UNKNOWN and an unknown service, naming it', async () => {
    expect(await grpcCheck({ grpc_service: 'down' })).toMatchObject({ status: 'down', error: 'The server reports NOT_SERVING for "down"' });
    expect(await grpcCheck({ grpc_service: 'unknown' })).toMatchObject({
      status: 'down',
      error: 'The server reports UNKNOWN for "unknown"',
    });
    expect(await grpcCheck({ grpc_service: 'missing' })).toMatchObject({
      status: 'down',
      error: 'The server does not know the service "missing"',
    });
  });

  it('sends its metadata', async () => {
    expect(await grpcCheck({ grpc_service: 'secured' })).toMatchObject({
      status: 'down',
      error: 'The server refused the call (UNAUTHENTICATED): check the metadata',
    });
    expect(await grpcCheck({ grpc_service: 'secured', grpc_metadata: { authorization: 'Bearer letmein' } })).toMatchObject({
      status: 'operational',
    });
  });

  it('is down when the server never answers, within the time-out', async () => {
    const started = performance.now();
    expect(await grpcCheck({ grpc_service: 'hang' })).toMatchObject({ status: 'down', error: 'No answer within 1.5 s' });
    // ended by its own deadline, not by the test's 30 s: the room above the deadline is for a loaded
    // machine (a CI run took 2.16 s for the 1.5 s one); this is not a speed check
    expect(performance.now() - started).toBeLessThan(6500);
  });

  it('is degraded when slower than degraded_threshold_ms', async () => {
    const r = await grpcCheck({ grpc_service: 'slow', degraded_threshold_ms: 100 });
    expect(r.status).toBe('degraded');
    expect(r.error).toMatch(/^Health check took \d+ ms$/);
  });

  it('refuses garbage and huge answers', async () => {
    expect(await grpcCheck({ grpc_service: 'garbage' })).toMatchObject({
      status: 'down',
      error: 'The server sent an unreadable health answer',
    });
    expect(await grpcCheck({ grpc_service: 'huge' })).toMatchObject({ status: 'down', error: 'The health answer was too large' });
  });

  it('talks TLS with the host name as server name: trusted with the CA, refused without, plaintext to TLS fails', async () => {
    const resolve = fixedResolver({ localhost: '127.0.0.1' });
    const tls = { host: 'localhost', port: secure.port, grpc_tls: true };
    const ok = await checkKind('grpc', tls, { resolve, extraCa: [ca], timeoutMs: 1500 });
    expect(ok).toMatchObject({ status: 'operational', certSubject: 'localhost', certIssuer: 'StatusWatch Labs Test CA R1' });
    // The certificate's expiry (200 days out) feeds the expiry warnings, as an https check's does.
    expect(ok.certExpiresAt! - Date.now()).toBeGreaterThan(199 * 86_400_000);
    expect(grpcKind.afterResult).toBeTypeOf('function');
    const untrusted = await checkKind('grpc', tls, { resolve, timeoutMs: 1500 });
    expect(untrusted.status).toBe('down');
    expect(untrusted.error).toMatch(/Certificate issuer is not trusted|TLS handshake failed/);
    const plaintext = await checkKind('grpc', { ...tls, grpc_tls: false }, { resolve, timeoutMs: 1500 });
    expect(plaintext.status).toBe('down');
    // Connected to the resolved address, verified against the host name.
    const byName = { host: 'other.example', port: named.port, grpc_tls: true };
    const nameResolve = fixedResolver({ 'other.example': '127.0.0.1', localhost: '127.0.0.1' });
    expect(await checkKind('grpc', byName, { resolve: nameResolve, extraCa: [ca], timeoutMs: 1500 })).toMatchObject({
      status: 'operational',
    });
    expect(
      await checkKind('grpc', { ...byName, host: 'localhost' }, { resolve: nameResolve, extraCa: [ca], timeoutMs: 1500 }),
    ).toMatchObject({
      status: 'down',
      error: 'Certificate does not match the host name',
    });
    expect(grpcKind.tlsEndpoint!({ host: 'API.example.com', port: 8443, grpc_tls: true })).toEqual({ host: 'api.example.com', port: 8443 });
    expect(grpcKind.tlsEndpoint!({ host: 'api.example.com', port: 8443, grpc_tls: false })).toBeNull();
  });

  it('is down with "Connection refused" on a closed port', async () => {
    const port = await unreachablePort();
    expect(await checkKind('grpc', { host: '127.0.0.1', port }, { timeoutMs: 1500 })).toMatchObject({
      status: 'down',
      error: 'Connection refused',
    });
  });

  it('refuses loopback when private targets are not allowed, also behind a name', async () => {
    expect(await grpcCheck({}, { allowPrivate: false })).toMatchObject({
      status: 'down',
      error: 'Target refused: 127.0.0.1 is a loopback address',
    });
    const named = await checkKind(
      'grpc',
      { host: 'api.example.test', port: plain.port },
      {
        allowPrivate: false,
        resolve: fixedResolver({ 'api.example.test': '127.0.0.1' }),
      },
    );
    expect(named).toMatchObject({ status: 'down', error: 'Target refused: the host is not allowed or could not be resolved' });
  });

  it('validates its fields and hides metadata values from viewers', () => {
    const v = (input: Record<string, unknown>) => grpcKind.validate((k) => input[k as string] as never, { allowPrivate: true }).problems;
    expect(v({ host: 'x.example', port: 50051, grpc_service: 'bad service!' }).grpc_service).toMatch(/gRPC service name/);
    expect(v({ host: 'x.example', port: 50051, grpc_metadata: { 'grpc-timeout': '1' } }).grpc_metadata).toMatch(/not allowed/);
    expect(v({ host: 'x.example', port: 50051, grpc_metadata: { Authorization: 'x' } }).grpc_metadata).toMatch(/not allowed/);
    expect(v({ host: 'x.example', port: 50051, grpc_metadata: { authorization: 'a\nb' } }).grpc_metadata).toMatch(/printable ASCII/);
    expect(v({ host: 'x.example', port: 50051, grpc_metadata: { authorization: 'Bearer x' } })).toEqual({});
    const config = { host: 'x.example', port: 1, grpc_metadata: { authorization: 'Bearer x' } };
    expect(grpcKind.present(config, { secrets: false }).grpc_metadata).toEqual({ authorization: '(hidden)' });
    expect(grpcKind.present(config, { secrets: true }).grpc_metadata).toEqual({ authorization: 'Bearer x' });
    // A monitors-as-code export warns about it as it does about an Authorization header.
    expect(credentialHeaders({ monitors: [{ name: 'Orders', type: 'grpc', ...config }] } as never)).toEqual([
      'monitor "Orders" metadata authorization',
    ]);
  });

  it('encodes and reads the health messages by hand', () => {
    expect(encodeHealthRequest('')).toEqual(Buffer.alloc(0));
    expect(encodeHealthRequest('a.B')).toEqual(Buffer.from([0x0a, 3, 0x61, 0x2e, 0x42]));
    expect(decodeHealthResponse(Buffer.alloc(0))).toBe('UNKNOWN');
    expect(decodeHealthResponse(Buffer.from([0x08, 1]))).toBe('SERVING');
    // An unknown length-delimited field before the status is skipped.
    expect(decodeHealthResponse(Buffer.from([0x12, 2, 0, 0, 0x08, 2]))).toBe('NOT_SERVING');
    expect(decodeHealthResponse(Buffer.from([0x08, 9]))).toBe(9);
    for (const bad of [[0xff], [0x12, 10, 0], [0x0f], [0x00, 1]]) expect(() => decodeHealthResponse(Buffer.from(bad))).toThrow();
  });
});
