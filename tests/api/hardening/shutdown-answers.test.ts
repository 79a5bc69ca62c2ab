// While the server shuts down, the requests still arriving on open connections are refused with
// 503: that answer, too, is a problem document with the security headers (Fastify's own refusal
// is bare JSON written before any hook of ours runs).
import { connect } from 'node:net';
import { afterAll, describe, it } from 'vitest';
import { once } from 'node:events';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { expectHardenedProblem } from './edge-socket.ts';
import { waitFor } from '../../support/wait-for.ts';

/** The answers of one connection, split at each status line (bodies here carry a Content-Length). */
function answersOf(raw: string): Array<{ status: number; headers: Record<string, string>; body: string }> {
  const out = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
    const length = Number(headers['content-length'] ?? 0);
    out.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

describe('answers during shutdown', () => {
  let t: TestApp | undefined;
  afterAll(async () => t?.services.db.close());

  it('refuses a request arriving on an open connection while the server closes with a hardened 503 problem', async () => {
    t = await startTestApp({ db: 'sqlite' });
    const socket = connect(t.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    const closed = new Promise((r) => socket.on('close', r));
    // A request in progress (its body still arriving) keeps the connection open through close().
    const body = '{"email":"a@example.com"}';
    const arrived = once(t.app.server, 'request');
    socket.write(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: localhost:${t.port}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    await arrived; // the server has the request, its body still coming
    const closing = t.app.close();
    await waitFor(() => !t!.app.server.listening, { what: 'the server closing' });
    // the rest of the body, then a second request on the same connection
    socket.write(`${body.slice(5)}GET /api/v1/health/ HTTP/1.1\r\nHost: localhost:${t.port}\r\n\r\n`);
    await closed;
    await closing;
    const answers = answersOf(Buffer.concat(chunks).toString('utf8'));
    const refused = answers.find((a) => a.status === 503);
    if (!refused) throw new Error(`no 503 among ${answers.map((a) => a.status).join(', ')}`);
    expectHardenedProblem(refused.status, refused.headers, refused.body, 503);
  });
});
