// How long one client may hold the server: a request (headers and body) must arrive within
// `requestMs`, its headers within `headersMs`; an idle kept-alive connection closes after
// `keepAliveMs`, and a socket silent for `idleMs` in any state is closed. Node checks the
// request deadlines every `checkIntervalMs`, so a request is cut within that much past them.
import type { FastifyServerOptions } from 'fastify';

export interface TimeoutOptions {
  requestMs: number;
  headersMs: number;
  keepAliveMs: number;
  idleMs: number;
  checkIntervalMs: number;
}

export const DEFAULT_TIMEOUTS: TimeoutOptions = {
  requestMs: 30_000,
  headersMs: 15_000,
  // longer than the 60 s idle time-out of common proxies and load balancers, so they close first
  keepAliveMs: 65_000,
  idleMs: 120_000,
  checkIntervalMs: 2_000,
};

export function serverTimeouts(over: Partial<TimeoutOptions> = {}): Pick<
  FastifyServerOptions,
  'requestTimeout' | 'connectionTimeout' | 'keepAliveTimeout'
> & {
  http: { headersTimeout: number; connectionsCheckingInterval: number };
} {
  const t = { ...DEFAULT_TIMEOUTS, ...over };
  return {
    requestTimeout: t.requestMs,
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    // Node requires headersTimeout <= requestTimeout
    http: { headersTimeout: Math.min(t.headersMs, t.requestMs), connectionsCheckingInterval: t.checkIntervalMs },
  };
}
