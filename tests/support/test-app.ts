// Starts the real server (Fastify on a loopback port, real database) for API tests, with a
// cookie-keeping client whose every response is checked against the OpenAPI document.
import type { FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import { parseConfig, type Config } from '../../src/server/config.ts';
import type { Services } from '../../src/server/domain/context.ts';
import type { DbKind } from '../../src/server/db/connect.ts';
import { openDb } from '../../src/server/db/connect.ts';
import { buildApp, type AppOptions } from '../../src/server/http/app.ts';
import { createPageServices, createServices } from '../../src/server/services.ts';
import { assertMatchesContract } from './contract.ts';
import { newDatabaseLocation, tempDir } from './test-db.ts';

/** node:http, because fetch does not let a caller set the Host header (tenant hosts). */
export function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string | Uint8Array,
): Promise<{ status: number; headers: Headers; text: string; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) {
          if (Array.isArray(v)) for (const x of v) h.append(k, x);
          else if (v !== undefined) h.set(k, String(v));
        }
        const bytes = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: h, text: bytes.toString('utf8'), bytes });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
  /** The body as received (PDF and other binary answers) */
  bytes: Buffer;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Host header (tenant subdomains, e.g. acme.localhost); defaults to the product domain */
  host?: string;
  /** Send the body as is (no JSON encoding) */
  raw?: string | Uint8Array;
}

/** What one GET answered: compared whole, a document that changed shows in the diff. */
export type FetchedDocuments = Record<string, { status: number; text: string }>;

/** GETs each path in turn with `opts`, as one visitor would, keyed by path. */
export async function fetchDocuments(client: ApiClient, paths: string[], opts: RequestOptions): Promise<FetchedDocuments> {
  const out: FetchedDocuments = {};
  for (const p of paths) {
    const r = await client.get(p, opts);
    out[p] = { status: r.status, text: r.text };
  }
  return out;
}

/** A browser-like client: keeps cookies per host, sends same-origin headers on writes. */
export class ApiClient {
  readonly baseUrl: string;
  readonly defaultHost: string;
  readonly jar = new Map<string, Map<string, string>>();
  constructor(baseUrl: string, defaultHost: string) {
    this.baseUrl = baseUrl;
    this.defaultHost = defaultHost;
  }
  cookieHeader(host: string): string {
    return [...(this.jar.get(host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  setCookie(host: string, name: string, value: string): void {
    if (!this.jar.has(host)) this.jar.set(host, new Map());
    this.jar.get(host)!.set(name, value);
  }
  async request<T = any>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const port = new URL(this.baseUrl).port;
    const host = opts.host ?? this.defaultHost;
    const headers: Record<string, string> = { host: `${host}:${port}`, ...opts.headers };
    const cookies = this.cookieHeader(host);
    if (cookies && !('cookie' in headers)) headers.cookie = cookies;
    let body: string | Uint8Array | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    if (!['GET', 'HEAD'].includes(method) && !('origin' in headers)) headers.origin = `http://${host}:${port}`;
    const res = await rawRequest(this.baseUrl + path, method, headers, body);
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = /max-age=0/i.test(c) || /expires=Thu, 01 Jan 1970/i.test(c);
      if (!this.jar.has(host)) this.jar.set(host, new Map());
      if (expired || value === '') this.jar.get(host)!.delete(name);
      else this.jar.get(host)!.set(name, value);
    }
    const text = res.text;
    const type = res.headers.get('content-type') ?? '';
    let parsed: any = text;
    if (type.includes('json') && text) parsed = JSON.parse(text);
    await assertMatchesContract(method, path, res.status, type, parsed);
    return { status: res.status, headers: res.headers, body: parsed, text, bytes: res.bytes };
  }
  get<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('GET', path, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('POST', path, { ...opts, body });
  }
  put<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PUT', path, { ...opts, body });
  }
  patch<T = any>(path: string, body?: unknown, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...opts, body });
  }
  delete<T = any>(path: string, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, opts);
  }
}

export interface TestApp {
  baseUrl: string;
  port: number;
  config: Config;
  services: Services;
  app: FastifyInstance;
  /** What the server logged at error level (JSON lines) and what the database connection reported */
  errorLog: string[];
  /** A new client with its own cookie jar */
  client(): ApiClient;
  close(): Promise<void>;
}

export async function startTestApp(opts: {
  db: DbKind;
  env?: Record<string, string>;
  now?: () => number;
  withPages?: boolean;
  timeouts?: AppOptions['timeouts'];
  /** Log at this level into errorLog (default: errors only) */
  logLevel?: AppOptions['errorLogLevel'];
  /** A database of the test's own (a cluster it stops, a file on a tiny disk) instead of a fresh one */
  location?: { file?: string; url?: string };
}): Promise<TestApp> {
  const loc = opts.location ?? (await newDatabaseLocation(opts.db));
  const dataDir = tempDir();
  const config = parseConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(loc.url ? { DATABASE_URL: loc.url } : {}),
    ...opts.env,
  });
  const errorLog: string[] = [];
  const log = (line: string) => void errorLog.push(line);
  const db = loc.file ? openDb({ kind: 'sqlite', file: loc.file, log }) : openDb({ kind: 'postgres', url: loc.url!, max: 5, log });
  const services = await createServices(config, { db, now: opts.now });
  const app = await buildApp({
    services,
    pages: createPageServices(services),
    withPages: opts.withPages ?? false,
    timeouts: opts.timeouts,
    errorLog: { write: (line) => void errorLog.push(line) },
    errorLogLevel: opts.logLevel,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    port,
    config,
    services,
    app,
    errorLog,
    client: () => new ApiClient(baseUrl, config.productDomain),
    async close() {
      await app.close();
      for (const hook of services.onShutdown ?? []) await hook();
      await services.db.close();
    },
  };
}
