// Every connection of a browser run goes through the platform's SSRF guard: each run's context
// uses its own proxy on loopback (startGuardProxy), which resolves the host with resolveSafe and
// connects to the very address it checked, so DNS rebinding cannot swap the address between the
// check and the connection, and Chromium resolves no names itself. Plain http requests are
// forwarded (Host carries the name); https and WebSockets arrive as CONNECT tunnels to host:port,
// guarded the same way (TLS stays end to end between Chromium and the site). Redirects are
// followed by the browser, each hop a new request through the proxy. The browser's own default
// proxy (launch.ts) closes every connection, so nothing outside a run's context goes anywhere.
//
// Why not context.route + route.fulfill: Chromium follows a fulfilled 3xx itself without asking
// the route again, so a redirect would escape the guard (microsoft/playwright#7910).
import http from 'node:http';
import net from 'node:net';
import { networkErrorText } from '../../../net/error-text.ts';
import { resolveSafe, TargetRefused } from '../../../net/ssrf.ts';
import type { CheckEnv } from '../types.ts';

/** A run moves at most this many bytes through its proxy (both ways): a page that streams without end is cut. */
const MAX_RUN_BYTES = 64 * 1024 * 1024;
/** Connections of one run at most: a page opening sockets in a loop is cut rather than fed. */
const MAX_CONNECTIONS = 400;
/** Between the browser and us, or us and the site: never copied across. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

export interface GuardRecord {
  url: string;
  error: string;
  /** The guard refused it (not a network error or an HTTP status) */
  refused: boolean;
}

export const USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36 StatusWatch-Browser/1.0';

/** The URL without its query and fragment (they may carry tokens), as FailedRequest shows it. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.slice(0, 200);
  }
}

export interface GuardProxy {
  /** http://127.0.0.1:PORT, for the context's `proxy.server` */
  server: string;
  close(): void;
}

const bareHost = (h: string) => (h.startsWith('[') ? h.slice(1, -1) : h);

/** The run's proxy; `records` collects what the guard refused and what failed to connect, in order. */
export async function startGuardProxy(env: CheckEnv, signal: AbortSignal, records: GuardRecord[]): Promise<GuardProxy> {
  let bytes = 0;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const count = (n: number, stop: () => void) => {
    bytes += n;
    if (bytes > MAX_RUN_BYTES) {
      records.push({ url: '', error: `the run moved more than ${MAX_RUN_BYTES / 1024 / 1024} MiB`, refused: false });
      stop();
    }
  };
  /** The checked address of `host`, or null after recording why not. */
  const guarded = async (host: string, shown: string): Promise<string | null> => {
    if (++connections > MAX_CONNECTIONS) {
      records.push({ url: shown, error: `more than ${MAX_CONNECTIONS} connections in one run`, refused: false });
      return null;
    }
    try {
      return (await resolveSafe(bareHost(host), env.allowPrivateTargets, env.resolve, signal)).address;
    } catch (e) {
      if (e instanceof TargetRefused) records.push({ url: shown, error: `refused by the address guard: ${e.address}`, refused: true });
      else if (!signal.aborted) records.push({ url: shown, error: networkErrorText(e), refused: false });
      return null;
    }
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      let url: URL;
      try {
        url = new URL(req.url ?? '');
        if (url.protocol !== 'http:') throw new Error('not http');
      } catch {
        res.writeHead(400).end();
        return;
      }
      const address = await guarded(url.hostname, url.href);
      if (!address) {
        // An empty 403 from us: the browser shows no content of the refused target, and the
        // run's records name the refusal (journey.ts fails the step with it).
        res.writeHead(403, { 'content-length': '0' }).end();
        return;
      }
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) headers[k] = v;
      const upstream = http.request({
        host: address,
        port: url.port || 80,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers: { ...headers, host: url.host, connection: 'close' },
        agent: false,
        signal,
        maxHeaderSize: env.limits.maxHeaderBytes,
      });
      upstream.on('response', (answer) => {
        const out: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(answer.headers)) if (v !== undefined && !HOP_HEADERS.has(k)) out[k] = v;
        res.writeHead(answer.statusCode ?? 502, out);
        answer.on('data', (c: Buffer) => count(c.length, () => answer.destroy()));
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      });
      upstream.on('error', (e) => {
        if (!signal.aborted) records.push({ url: url.href, error: networkErrorText(e), refused: false });
        res.destroy();
      });
      req.pipe(upstream);
    })();
  });

  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    void (async () => {
      const target = req.url ?? '';
      const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
      const port = m ? Number(m[2]) : 0;
      const shown = port === 443 ? `https://${m?.[1]}/` : `https://${target}/`;
      const address = m && port > 0 && port < 65536 ? await guarded(m[1], shown) : null;
      if (!address) {
        client.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      const upstream = net.connect({ host: address, port });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length) upstream.write(head);
        upstream.on('data', (c: Buffer) => count(c.length, () => upstream.destroy()));
        client.on('data', (c: Buffer) => count(c.length, () => client.destroy()));
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', (e) => {
        if (!signal.aborted && !upstream.readyState.startsWith('open'))
          records.push({ url: shown, error: networkErrorText(e), refused: false });
        client.destroy();
      });
      upstream.on('close', () => client.destroy());
      client.on('close', () => upstream.destroy());
    })();
  });
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    server: `http://127.0.0.1:${port}`,
    close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
