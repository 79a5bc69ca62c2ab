// The signed one-time acknowledge link in alert messages. The token names the incident and the
// delivery it was sent in (so the channel or person it was sent to) and when it expires, signed
// with HMAC-SHA256 under a key derived from SESSION_SECRET: nothing is stored per link, a retried
// delivery carries the same link, and a token cannot be forged or moved to another incident.
// "One-time" is the incident's own state: the first acknowledgement ends every link to it.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A link works this long after its delivery was written. */
export const ACK_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export interface AckClaims {
  incidentId: string;
  deliveryId: string;
  /** ms */
  expiresAt: number;
}

const keyOf = (secret: string) => createHmac('sha256', secret).update('statuswatch:ack-link:v1').digest();

const mac = (secret: string, body: string) => createHmac('sha256', keyOf(secret)).update(body).digest('base64url');

export function signAckToken(secret: string, c: AckClaims): string {
  const body = Buffer.from(`${c.incidentId}|${c.deliveryId}|${Math.floor(c.expiresAt / 1000)}`).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The claims of a token signed with `secret`, expired or not; null when forged or malformed. */
export function readAckToken(secret: string, token: string): AckClaims | null {
  const m = /^([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const expected = Buffer.from(mac(secret, m[1]));
  const given = Buffer.from(m[2]);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [incidentId, deliveryId, expires] = Buffer.from(m[1], 'base64url').toString('utf8').split('|');
  if (!incidentId || !deliveryId || !/^\d{1,12}$/.test(expires ?? '')) return null;
  return { incidentId, deliveryId, expiresAt: Number(expires) * 1000 };
}
