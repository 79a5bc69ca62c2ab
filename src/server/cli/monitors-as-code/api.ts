// The management API as the CLI calls it: JSON over HTTP(S) to the company's host with an API
// token as bearer (no cookies, so no same-origin check applies). Host names under .localhost
// reach this machine, as browsers do it (RFC 6761), so `http://acme.localhost:4321` works in
// development without an /etc/hosts entry.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { lookup as dnsLookup, type LookupAllOptions, type LookupOneOptions } from 'node:dns';

export class ApiError extends Error {
  readonly status: number;
  /** the problem's detail (or title) as the platform wrote it */
  readonly detail: string;
  constructor(method: string, path: string, status: number, detail: string) {
    super(`${method} ${path} answered ${status}: ${detail}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
  }
}

/** dns.lookup, except that localhost and its subdomains are this machine. */
const loopbackForLocalhost = ((hostname: string, options: LookupAllOptions | LookupOneOptions, callback: (...args: unknown[]) => void) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    if (options.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
    return callback(null, '127.0.0.1', 4);
  }
  dnsLookup(hostname, options, callback);
}) as LookupFunction;

export interface Api {
  readonly origin: string;
  /** The answer's JSON, typed by the caller after the API's contract (openapi/) */
  get<T>(path: string): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<T>;
}

/** What a problem answer says, else the start of its text. */
export function detailOf(text: string): string {
  try {
    const p = JSON.parse(text) as { detail?: unknown; title?: unknown; errors?: unknown };
    const fields = p.errors && typeof p.errors === 'object' ? ` ${JSON.stringify(p.errors)}` : '';
    if (typeof p.detail === 'string' && p.detail) return p.detail + fields;
    if (typeof p.title === 'string') return p.title + fields;
  } catch {
    // not JSON: shown as text below
  }
  return text.slice(0, 300) || '(no body)';
}

export function createApi(origin: string, token: string, timeoutMs = 30_000): Api {
  const base = new URL(origin);
  const call = (method: string, path: string, body?: unknown): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const url = new URL(path, base);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        url,
        {
          method,
          lookup: loopbackForLocalhost,
          timeout: timeoutMs,
          headers: {
            accept: 'application/json',
            authorization: `Bearer ${token}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 299) return reject(new ApiError(method, url.pathname, status, detailOf(text)));
            try {
              resolve(text ? JSON.parse(text) : null);
            } catch {
              reject(new ApiError(method, url.pathname, status, 'the answer is not JSON'));
            }
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${url.pathname}: no answer within ${timeoutMs / 1000} s`)));
      req.on('error', reject);
      req.end(payload);
    });
  return {
    origin: base.origin,
    get: <T>(path: string) => call('GET', path) as Promise<T>,
    send: <T>(method: string, path: string, body?: unknown) => call(method, path, body) as Promise<T>,
  };
}
