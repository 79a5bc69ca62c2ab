// Access tokens (JWT, HS256 only) and opaque one-time secrets (refresh tokens, handoff and reset
// codes). Keys are derived per purpose from SESSION_SECRET, so a token of one kind never
// verifies as another.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Role } from '../../../lib/permissions.ts';

export const ACCESS_TOKEN_SECONDS = 15 * 60;
/** Session lifetime without "remember me" (the spec's derived session expiry). */
export const SESSION_SECONDS = 24 * 60 * 60;
export const REMEMBER_SECONDS = 30 * 24 * 60 * 60;
export const HANDOFF_SECONDS = 60;
export const RESET_SECONDS = 30 * 60;

export interface AccessClaims {
  sub: string;
  email: string;
  role: Role;
  tenantId: string | null;
  user_type: 1 | 2 | 3;
  /** users.session_version when issued */
  sv: number;
  /** refresh-token family id: the login session */
  sid: string;
  /** host name the token was issued for (no port) */
  host: string;
  /** derived session expiry, seconds */
  sxp: number;
  typ: 'access';
  iat: number;
  exp: number;
}

const keys = new Map<string, Uint8Array>();
function accessKey(secret: string): Uint8Array {
  let key = keys.get(secret);
  if (!key) {
    key = new Uint8Array(createHmac('sha256', secret).update('statuswatch access token v1').digest());
    keys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(
  secret: string,
  claims: Omit<AccessClaims, 'typ' | 'iat' | 'exp'>,
  nowMs: number,
): Promise<{ token: string; iat: number; exp: number }> {
  const iat = Math.floor(nowMs / 1000);
  const exp = iat + ACCESS_TOKEN_SECONDS;
  const token = await new SignJWT({ ...claims, typ: 'access' })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(accessKey(secret));
  return { token, iat, exp };
}

/** The claims of a valid access token, or null (bad signature, other algorithm, expired, wrong kind). */
export async function verifyAccessToken(secret: string, token: string, nowMs: number): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, accessKey(secret), {
      algorithms: ['HS256'],
      typ: 'JWT',
      currentDate: new Date(nowMs),
      clockTolerance: 0,
      requiredClaims: ['sub', 'exp', 'iat'],
    });
    const p = payload as Partial<AccessClaims>;
    if (p.typ !== 'access' || typeof p.sid !== 'string' || typeof p.sv !== 'number' || typeof p.host !== 'string') return null;
    return p as AccessClaims;
  } catch {
    return null;
  }
}

/** A random, unguessable secret for the browser, and the hash the database keeps. */
export function newSecret(): { value: string; hash: string } {
  const value = randomBytes(32).toString('base64url');
  return { value, hash: hashSecret(value) };
}

export function hashSecret(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
