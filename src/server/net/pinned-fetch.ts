// A fetch()-shaped request to an address already checked by the SSRF guard (resolveSafe): the
// connection goes to that address (the Host header and TLS SNI carry the name, and the
// certificate is checked against the name), so a DNS answer that changes between the check and
// the connection (rebinding) cannot send it elsewhere. No redirects are followed; the answer's body
// is read up to a cap. For clients that take a fetch function (openid-client's customFetch).
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';

export const PINNED_FETCH_MAX_BYTES = 1024 * 1024;

export interface PinnedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array | null;
  signal?: AbortSignal;
}

export function pinnedFetch(url: URL, address: string, init: PinnedRequest = {}): Promise<Response> {
  const secure = url.protocol === 'https:';
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const body = init.body ?? undefined;
  return new Promise<Response>((resolve, reject) => {
    const req = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: init.method ?? 'GET',
      headers: {
        ...init.headers,
        host: url.host,
        ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
      },
      agent: false,
      signal: init.signal,
      ...(secure ? { servername: isIP(hostname) ? undefined : hostname } : {}),
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > PINNED_FETCH_MAX_BYTES) {
          res.destroy();
          reject(new Error(`the answer of ${url.host} is larger than ${PINNED_FETCH_MAX_BYTES} bytes`));
        } else chunks.push(c);
      });
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (v === undefined) continue;
          for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
        }
        const status = res.statusCode ?? 502;
        // A Response cannot carry a body with 204/304 (nor a status outside 200-599).
        const noBody = status === 204 || status === 304;
        resolve(new Response(noBody ? null : Buffer.concat(chunks), { status: status < 200 || status > 599 ? 502 : status, headers }));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
