// HTTP(S) checks: every hop's address passes the SSRF guard before it is connected to (the
// request goes to that address; Host and SNI carry the name). Bounded: total deadline (the
// engine's signal), header size, redirect count, body size counted after decompression.
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { certificateFacts, type CertificateFacts } from './certificate.ts';
import zlib from 'node:zlib';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { isCertificateRefusal, networkErrorText } from '../../net/error-text.ts';
import { headerAssertionProblem, keywordFound } from './http-assertions.ts';
import { jsonPathGet, statusAccepted } from './http-rules.ts';
import { trustContext } from './socket-session.ts';
import { failed, round, type CheckEnv, type CheckOutcome, type Checker, type Timings } from './types.ts';

export const USER_AGENT = 'StatusWatch-Monitor/1.0';

/** What an http monitor stores (engine/kinds/http.ts validates it). */
export interface HttpConfig {
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | null;
  accepted_status_codes?: string[];
  keyword?: string | null;
  keyword_mode?: 'present' | 'absent';
  /** the keyword is a regular expression (RE2 syntax) */
  keyword_regex?: boolean;
  /** response header name → text its value must contain, `/regex/`, or '' (present) */
  header_assertions?: Record<string, string> | null;
  json_path?: string | null;
  json_expected?: string | null;
  follow_redirects?: boolean;
  degraded_threshold_ms?: number | null;
}

interface Hop extends CertificateFacts {
  res: IncomingMessage;
  timings: Timings;
}

class CheckFailure extends Error {
  readonly httpCode: number | null;
  constructor(message: string, httpCode: number | null = null) {
    super(message);
    this.httpCode = httpCode;
  }
}

function describeError(e: unknown, timeoutMs: number, signal: AbortSignal): string {
  if (signal.aborted) return `Timed out after ${timeoutMs / 1000} s`;
  if (e instanceof TargetRefused || e instanceof CheckFailure) return e.message;
  return networkErrorText(e);
}

async function oneHop(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | null,
  env: CheckEnv,
  signal: AbortSignal,
  started: number,
  timings: Timings,
): Promise<Hop> {
  const t0 = performance.now();
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const { address } = await resolveSafe(hostname, env.allowPrivateTargets, env.resolve, signal);
  timings.dns = round(performance.now() - t0);
  const secure = url.protocol === 'https:';
  const mod = secure ? https : http;
  return await new Promise<Hop>((resolve, reject) => {
    const req = mod.request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method,
      headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'gzip, deflate', ...headers, host: url.host },
      agent: false,
      signal,
      maxHeaderSize: env.limits.maxHeaderBytes,
      ...(secure ? { servername: isIP(hostname) ? undefined : hostname, secureContext: trustContext(env) } : {}),
    });
    req.on('socket', (socket) => {
      socket.on('connect', () => {
        timings.connect = round(performance.now() - t0 - (timings.dns ?? 0));
      });
      socket.on('secureConnect', () => {
        timings.tls = round(performance.now() - t0 - (timings.dns ?? 0) - (timings.connect ?? 0));
      });
    });
    req.on('response', (res) => {
      timings.ttfb = round(performance.now() - t0);
      const cert = certificateFacts(secure ? (res.socket as TLSSocket).getPeerCertificate?.() : null);
      timings.total = round(performance.now() - started);
      resolve({ res, timings, ...cert });
    });
    req.on('error', reject);
    if (body) req.end(body);
    else req.end();
  });
}

/** Reads the body through gzip/deflate, counting decompressed bytes against the cap. */
function readBody(res: IncomingMessage, maxBytes: number, signal: AbortSignal, keep: boolean): Promise<string> {
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  let stream: NodeJS.ReadableStream = res;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = res.pipe(zlib.createGunzip());
  else if (encoding === 'deflate') stream = res.pipe(zlib.createInflate());
  else if (encoding === 'br')
    return Promise.reject(
      new CheckFailure('Brotli-compressed response refused (only gzip and deflate are decoded)', res.statusCode ?? null),
    );
  else if (encoding !== 'identity' && encoding !== '')
    return Promise.reject(new CheckFailure('Unsupported content encoding (only gzip and deflate are decoded)', res.statusCode ?? null));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (err: Error) => {
      res.destroy();
      (stream as zlib.Gunzip).destroy?.();
      reject(err);
    };
    signal.addEventListener('abort', () => stop(new Error('aborted')), { once: true });
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes)
        return stop(
          new CheckFailure(`Response body larger than ${Math.round(maxBytes / 1024)} KiB (after decompression)`, res.statusCode ?? null),
        );
      if (keep) chunks.push(c);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', () => stop(new CheckFailure('Response body could not be decompressed', res.statusCode ?? null)));
    res.on('error', (e: Error) => stop(e));
  });
}

/** One request's answer, unjudged: what an api_flow step asserts on. */
export interface HttpAnswer extends CertificateFacts {
  status: number;
  headers: IncomingMessage['headers'];
  /** The body as text ('' for HEAD, and when `keepBody` was false) */
  body: string;
  timings: Timings;
}

export interface HttpRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  followRedirects: boolean;
  /** Keep the body's text (it is read and counted against the size cap either way) */
  keepBody: boolean;
}

/** Why a request failed, with what it had seen: the phases and, when it got one, the status. */
export class HttpExchangeError extends Error {
  readonly timings: Timings;
  readonly httpCode: number | null;
  /** The last request got its response (a failure after it has a response time, a time-out none) */
  readonly answered: boolean;
  readonly cause: unknown;
  constructor(message: string, timings: Timings, httpCode: number | null, answered: boolean, cause: unknown) {
    super(message);
    this.timings = timings;
    this.httpCode = httpCode;
    this.answered = answered;
    this.cause = cause;
  }
}

/**
 * One request with its redirects: every hop's address through the guard, the limits of `env`,
 * the body read through gzip/deflate within the size cap. `started` is when the time counted in
 * `timings.total` began (the check's start, or an api_flow step's). The caller judges the answer.
 */
export async function httpExchange(
  req: HttpRequest,
  env: CheckEnv,
  signal: AbortSignal,
  timeoutMs: number,
  started = performance.now(),
): Promise<HttpAnswer> {
  let url = req.url;
  const origin = url.origin;
  // The monitor's headers (credentials among them) are for its own origin: once a redirect
  // leaves it (scheme, host or port), they are not sent again, as browsers and curl do.
  let leftOrigin = false;
  let hop: Hop | undefined;
  // The phases the current hop finished, kept when it fails: a failed check's stored timings
  // then say where it stopped (the incident evidence panel names the failing phase from them).
  let hopTimings: Timings = { total: 0 };
  let answered = false;
  try {
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CheckFailure('Redirected to a URL that is not http or https');
      if (url.origin !== origin) leftOrigin = true;
      const sameMethod = redirects === 0 ? req.method : req.method === 'HEAD' ? 'HEAD' : 'GET';
      answered = false;
      hopTimings = { total: 0 };
      hop = await oneHop(
        url,
        sameMethod,
        leftOrigin ? {} : req.headers,
        redirects === 0 ? req.body : null,
        env,
        signal,
        started,
        hopTimings,
      );
      answered = true;
      const code = hop.res.statusCode ?? 0;
      const location = hop.res.headers.location;
      if (req.followRedirects && code >= 300 && code < 400 && location) {
        hop.res.destroy();
        if (redirects >= env.limits.maxRedirects) throw new CheckFailure(`Too many redirects (more than ${env.limits.maxRedirects})`, code);
        try {
          url = new URL(location, url);
        } catch {
          throw new CheckFailure('Redirected to an invalid URL', code);
        }
        continue;
      }
      break;
    }
    const res = hop.res;
    const body = req.method === 'HEAD' ? '' : await readBody(res, env.limits.maxBodyBytes, signal, req.keepBody);
    return {
      status: res.statusCode ?? 0,
      headers: res.headers,
      body,
      timings: { ...hop.timings, total: round(performance.now() - started) },
      certExpiresAt: hop.certExpiresAt,
      certIssuer: hop.certIssuer,
      certSubject: hop.certSubject,
    };
  } catch (e) {
    hop?.res.destroy();
    const timings = { ...hopTimings, total: round(performance.now() - started) };
    const code = e instanceof CheckFailure ? e.httpCode : (hop?.res.statusCode ?? null);
    throw new HttpExchangeError(describeError(e, timeoutMs, signal), timings, code, answered, e);
  }
}

export const httpChecker: Checker<HttpConfig> = async (target, env, signal) => {
  const cfg = target.config;
  const started = performance.now();
  let url: URL;
  try {
    url = new URL(cfg.url ?? '');
  } catch {
    return failed('Invalid URL');
  }
  const method = (cfg.method ?? 'GET').toUpperCase();
  try {
    const answer = await httpExchange(
      {
        url,
        method,
        headers: cfg.headers ?? {},
        body: cfg.body ?? null,
        followRedirects: cfg.follow_redirects !== false,
        keepBody: Boolean(cfg.keyword || cfg.json_path),
      },
      env,
      signal,
      target.timeoutMs,
      started,
    );
    const { status: code, timings } = answer;
    const outcome: CheckOutcome = {
      status: 'operational',
      responseTimeMs: timings.total,
      httpCode: code,
      error: null,
      timings,
      certExpiresAt: answer.certExpiresAt,
      certIssuer: answer.certIssuer,
      certSubject: answer.certSubject,
    };
    const problem = judge(code, answer.body, cfg) ?? headerAssertionProblem(answer.headers, cfg.header_assertions);
    if (problem) return { ...outcome, status: 'down', error: problem };
    if (cfg.degraded_threshold_ms && timings.total > cfg.degraded_threshold_ms) {
      return {
        ...outcome,
        status: 'degraded',
        error: `Response took ${Math.round(timings.total)} ms (threshold ${cfg.degraded_threshold_ms} ms)`,
      };
    }
    return outcome;
  } catch (e) {
    if (!(e instanceof HttpExchangeError)) throw e;
    // A refused certificate is the check's failure cause, as for ssl monitors (engine/failure-cause.ts).
    const outcome = {
      ...failed(e.message, e.timings, e.httpCode),
      ...(!signal.aborted && isCertificateRefusal(e.cause) ? { detail: { certValid: false, certProblem: e.message } } : {}),
    };
    return e.answered && !signal.aborted ? { ...outcome, responseTimeMs: e.timings.total } : outcome;
  }
};

/** Why the response fails the monitor's rules, in the product's words: the body is never quoted. */
function judge(code: number, text: string, cfg: HttpConfig): string | null {
  if (!statusAccepted(code, cfg.accepted_status_codes)) return `HTTP ${code} is not an accepted status code`;
  if (cfg.keyword) {
    const found = keywordFound(text, cfg.keyword, cfg.keyword_regex === true);
    // The keyword is the monitor's own setting, quoted; the body around it never is.
    if (cfg.keyword_mode === 'absent' && found) return `Keyword "${cfg.keyword}" is present`;
    if (cfg.keyword_mode !== 'absent' && !found) return `Keyword "${cfg.keyword}" not found`;
  }
  if (cfg.json_path) {
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      return 'Response is not JSON';
    }
    const value = jsonPathGet(doc, cfg.json_path);
    const actual = value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
    if (actual === undefined) return `JSON path ${cfg.json_path} not found`;
    if (cfg.json_expected != null && actual !== cfg.json_expected) return `JSON path ${cfg.json_path} did not match the expected value`;
  }
  return null;
}
