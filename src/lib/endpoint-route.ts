// Which HTTP endpoint a server span answered: its method and route template. The route comes
// from the instrumentation when it knows it (`http.route`, else `url.template`); otherwise the
// request path is normalised so that one endpoint stays one row however many ids it serves:
// numeric ids, UUIDs and long hex or base64 tokens become `{id}`. Pure: browser and server
// (ingest and the inventory) share it.

export interface HttpEndpoint {
  method: string;
  route: string;
}

/** Methods of RFC 9110 and PATCH; any other is `_OTHER`, as the OpenTelemetry conventions say. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY']);
export const MAX_ROUTE = 300;
/** A path deeper than this keeps its first segments and ends in `/…` (attackers send long paths). */
const MAX_SEGMENTS = 20;
export const ID = '{id}';

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const NUMBER = /^[-+]?\d+(?:[.,]\d+)?$/;
const HEX = /^(?=[^\d]*\d)[0-9a-f]{12,}$/i;
const TOKEN = /^[A-Za-z0-9_\-+=~.]{16,}$/;

/**
 * A token of base64/base64url characters that looks random: a digit among letters and either
 * both letter cases or 24+ characters. Slugs ("getting-started-guide") have no digit and stay.
 */
function isToken(seg: string): boolean {
  if (!TOKEN.test(seg) || !/\d/.test(seg) || !/[A-Za-z]/.test(seg)) return false;
  return seg.length >= 24 || (/[a-z]/.test(seg) && /[A-Z]/.test(seg));
}

export function isIdSegment(seg: string): boolean {
  return NUMBER.test(seg) || UUID.test(seg) || HEX.test(seg) || isToken(seg);
}

function decoded(seg: string): string {
  try {
    return decodeURIComponent(seg);
  } catch {
    return seg;
  }
}

/** The path of a request (no query or fragment) as a template: `/users/42/orders` → `/users/{id}/orders`. */
export function normalisePath(path: string): string {
  const bare = path.split(/[?#]/, 1)[0];
  const segs = bare.split('/').filter((s) => s !== '');
  const out = segs.slice(0, MAX_SEGMENTS).map((s) => (isIdSegment(decoded(s)) ? ID : s));
  if (segs.length > MAX_SEGMENTS) out.push('…');
  return capped(`/${out.join('/')}`);
}

function capped(route: string): string {
  return route.length <= MAX_ROUTE ? route : `${route.slice(0, MAX_ROUTE - 1)}…`;
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** The path part of an absolute URL, or null. */
function pathOfUrl(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}

/**
 * The endpoint of a span's attributes (current and older OpenTelemetry HTTP conventions), or
 * null when the span is not an HTTP request (no method) or says nothing of its path.
 */
export function endpointOf(attrs: Record<string, unknown>): HttpEndpoint | null {
  const rawMethod = text(attrs['http.request.method']) ?? text(attrs['http.method']);
  if (!rawMethod) return null;
  const upper = rawMethod.toUpperCase();
  const method = METHODS.has(upper) ? upper : '_OTHER';
  const template = text(attrs['http.route']) ?? text(attrs['url.template']);
  if (template) return { method, route: capped(template.startsWith('/') ? template : `/${template}`) };
  const path =
    text(attrs['url.path']) ??
    text(attrs['http.target']) ??
    pathOfUrl(text(attrs['url.full']) ?? '') ??
    pathOfUrl(text(attrs['http.url']) ?? '');
  return path === null ? null : { method, route: normalisePath(path) };
}
