// One bounded GET for the domain checks (RDAP answers, MTA-STS policy files): the host's
// address passes the SSRF guard and is what is connected to (Host and SNI carry the name), no
// redirect is followed (RFC 8461 forbids it for MTA-STS; RDAP answers are asked of the
// registry's own server), the body is capped and the whole exchange has a deadline.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { resolveSafe, type PrivateTargets, type Resolver } from '../../net/ssrf.ts';
import { USER_AGENT } from '../../engine/checkers/http.ts';

export interface GetOptions {
  allowPrivateTargets: PrivateTargets;
  resolve: Resolver;
  extraCa?: readonly string[];
  accept: string;
  maxBytes: number;
  signal: AbortSignal;
  /** Filled as the exchange goes (ms since the call): a monitor's check shows its phases. */
  phases?: GetPhases;
}

export interface GetPhases {
  dns?: number;
  connect?: number;
  tls?: number;
  ttfb?: number;
}

export interface GetAnswer {
  status: number;
  contentType: string;
  body: string;
}

export class GetFailure extends Error {}

export async function guardedGet(url: URL, opts: GetOptions): Promise<GetAnswer> {
  const started = performance.now();
  const at = () => Math.round((performance.now() - started) * 100) / 100;
  const phases = opts.phases ?? {};
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const { address } = await resolveSafe(hostname, opts.allowPrivateTargets, opts.resolve, opts.signal);
  phases.dns = at();
  const secure = url.protocol === 'https:';
  return new Promise<GetAnswer>((resolve, reject) => {
    const req = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: { host: url.host, 'user-agent': USER_AGENT, accept: opts.accept },
      agent: false,
      signal: opts.signal,
      maxHeaderSize: 16 * 1024,
      ...(secure
        ? {
            servername: isIP(hostname) ? undefined : hostname,
            ca: opts.extraCa?.length ? [...rootCertificates, ...opts.extraCa] : undefined,
          }
        : {}),
    });
    req.on('error', reject);
    req.once('socket', (socket) => {
      socket.once('connect', () => (phases.connect = at()));
      socket.once('secureConnect', () => (phases.tls = at()));
    });
    req.on('response', (res) => {
      phases.ttfb = at();
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) {
          res.destroy();
          reject(new GetFailure(`answer larger than ${Math.round(opts.maxBytes / 1024)} KiB`));
          return;
        }
        chunks.push(c);
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers['content-type'] ?? ''),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    req.end();
  });
}
