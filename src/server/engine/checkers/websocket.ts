// WebSocket checks: the upgrade of a ws:// or wss:// URL through the `ws` package, its socket made
// by us to the address the SSRF guard accepted (the URL's host stays the Host header and the TLS
// server name), no redirects followed, no compression, messages bounded. The time to open is the
// response time; an optional message is then sent and an answer containing `ws_expect` awaited.
import net from 'node:net';
import tls from 'node:tls';
import WebSocket from 'ws';
import { networkErrorText } from '../../net/error-text.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { certificateFacts, type CertificateFacts } from './certificate.ts';
import { trustContext } from './socket-session.ts';
import { failed, round, type Checker, type CheckOutcome, type Timings } from './types.ts';

/** What a websocket monitor stores (engine/kinds/websocket.ts validates it). */
export interface WebsocketConfig {
  url?: string;
  ws_subprotocol?: string | null;
  headers?: Record<string, string>;
  ws_message?: string | null;
  ws_expect?: string | null;
  degraded_threshold_ms?: number | null;
}

/** A larger message ends the check: the answer a check reads is a greeting or a pong, not a stream. */
export const MAX_WS_MESSAGE_BYTES = 64 * 1024;
/** Messages read while waiting for `ws_expect`; a target streaming more is not answering. */
const MAX_MESSAGES = 100;

type Ending = { ok: true } | { ok: false; error: string; httpCode?: number };

export const websocketChecker: Checker<WebsocketConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const seconds = target.timeoutMs / 1000;
  const timings: Timings = { total: 0 };
  const since = () => round(performance.now() - started);
  let opened = 0;
  let socket: WebSocket | undefined;
  /** wss: the certificate the server showed (its expiry warns as an https check's does) */
  let cert: CertificateFacts | null = null;
  try {
    const url = new URL(cfg.url ?? '');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const { address } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
    timings.dns = since();
    const secure = url.protocol === 'wss:';
    const secureContext = trustContext(env);
    const ending = await new Promise<Ending>((resolve) => {
      let settled = false;
      const end = (e: Ending) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        resolve(e);
      };
      const onAbort = () => end({ ok: false, error: opened ? `No answer within ${seconds} s` : `Timed out after ${seconds} s` });
      signal.addEventListener('abort', onAbort, { once: true });
      const ws = new WebSocket(url, cfg.ws_subprotocol ? [cfg.ws_subprotocol] : [], {
        headers: cfg.headers ?? {},
        followRedirects: false,
        perMessageDeflate: false,
        maxPayload: MAX_WS_MESSAGE_BYTES,
        // Our socket, to the checked address: ws would otherwise resolve the host itself.
        createConnection: ((opts: tls.ConnectionOptions & net.NetConnectOpts) => {
          const s = secure
            ? tls.connect({
                ...opts,
                host: address,
                servername: net.isIP(host) ? undefined : host,
                secureContext,
                ALPNProtocols: ['http/1.1'],
              })
            : net.connect({ ...(opts as net.TcpNetConnectOpts), host: address });
          s.once('connect', () => {
            timings.connect = round(since() - (timings.dns ?? 0));
          });
          if (secure)
            s.once('secureConnect', () => {
              timings.tls = round(since() - (timings.dns ?? 0) - (timings.connect ?? 0));
              cert = certificateFacts((s as tls.TLSSocket).getPeerCertificate());
            });
          return s;
        }) as never,
      });
      socket = ws;
      ws.on('unexpected-response', (_req, res) => {
        timings.ttfb = since();
        res.destroy();
        const code = res.statusCode ?? 0;
        end({ ok: false, httpCode: code, error: `The server answered HTTP ${code} instead of accepting the WebSocket upgrade` });
      });
      ws.on('upgrade', () => {
        timings.ttfb = since();
      });
      ws.on('open', () => {
        opened = since();
        if (cfg.ws_message) ws.send(cfg.ws_message);
        if (!cfg.ws_expect) end({ ok: true });
      });
      let messages = 0;
      ws.on('message', (data) => {
        messages++;
        const text = Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8');
        if (cfg.ws_expect && text.includes(cfg.ws_expect)) end({ ok: true });
        // Never the message itself: a check result is our sentence, not the target's text.
        else if (messages >= MAX_MESSAGES)
          end({ ok: false, error: `None of the first ${MAX_MESSAGES} messages contained the expected text` });
      });
      ws.on('close', (code) => {
        if (code === 1009) end({ ok: false, error: `The server sent a message larger than ${MAX_WS_MESSAGE_BYTES / 1024} KiB` });
        else if (opened)
          end({
            ok: false,
            error: `The server closed the connection before the expected answer (${messages} message${messages === 1 ? '' : 's'} received)`,
          });
      });
      ws.on('error', (e) => end({ ok: false, error: wsErrorText(e, cfg) }));
    });
    timings.total = since();
    if (!ending.ok) return failed(ending.error, timings, ending.httpCode ?? null);
    return { ...judge(opened, cfg, timings), ...(cert ?? {}) };
  } catch (e) {
    timings.total = since();
    if (signal.aborted) return failed(`Timed out after ${seconds} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    return failed(networkErrorText(e), timings);
  } finally {
    socket?.terminate();
  }
};

/** ws's own errors (protocol, subprotocol, size) and the socket's, as our sentences. */
function wsErrorText(e: Error, cfg: WebsocketConfig): string {
  const m = e.message;
  if (/Max payload size exceeded/i.test(m)) return `The server sent a message larger than ${MAX_WS_MESSAGE_BYTES / 1024} KiB`;
  if (/subprotocol/i.test(m))
    return cfg.ws_subprotocol
      ? `The server did not accept the subprotocol "${cfg.ws_subprotocol}"`
      : 'The server chose a subprotocol that was not asked for';
  if (/Sec-WebSocket-Accept|Invalid Upgrade header|Invalid WebSocket frame|invalid status code|Invalid (opcode|payload)|RSV|MASK/i.test(m))
    return 'The server did not speak the WebSocket protocol';
  if (/Opening handshake has timed out/i.test(m)) return 'The server did not answer the upgrade';
  return networkErrorText(e);
}

function judge(openMs: number, cfg: WebsocketConfig, timings: Timings): CheckOutcome {
  const base = { responseTimeMs: openMs, httpCode: 101, timings, certExpiresAt: null };
  if (cfg.degraded_threshold_ms && openMs > cfg.degraded_threshold_ms)
    return { ...base, status: 'degraded', error: `Opening the WebSocket took ${Math.round(openMs)} ms` };
  return { ...base, status: 'operational', error: null };
}
