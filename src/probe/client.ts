// The probe's calls to the platform, over HTTP(S) with its token and nothing else. A failure is
// sorted by what the probe should do about it: `unreachable` (no answer, 5xx, 429: keep checking,
// buffer, try again), `unauthorized` (401: the token was revoked or is unknown; stop) or
// `rejected` (another 4xx: this request will never be taken as it is).
import type { AssignmentsAnswer, HelloAnswer, ResultsAnswer, WireResult } from './wire.ts';

export type PlatformErrorKind = 'unreachable' | 'unauthorized' | 'rejected';

export class PlatformError extends Error {
  readonly kind: PlatformErrorKind;

  constructor(kind: PlatformErrorKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

/** How long a call may take beyond its long-poll wait */
const CALL_TIMEOUT_MS = 15_000;

export interface ProbeStats {
  instance: string;
  checks_per_second: number;
  lag_ms_p99: number;
}

export class PlatformClient {
  private readonly baseUrl: string;
  private readonly token: string;

  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, waitMs = 0, signal?: AbortSignal): Promise<T> {
    const timeout = AbortSignal.timeout(CALL_TIMEOUT_MS + waitMs);
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new PlatformError('unreachable', cause?.code ?? cause?.message ?? (e as Error).message);
    }
    const text = await res.text().catch(() => '');
    if (res.ok) return JSON.parse(text) as T;
    const detail = (() => {
      try {
        return (JSON.parse(text) as { detail?: string }).detail ?? '';
      } catch {
        return '';
      }
    })();
    const what = `HTTP ${res.status}${detail ? `: ${detail}` : ''}`;
    if (res.status === 401) throw new PlatformError('unauthorized', what);
    if (res.status >= 500 || res.status === 429 || res.status === 408) throw new PlatformError('unreachable', what);
    throw new PlatformError('rejected', what);
  }

  hello(instance: string, version: string, capabilities: string[]): Promise<HelloAnswer> {
    return this.call('POST', '/api/v1/probe/hello', { instance, version, ...(capabilities.length ? { capabilities } : {}) });
  }

  assignments(instance: string, version: string | null, waitS: number, signal?: AbortSignal): Promise<AssignmentsAnswer> {
    const q = new URLSearchParams({ instance });
    if (version !== null) {
      q.set('version', version);
      q.set('wait', String(waitS));
    }
    return this.call('GET', `/api/v1/probe/assignments?${q}`, undefined, version === null ? 0 : waitS * 1000, signal);
  }

  results(stats: ProbeStats, results: WireResult[]): Promise<ResultsAnswer> {
    return this.call('POST', '/api/v1/probe/results', { stats, results });
  }
}
