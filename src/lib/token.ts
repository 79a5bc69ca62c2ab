// Token helpers of sections 3-5 of the spec, pure: well-formedness, expiry with its 5 s margin,
// the 300 s expiring-soon window, the remaining-time text, and the claims with their fallbacks.

export const EXPIRY_MARGIN_SECONDS = 5;
export const EXPIRING_SOON_SECONDS = 300;
export const SESSION_EXPIRY_SECONDS = 86_400;

const PART = /^[A-Za-z0-9_-]+$/;

/** Three dot-separated parts of letters, digits, hyphen or underscore. */
export function isWellFormedToken(token: unknown): token is string {
  if (typeof token !== 'string') return false;
  const parts = token.split('.');
  return parts.length === 3 && parts.every((p) => PART.test(p));
}

/** Seconds left until exp (seconds since the epoch) at nowMs; negative once past. */
export function secondsRemaining(exp: number, nowMs: number): number {
  return Math.floor(exp - nowMs / 1000);
}

/** Expired when now is within the 5 s margin of exp (or past it). */
export function isExpired(exp: number, nowMs: number): boolean {
  return exp * 1000 - nowMs <= EXPIRY_MARGIN_SECONDS * 1000;
}

/** Expiring soon at 300 s or fewer remaining. */
export function isExpiringSoon(exp: number, nowMs: number): boolean {
  return exp * 1000 - nowMs <= EXPIRING_SOON_SECONDS * 1000;
}

/** "45s", "12m", "3h 5m"; "expired" once nothing is left. */
export function formatRemaining(seconds: number): string {
  const s = Math.floor(seconds);
  if (s <= 0) return 'expired';
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((part.length + 3) % 4);
  const bin = atob(b64);
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The payload of a well-formed token, unverified (display only), or null. */
export function decodePayload(token: string): Record<string, unknown> | null {
  if (!isWellFormedToken(token)) return null;
  try {
    const v = JSON.parse(base64UrlDecode(token.split('.')[1])) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export interface NormalizedClaims {
  email: string | null;
  role: string | null;
  tenantId: string | null;
  exp: number | null;
  iat: number | null;
  sub: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const ROLE_OF_TYPE: Record<string, string> = { '1': 'super_admin', '2': 'customer_admin', '3': 'customer_viewer' };

/**
 * Session claims with the spec's fallbacks: email falls back to sub, then user; role to
 * user_type; tenantId to tenant_id, tid, company_id.
 */
export function normalizeClaims(p: Record<string, unknown>): NormalizedClaims {
  const typeRole = p.user_type !== undefined && p.user_type !== null ? (ROLE_OF_TYPE[String(p.user_type)] ?? null) : null;
  return {
    email: str(p.email) ?? str(p.sub) ?? str(p.user),
    role: str(p.role) ?? typeRole,
    tenantId: str(p.tenantId) ?? str(p.tenant_id) ?? str(p.tid) ?? str(p.company_id),
    exp: num(p.exp),
    iat: num(p.iat),
    sub: str(p.sub),
  };
}
