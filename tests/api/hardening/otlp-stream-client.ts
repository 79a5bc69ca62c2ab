// A hostile OTLP client on a raw TCP socket: sends request headers, then streams a body as fast
// as the socket takes it (or trickles it), and records what a client sees: the answer's status
// and headers, when it came, when the server closed the connection, and how many body bytes
// the socket accepted. Seeds with an API key made straight through the domain (no sign-in).
import { connect, type Server, type Socket } from 'node:net';
import type { Services } from '../../../src/server/domain/context.ts';
import { createApiKey } from '../../../src/server/domain/telemetry/api-keys.ts';
import { actorFor, ctxFor, seedCompany, seedUser } from '../../support/fixtures.ts';

export interface StreamOutcome {
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** ms from the first byte sent to the answer's head */
  answeredAfterMs: number | null;
  /** ms from the answer's head to the server closing the connection (null: still open at the end) */
  closedAfterAnswerMs: number | null;
  /** body bytes the client's socket accepted (most may still sit in kernel buffers) */
  bodyBytesSent: number;
  /** the client's port: the server side of the connection sees it as remotePort */
  localPort: number;
}

export interface StreamOptions {
  port: number;
  headers: Record<string, string>;
  /** endless by default: a chunk producer called until the run ends */
  chunk?: () => Buffer;
  /** send the body in HTTP chunked framing (no Content-Length header given) */
  chunked?: boolean;
  /** wait this long between writes (trickle) instead of writing as fast as the socket allows */
  trickleMs?: number;
  /** stop and report after this long */
  runMs: number;
  /** stop this long after the answer arrived (default 1,500 ms) */
  afterAnswerMs?: number;
}

export function streamBody(opts: StreamOptions): Promise<StreamOutcome> {
  return new Promise((resolve) => {
    const sock = connect(opts.port, '127.0.0.1');
    const started = Date.now();
    const out: StreamOutcome = {
      status: null,
      headers: {},
      body: '',
      answeredAfterMs: null,
      closedAfterAnswerMs: null,
      bodyBytesSent: 0,
      localPort: 0,
    };
    let answeredAt: number | null = null;
    let received = Buffer.alloc(0);
    let done = false;
    const chunk = opts.chunk ?? (() => Buffer.alloc(64 * 1024, 0x41));
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(overall);
      sock.destroy();
      resolve(out);
    };
    const overall = setTimeout(finish, opts.runMs);
    sock.on('data', (d: Buffer) => {
      received = Buffer.concat([received, d]);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (out.status === null && end >= 0) {
        const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
        out.status = Number(statusLine.split(' ')[1]);
        for (const l of lines) {
          const i = l.indexOf(':');
          out.headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
        }
        answeredAt = Date.now();
        out.answeredAfterMs = answeredAt - started;
        setTimeout(finish, opts.afterAnswerMs ?? 1500);
      }
      if (end >= 0) out.body = text.slice(end + 4);
    });
    const onClosed = () => {
      if (answeredAt !== null && out.closedAfterAnswerMs === null) out.closedAfterAnswerMs = Date.now() - answeredAt;
      if (answeredAt !== null) finish();
    };
    sock.on('end', onClosed);
    sock.on('close', onClosed);
    sock.on('error', () => {});
    const head = Object.entries({
      host: `localhost:${opts.port}`,
      ...opts.headers,
      ...(opts.chunked ? { 'transfer-encoding': 'chunked' } : {}),
    })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    sock.on('connect', () => {
      out.localPort = sock.localPort ?? 0;
      sock.write(`POST /v1/traces HTTP/1.1\r\n${head}\r\n`);
      const pump = () => {
        while (!done && !sock.destroyed && sock.writable) {
          const c = chunk();
          const framed = opts.chunked ? Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]) : c;
          const more = sock.write(framed, (err) => {
            if (!err) out.bodyBytesSent += c.length;
          });
          if (opts.trickleMs) {
            setTimeout(pump, opts.trickleMs);
            return;
          }
          if (!more) {
            sock.once('drain', pump);
            return;
          }
        }
      };
      pump();
    });
  });
}

/** Bytes the server read on each closed connection, by the client's port. */
export function watchServerReads(server: Server): Map<number, number> {
  const read = new Map<number, number>();
  server.on('connection', (s: Socket) => {
    const port = s.remotePort ?? 0;
    s.on('close', () => read.set(port, s.bytesRead));
  });
  return read;
}

/** A company with an ingest key (the plan decides its rate). */
export async function companyWithKey(services: Services, plan = 'starter'): Promise<{ companyId: string; key: string }> {
  const c = await seedCompany(services, { plan });
  const u = await seedUser(services, { userType: 2, companyId: c.id });
  const created = await createApiKey(ctxFor(services, actorFor(u), `${c.subdomain}.localhost`), { name: 'k', scope: 'ingest' });
  return { companyId: c.id, key: created.key };
}
