// WebSocket monitors: the upgrade of a ws:// or wss:// URL (time to open is the response time),
// with a subprotocol and headers, optionally a message sent and an answer containing `ws_expect`.
import { hasControlCharacters, plainTextProblem } from '../../../lib/plain-text.ts';
import { normalizeTargetHost } from '../../../lib/target-host.ts';
import { DEFAULT_SSL_PORT, WEBSOCKET_FIELDS } from '../../../lib/monitor-kinds.ts';
import { websocketChecker, type WebsocketConfig } from '../checkers/websocket.ts';
import { certificateExpiring } from './certificate-warnings.ts';
import type { Kind } from './kind.ts';

const FIELDS = WEBSOCKET_FIELDS;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Set by the WebSocket handshake itself (and Host, from the URL): a monitor may not replace them. */
const FORBIDDEN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'accept-encoding']);
/** RFC 6455: a subprotocol is an HTTP token. */
const SUBPROTOCOL = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;
const HIDDEN_SECRET = '(hidden)';

function parseUrl(url: string | undefined): URL | null {
  try {
    return new URL(url ?? '');
  } catch {
    return null;
  }
}

export const websocketKind: Kind<WebsocketConfig> = {
  fields: FIELDS,
  validate(pick) {
    const problems: Record<string, string> = {};
    const raw = String(pick('url') ?? '').trim();
    const parsed = parseUrl(raw);
    let target: { host: string; field: 'url' } | null = null;
    if (!parsed) problems.url = 'URL is required (ws:// or wss://)';
    else if (parsed.protocol !== 'ws:' && parsed.protocol !== 'wss:') problems.url = 'URL must start with ws:// or wss://';
    else if (parsed.username || parsed.password) problems.url = 'Put credentials in a header, not in the URL';
    else if (!normalizeTargetHost(parsed.hostname)) problems.url = 'URL host must be a host name like example.com or an IP address';
    else target = { host: parsed.hostname.replace(/^\[|\]$/g, ''), field: 'url' };
    const config: WebsocketConfig = {
      url: parsed?.href ?? raw,
      ws_subprotocol: pick('ws_subprotocol') || null,
      headers: pick('headers') ?? {},
      ws_message: pick('ws_message') || null,
      ws_expect: pick('ws_expect') || null,
      degraded_threshold_ms: pick('degraded_threshold_ms') ?? null,
    };
    if (config.ws_subprotocol && !SUBPROTOCOL.test(config.ws_subprotocol))
      problems.ws_subprotocol = 'Subprotocol must be one token like graphql-transport-ws or v1.chat';
    for (const [h, v] of Object.entries(config.headers ?? {})) {
      const name = h.toLowerCase();
      if (
        !HEADER_NAME.test(h) ||
        FORBIDDEN_HEADERS.has(name) ||
        name.startsWith('sec-websocket-') ||
        /[\r\n]/.test(String(v)) ||
        hasControlCharacters(String(v))
      )
        problems.headers = `Header "${h.slice(0, 100)}" is not allowed`;
    }
    const message = config.ws_message && plainTextProblem('Message', config.ws_message.replace(/[\r\n\t]/g, ' '));
    if (message) problems.ws_message = message;
    const expect = config.ws_expect && plainTextProblem('Expected answer', config.ws_expect);
    if (expect) problems.ws_expect = expect;
    return { config, problems, target };
  },
  check: websocketChecker,
  async afterResult(r) {
    // A wss certificate seen by a successful check warns like an https check's.
    if (r.outcome.status !== 'down') await certificateExpiring(r, undefined);
  },
  present(config, { secrets }) {
    // Header values and the message may carry the target's credentials: only those who may change the monitor see them.
    const { headers } = config;
    return {
      url: config.url ?? null,
      ws_subprotocol: config.ws_subprotocol ?? null,
      headers: headers == null ? null : secrets ? headers : Object.fromEntries(Object.keys(headers).map((k) => [k, HIDDEN_SECRET])),
      ws_message: config.ws_message == null ? null : secrets ? config.ws_message : HIDDEN_SECRET,
      ws_expect: config.ws_expect ?? null,
      degraded_threshold_ms: config.degraded_threshold_ms ?? null,
    };
  },
  publicTarget: (config) => parseUrl(config.url)?.hostname.replace(/^\[|\]$/g, '') || null,
  tlsEndpoint(config) {
    const url = parseUrl(config.url);
    if (url?.protocol !== 'wss:') return null;
    return { host: url.hostname.replace(/^\[|\]$/g, '').toLowerCase(), port: url.port ? Number(url.port) : DEFAULT_SSL_PORT };
  },
};
