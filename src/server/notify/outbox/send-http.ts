// Sends one channel request: the host passes the monitors' SSRF guard (ALLOW_PRIVATE_TARGETS
// opens private ranges), the request goes to the address that was checked (Host and SNI carry
// the name), no redirects are followed, the whole exchange is bounded by a deadline and the
// answer's body is read up to a cap and thrown away (an issue tracker reads it for the issue it
// opened; it is never stored): receipts hold product-built text only.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { networkErrorText } from '../../net/error-text.ts';
import { resolveSafe, TargetRefused, type PrivateTargets, type Resolver } from '../../net/ssrf.ts';
import type { OutboundRequest } from '../channels/channel.ts';

export const SEND_TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 64 * 1024;

export interface SendResult {
  statusCode: number | null;
  /** null when the receiver accepted it (2xx) */
  error: string | null;
  /** The receiver's Retry-After, in ms from now */
  retryAfterMs: number | null;
  /** The answer's body (capped), only when asked for: issue trackers read which issue they opened */
  answer?: string;
}

export interface HttpSendEnv {
  allowPrivateTargets: PrivateTargets;
  resolve: Resolver;
  timeoutMs?: number;
  now: () => number;
  /** Keep the answer's body (up to the cap) in the result instead of throwing it away */
  keepAnswer?: boolean;
}

export async function sendHttp(req: OutboundRequest, env: HttpSendEnv): Promise<SendResult> {
  const timeoutMs = env.timeoutMs ?? SEND_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return { statusCode: null, error: 'The channel URL is not valid', retryAfterMs: null };
  }
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  try {
    const { address } = await resolveSafe(hostname, env.allowPrivateTargets, env.resolve, signal);
    const secure = url.protocol === 'https:';
    const chunks: Buffer[] = [];
    const statusAndRetry = await new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
      const r = (secure ? https : http).request({
        host: address,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: req.method,
        // A GET without a body says nothing of its length (some servers refuse a GET with one).
        headers: {
          ...req.headers,
          host: url.host,
          ...(req.method === 'GET' && req.body === '' ? {} : { 'content-length': Buffer.byteLength(req.body) }),
        },
        agent: false,
        signal,
        ...(secure ? { servername: isIP(hostname) ? undefined : hostname } : {}),
      });
      r.on('response', (res) => {
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          // Past the cap the status is all we keep; below it a tracker keeps the answer to read.
          if (size > MAX_ANSWER_BYTES) res.destroy();
          else if (env.keepAnswer) chunks.push(c);
        });
        const done = () => resolve({ status: res.statusCode ?? 0, retryAfter: headerOf(res.headers['retry-after']) });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      r.on('error', reject);
      r.end(req.body);
    });
    const { status, retryAfter } = statusAndRetry;
    if (status >= 200 && status < 300)
      return {
        statusCode: status,
        error: null,
        retryAfterMs: null,
        ...(env.keepAnswer ? { answer: Buffer.concat(chunks).toString('utf8') } : {}),
      };
    return {
      statusCode: status,
      error: status === 429 ? 'HTTP 429: the receiver asked to slow down' : `HTTP ${status}: the receiver did not accept the alert`,
      retryAfterMs: retryAfterMs(retryAfter, env.now()),
      // A refusal's body says why (Slack's "no_service", Discord's code 10015): read, never stored.
      ...(env.keepAnswer ? { answer: Buffer.concat(chunks).toString('utf8') } : {}),
    };
  } catch (e) {
    if (signal.aborted) return { statusCode: null, error: `Timed out after ${timeoutMs / 1000} s`, retryAfterMs: null };
    if (e instanceof TargetRefused) return { statusCode: null, error: e.message, retryAfterMs: null };
    return { statusCode: null, error: networkErrorText(e), retryAfterMs: null };
  }
}

const headerOf = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Retry-After as seconds or an HTTP date (RFC 9110 section 10.2.3); null when absent or unreadable. */
export function retryAfterMs(v: string | undefined, now: number): number | null {
  if (!v) return null;
  if (/^\d{1,9}$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
