// The two links a subscriber gets. The confirmation token is random, stored only as its SHA-256
// and used once. The unsubscribe token must appear in every later mail, so it cannot be random
// and stored hashed (nothing could rebuild it): it is the subscriber id signed with an HMAC key
// derived from SESSION_SECRET over the subscriber's nonce. Nothing about it is stored; a new
// nonce (subscribing again) voids every older link, and a forged one fails the comparison.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const CONFIRM_TTL_MS = 24 * 60 * 60 * 1000;

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export function newConfirmToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export const newNonce = (): string => randomBytes(16).toString('base64url');

function unsubscribeMac(secret: string, subscriberId: string, nonce: string): string {
  const key = createHmac('sha256', secret).update('status-subscriber-unsubscribe').digest();
  return createHmac('sha256', key).update(`${subscriberId}.${nonce}`).digest('base64url');
}

/** '<subscriber id>.<mac>' (ids are UUIDs: no dot inside). */
export function unsubscribeToken(secret: string, subscriberId: string, nonce: string): string {
  return `${subscriberId}.${unsubscribeMac(secret, subscriberId, nonce)}`;
}

/** The subscriber id a token names; check it with `unsubscribeTokenValid` against the row's nonce. */
export function subscriberIdOf(token: string): string | null {
  const m = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return m ? m[1] : null;
}

export function unsubscribeTokenValid(secret: string, token: string, subscriberId: string, nonce: string): boolean {
  const expected = Buffer.from(unsubscribeToken(secret, subscriberId, nonce));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
