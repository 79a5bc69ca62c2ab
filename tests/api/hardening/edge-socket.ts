// Raw HTTP/1.1 over a TCP socket, for what node:http and fetch will not send: oversized or
// malformed request lines, bodies trickled byte by byte. Parses the one answer the server gives.
import { connect } from 'node:net';
import { expect } from 'vitest';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** ms from the first byte sent until the server closed the connection */
  closedAfterMs: number;
}

export function rawExchange(
  port: number,
  head: string,
  opts: { trickle?: string; everyMs?: number; giveUpMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${opts.giveUpMs ?? 10_000} ms`));
    }, opts.giveUpMs ?? 10_000);
    socket.on('connect', () => {
      socket.write(head);
      if (opts.trickle) {
        let i = 0;
        timer = setInterval(() => {
          if (i < opts.trickle!.length && socket.writable) socket.write(opts.trickle![i++]);
        }, opts.everyMs ?? 100);
      }
    });
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the answer is fine; the answer is judged below
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      const text = Buffer.concat(chunks).toString('utf8');
      const [headText, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = headText.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), closedAfterMs: Date.now() - started });
    });
  });
}

/** An error answer as every error of ours must look: a problem document with the security headers. */
export function expectHardenedProblem(
  status: number,
  headers: Record<string, string | null | undefined> | Headers,
  body: string,
  expected: number,
): void {
  const get = (k: string) => (headers instanceof Headers ? headers.get(k) : headers[k]);
  expect(status).toBe(expected);
  expect(get('content-type')).toMatch(/^application\/problem\+json/);
  expect(get('x-content-type-options')).toBe('nosniff');
  expect(get('x-frame-options')).toBe('DENY');
  expect(get('content-security-policy')).toContain("default-src 'none'");
  const parsed = JSON.parse(body) as { status: number; detail: string; title: string; type: string };
  expect(parsed).toMatchObject({ status: expected, type: 'about:blank' });
  expect(parsed.detail).toEqual(expect.any(String));
}
