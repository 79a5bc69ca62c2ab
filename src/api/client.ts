// The console's typed API client: openapi-fetch over the generated contract types, with the
// client rules of the spec (sections 7 and 8):
// - same origin, cookie credentials, every request times out after 30 s (a streamed answer:
//   30 s to start answering);
// - on 401 exactly one silent POST /api/v1/auth/refresh-token; other requests failing meanwhile
//   wait for it and are replayed; a replayed request is not retried again; if renewal fails the
//   401 is passed on;
// - on 403 the browser goes to /company-login on a company subdomain, else /login, unless the
//   request was an auth call; the error is still passed on.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

export const REQUEST_TIMEOUT_MS = 30_000;
export const AUTH_PREFIX = '/api/v1/auth/';
export const REFRESH_PATH = '/api/v1/auth/refresh-token';
// Calls whose 401 means "wrong credentials" or "no session", never "access token expired".
const NO_RENEWAL = new Set(['/api/v1/auth/login', '/api/v1/auth/signup', '/api/v1/auth/logout', REFRESH_PATH]);

export type ApiClient = Client<paths>;
export type Transport = (req: Request) => Promise<Response>;

export interface ApiClientOptions {
  /** '' (the default) is the page's own origin. Tests pass a loopback server's origin. */
  baseUrl?: string;
  /** The network underneath (defaults to the browser's fetch). */
  fetch?: Transport;
  timeoutMs?: number;
  /** Where a 403 sends the browser: '/company-login' on a company subdomain, else '/login'. */
  loginPath?: () => string;
  /** Navigates away on 403 (defaults to window.location.assign). */
  redirect?: (path: string) => void;
}

export class RequestTimeoutError extends Error {
  constructor(ms: number) {
    super(`The request timed out after ${Math.round(ms / 1000)} seconds.`);
    this.name = 'RequestTimeoutError';
  }
}

function pathOf(req: Request): string {
  return new URL(req.url).pathname;
}

/** The rules above as a fetch function; openapi-fetch calls it for every request. */
export function createTransport(opts: ApiClientOptions = {}): Transport {
  const send = opts.fetch ?? ((req: Request) => globalThis.fetch(req));
  const timeoutMs = opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const loginPath = opts.loginPath ?? (() => '/login');
  const redirect = opts.redirect ?? ((p: string) => globalThis.location?.assign(p));
  // One renewal at a time; `generation` counts successful renewals so a request that was sent
  // before a renewal finished is replayed without starting another one.
  let renewal: Promise<boolean> | null = null;
  let generation = 0;

  // Each attempt is a fresh Request with the body as bytes (read once), so a replay can resend it
  // and the signal combines the caller's with the time-out.
  async function sendWithTimeout(req: Request, body?: ArrayBuffer): Promise<Response> {
    const timer = new AbortController();
    const timeout = timer.signal;
    const clock = setTimeout(() => timer.abort(), timeoutMs);
    (clock as { unref?: () => void }).unref?.();
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const attempt = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body,
      credentials: req.credentials,
      redirect: req.redirect,
      signal,
    });
    try {
      const res = await send(attempt);
      // A streamed answer (Run now's lines) lasts as long as the run, which the server bounds by
      // the monitor's time-out: the 30 s are for it to start answering, not to finish.
      if (res.headers.get('content-type')?.startsWith('application/x-ndjson')) clearTimeout(clock);
      return res;
    } catch (e) {
      if (timeout.aborted) throw new RequestTimeoutError(timeoutMs);
      throw e;
    }
  }

  function renew(): Promise<boolean> {
    renewal ??= (async () => {
      try {
        const origin = new URL(REFRESH_PATH, baseOrigin()).href;
        const res = await sendWithTimeout(
          new Request(origin, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } }),
        );
        await res.body?.cancel();
        if (res.ok) generation++;
        return res.ok;
      } catch {
        return false;
      } finally {
        renewal = null;
      }
    })();
    return renewal;
  }

  let lastOrigin = '';
  const baseOrigin = () => lastOrigin || globalThis.location?.origin || 'http://localhost';

  return async function transport(req: Request): Promise<Response> {
    lastOrigin = new URL(req.url).origin;
    const path = pathOf(req);
    const body = req.body ? await req.arrayBuffer() : undefined;
    const sentAt = generation;
    let res = await sendWithTimeout(req, body);
    if (res.status === 401 && !NO_RENEWAL.has(path)) {
      const renewed = generation !== sentAt || (await renew());
      if (renewed) {
        await res.body?.cancel();
        res = await sendWithTimeout(req, body);
      }
    }
    if (res.status === 403 && !path.startsWith(AUTH_PREFIX)) redirect(loginPath());
    return res;
  };
}

export function createApiClient(opts: ApiClientOptions = {}): ApiClient {
  return createClient<paths>({
    baseUrl: opts.baseUrl ?? '',
    credentials: 'same-origin',
    fetch: createTransport(opts),
  });
}

/** The server's problem `detail`, else the fallback: the sign-in and signup rule of section 8, where a network
 *  failure or time-out shows the form's own text ('Login failed. Please try again.'), not a transport message. */
export function detailOr(error: unknown, fallback: string): string {
  return problemDetail(error) ?? fallback;
}

/** The non-empty `detail` of a problem response, if the error is one. */
function problemDetail(error: unknown): string | null {
  const detail = error && typeof error === 'object' ? (error as { detail?: unknown }).detail : undefined;
  return typeof detail === 'string' && detail ? detail : null;
}

/** The text to show for a failed call: the server's problem `detail`, else the error's message, else the fallback. */
export function errorText(error: unknown, fallback: string): string {
  const detail = problemDetail(error);
  if (detail) return detail;
  if (error && typeof error === 'object') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message) return message;
  }
  if (typeof error === 'string' && error && !error.startsWith('<')) return error;
  return fallback;
}
