// /v1/traces against clients that never stop sending: a refused request is answered from its
// headers and its connection closed, never drained. Each case streams an endless (or slow)
// body on a raw socket and checks what the attacker sees: the status, the connection closed
// soon after, and only a bounded number of bytes taken off its socket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { telemetryOf } from '../../../src/server/telemetry/service.ts';
import { companyWithKey, streamBody, watchServerReads, type StreamOutcome } from './otlp-stream-client.ts';
import { waitFor } from '../../support/wait-for.ts';

const MiB = 1024 * 1024;

describe.each(DB_KINDS)('OTLP ingest closes refused connections on %s', (db) => {
  let t: TestApp;
  let key: string;
  let serverRead: Map<number, number>;

  beforeAll(async () => {
    t = await startTestApp({ db });
    key = (await companyWithKey(t.services)).key;
    serverRead = watchServerReads(t.app.server);
  }, 60_000);
  /** What the server read off the connection, the request head included. */
  const readByServer = async (r: StreamOutcome) => {
    await waitFor(() => serverRead.has(r.localPort), { what: 'the server reading the connection' }).catch(() => undefined);
    return serverRead.get(r.localPort) ?? Infinity;
  };
  afterAll(async () => t?.close());

  const protobuf = { 'content-type': 'application/x-protobuf' };

  it('answers an unknown key 401 from the headers and closes the connection, whatever follows', async () => {
    for (const authorization of ['Bearer sw_live_unknownunknownunknownunknown12', undefined]) {
      const r = await streamBody({
        port: t.port,
        chunked: true,
        runMs: 5_000,
        headers: { ...protobuf, ...(authorization ? { authorization } : {}) },
      });
      expect(r.status, String(authorization)).toBe(401);
      expect(r.headers.connection).toBe('close');
      expect(r.closedAfterAnswerMs, 'closed by the server').not.toBeNull();
      expect(r.closedAfterAnswerMs!).toBeLessThan(1_000);
      expect(await readByServer(r)).toBeLessThan(1 * MiB);
      // the client's socket took only what the kernel buffers hold, not the 23 GB a drain takes
      expect(r.bodyBytesSent).toBeLessThan(8 * MiB);
    }
  });

  it('answers 413 to a Content-Length over 20 MiB before reading the body', async () => {
    const r = await streamBody({
      port: t.port,
      runMs: 5_000,
      headers: { ...protobuf, authorization: `Bearer ${key}`, 'content-length': String(1024 * MiB) },
    });
    expect(r.status).toBe(413);
    expect(r.closedAfterAnswerMs).not.toBeNull();
    expect(r.closedAfterAnswerMs!).toBeLessThan(1_000);
    expect(await readByServer(r)).toBeLessThan(1 * MiB);
    expect(r.bodyBytesSent).toBeLessThan(8 * MiB);
  });

  it('stops reading an endless body at the 20 MiB cap: 413, then the connection is closed', async () => {
    const r = await streamBody({ port: t.port, chunked: true, runMs: 10_000, headers: { ...protobuf, authorization: `Bearer ${key}` } });
    expect(r.status).toBe(413);
    expect(r.closedAfterAnswerMs).not.toBeNull();
    expect(r.closedAfterAnswerMs!).toBeLessThan(1_000);
    expect(await readByServer(r)).toBeLessThan(21 * MiB);
    expect(r.bodyBytesSent).toBeLessThan(28 * MiB);
  });

  it('stops inflating an endless gzip stream at the cap', async () => {
    // one gzip member of 2 MiB of zeros, repeated: a valid multi-member gzip stream that inflates ~500x
    const member = gzipSync(Buffer.alloc(2 * MiB));
    const r = await streamBody({
      port: t.port,
      chunked: true,
      runMs: 10_000,
      chunk: () => member,
      headers: { ...protobuf, 'content-encoding': 'gzip', authorization: `Bearer ${key}` },
    });
    expect(r.status).toBe(413);
    expect(r.closedAfterAnswerMs).not.toBeNull();
    expect(r.closedAfterAnswerMs!).toBeLessThan(1_000);
    expect(await readByServer(r)).toBeLessThan(1 * MiB);
    expect(r.bodyBytesSent).toBeLessThan(8 * MiB);
  });

  it('cuts a body trickled slower than the route allows (408) and closes the connection', async () => {
    const limits = telemetryOf(t.services).limits;
    const before = limits.bodyTimeoutMs;
    limits.bodyTimeoutMs = 600;
    try {
      const r = await streamBody({
        port: t.port,
        runMs: 5_000,
        trickleMs: 100,
        chunk: () => Buffer.from([0x0a]),
        headers: { ...protobuf, authorization: `Bearer ${key}`, 'content-length': '100000' },
      });
      expect(r.status).toBe(408);
      expect(r.answeredAfterMs!).toBeLessThan(2_000);
      expect(r.closedAfterAnswerMs).not.toBeNull();
      expect(r.closedAfterAnswerMs!).toBeLessThan(1_000);
    } finally {
      limits.bodyTimeoutMs = before;
    }
  });

  it('still serves a normal export after all that', async () => {
    const r = await t.client().request('POST', '/v1/traces', {
      raw: '{"resourceSpans":[]}',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    });
    expect(r.status).toBe(200);
  });
});
