// The scanner's HTTP client. Every request is paced (pacer.ts), names the product in its
// User-Agent, connects only to an address the SSRF guard accepted (the name is resolved and
// checked on every request, the request goes to that address), is bounded in time and in
// bytes read, and never follows a redirect to another host.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import zlib from 'node:zlib';
import { resolveSafe } from '../../net/ssrf.ts';
import { pace } from './pacer.ts';
import type { FetchedResponse, PoliteFetcher, ScanEnv } from './types.ts';

export const SCANNER_USER_AGENT_PATH = '/security-scanner';

/** A request the scanner refuses to make (another host, another scheme). */
export class OffHost extends Error {}

export function scannerUserAgent(productDomain: string): string {
  return `StatusWatch-Scanner/1 (+https://${productDomain}${SCANNER_USER_AGENT_PATH})`;
}

export function politeFetcher(hostname: string, env: ScanEnv, userAgent: string, signal: AbortSignal): PoliteFetcher {
  let requests = 0;
  const paced = async () => {
    await pace(hostname, env.options.ratePerSecond, signal);
    requests++;
  };

  async function once(url: URL, maxBytes: number): Promise<FetchedResponse> {
    await paced();
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const { address } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
    const secure = url.protocol === 'https:';
    const timeout = AbortSignal.any([signal, AbortSignal.timeout(env.options.requestTimeoutMs)]);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = (secure ? https : http).request({
        host: address,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        headers: { 'user-agent': userAgent, accept: '*/*', 'accept-encoding': 'gzip, deflate', host: url.host },
        agent: false,
        signal: timeout,
        maxHeaderSize: 16 * 1024,
        ...(secure ? { servername: isIP(host) ? undefined : host, rejectUnauthorized: false } : {}),
      });
      req.on('response', resolve);
      req.on('error', reject);
      req.end();
    });
    const body = await readSome(res, maxBytes, timeout);
    return { url: url.href, status: res.statusCode ?? 0, headers: res.headers, body };
  }

  return {
    async get(raw, { maxBytes, maxRedirects = 0 }) {
      let url = new URL(raw);
      for (let hops = 0; ; hops++) {
        if (url.hostname !== hostname || (url.protocol !== 'http:' && url.protocol !== 'https:'))
          throw new OffHost(`Refused to request ${url.origin}: not the scanned host`);
        const res = await once(url, maxBytes);
        const location = res.headers.location;
        if (res.status < 300 || res.status >= 400 || !location || hops >= maxRedirects) return res;
        const next = new URL(location, url);
        if (next.hostname !== hostname) return res; // never off host: the answer is the redirect itself
        url = next;
      }
    },
    count: () => requests,
    pace: paced,
  };
}

/** Reads the body through gzip/deflate up to `maxBytes` decoded bytes, then stops reading. */
function readSome(res: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase();
  let stream: NodeJS.ReadableStream = res;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      signal.removeEventListener('abort', finish);
      res.destroy();
      resolve(Buffer.concat(chunks).subarray(0, maxBytes));
    };
    signal.addEventListener('abort', finish, { once: true });
    stream.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= maxBytes) finish();
    });
    stream.on('end', finish);
    stream.on('error', finish);
    res.on('error', finish);
  });
}
