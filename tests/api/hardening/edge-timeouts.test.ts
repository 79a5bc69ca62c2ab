// A client cannot hold a connection by sending slowly: the request (headers and body) must
// arrive within the server's request time-out, and the answer then is a 408 problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { expectHardenedProblem, rawExchange } from './edge-socket.ts';

describe('server time-outs', () => {
  let t: TestApp;
  const limits = { requestMs: 1500, headersMs: 1000, checkIntervalMs: 100 };
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite', timeouts: limits });
  });
  afterAll(async () => t?.close());

  it('has a request time-out, a headers time-out and keep-alive limits by default', async () => {
    const plain = await startTestApp({ db: 'sqlite' });
    try {
      expect(plain.app.server.requestTimeout).toBe(30_000);
      expect(plain.app.server.headersTimeout).toBe(15_000);
      expect(plain.app.server.keepAliveTimeout).toBe(65_000);
      expect(plain.app.server.timeout).toBe(120_000);
    } finally {
      await plain.close();
    }
  });

  it('closes a connection whose JSON body trickles in, with a 408 problem, within the limit', async () => {
    const body = JSON.stringify({ email: 'someone@example.com', password: 'x'.repeat(100) });
    const head = `POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const answer = await rawExchange(t.port, head, { trickle: body, everyMs: 250, giveUpMs: 8000 });
    expectHardenedProblem(answer.status, answer.headers, answer.body, 408);
    expect(answer.headers.connection).toBe('close');
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(limits.requestMs - 100);
    expect(answer.closedAfterMs).toBeLessThan(limits.requestMs + 1000);
  });

  it('closes a connection whose headers trickle in within the headers limit', async () => {
    const answer = await rawExchange(t.port, 'GET /api/v1/health/ HTTP/1.1\r\nHost: localhost\r\n', {
      trickle: 'X-Slow: ' + 'a'.repeat(100),
      everyMs: 200,
      giveUpMs: 8000,
    });
    expectHardenedProblem(answer.status, answer.headers, answer.body, 408);
    expect(answer.closedAfterMs).toBeLessThan(limits.headersMs + 1000);
  });
});
