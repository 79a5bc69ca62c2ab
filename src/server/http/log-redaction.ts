// The request log must not hold working credentials: a URL can carry a push token, a private
// page's share link, a sign-in handoff code, a subscriber's confirm or unsubscribe token, an
// alert's acknowledge link, or an invitation, password-reset, signup or unlock token. Whoever
// reads the log (an operator, a log shipper, a support bundle) could use them. The logged URL
// keeps its shape and everything else; those parts read [redacted].
export const REDACTED = '[redacted]';

/** Paths whose segments after these ones are a credential (compared decoded, without case). */
const SECRET_AFTER: readonly string[][] = [
  ['api', 'v1', 'push'], // push monitors: /api/v1/push/{token}
  ['share'], // private status page share links: /share/{token}
  ['subscribe', 'confirm'], // /subscribe/confirm/{token}
  ['unsubscribe'], // /unsubscribe/{token}
  ['ack'], // escalation acknowledge links: /ack/{token}
];

/** Query parameters that carry a credential: ?code= (handoff), ?token= (invitation, password
 * reset, signup), ?unlock= (sign-in unlock) and the usual names of keys and secrets. */
const SECRET_PARAMS = new Set([
  'token',
  'code',
  'unlock',
  'share',
  'secret',
  'password',
  'key',
  'api_key',
  'apikey',
  'access_token',
  'refresh_token',
  'signature',
  'sig',
]);

function decoded(part: string): string {
  try {
    return decodeURIComponent(part).toLowerCase();
  } catch {
    return part.toLowerCase();
  }
}

/** `url` (path and query, as received) with its credentials replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const segments = path.split('/');
  const plain = segments.map(decoded);
  let kept = segments;
  for (const prefix of SECRET_AFTER) {
    // segments[0] is the empty string before the path's leading slash
    if (segments.length > prefix.length + 1 && prefix.every((p, i) => plain[i + 1] === p)) {
      kept = [...segments.slice(0, prefix.length + 1), REDACTED];
      break;
    }
  }
  const redactedPath = kept.join('/');
  if (q === -1) return redactedPath;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      return SECRET_PARAMS.has(decoded(name)) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${redactedPath}?${query}`;
}

/** What the serializer reads of a request (Fastify hands it its request, typed as the raw one). */
interface LoggedRequest {
  method?: string;
  url?: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's request serializer (the same fields as its default) with the URL redacted. */
export function logRequest(req: LoggedRequest) {
  const version = req.headers?.['accept-version'];
  return {
    method: req.method,
    url: redactUrl(req.url ?? ''),
    version: Array.isArray(version) ? version.join(', ') : version,
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}
