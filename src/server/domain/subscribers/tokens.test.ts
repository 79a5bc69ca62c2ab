// The subscriber link tokens: a confirmation token is stored only as its hash; an unsubscribe
// token verifies only with its own subscriber, nonce and server secret.
import { describe, expect, it } from 'vitest';
import { hashToken, newConfirmToken, newNonce, subscriberIdOf, unsubscribeToken, unsubscribeTokenValid } from './tokens.ts';

const SECRET = 'a-session-secret-of-forty-three-characters-xx';
const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('subscriber tokens', () => {
  it('a confirmation token is 256 random bits whose hash is all that is kept', () => {
    const a = newConfirmToken();
    const b = newConfirmToken();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashToken(a.token));
    expect(a.hash).not.toContain(a.token);
  });

  it('an unsubscribe token names its subscriber and verifies only with its nonce and secret', () => {
    const nonce = newNonce();
    const token = unsubscribeToken(SECRET, ID, nonce);
    expect(subscriberIdOf(token)).toBe(ID);
    expect(unsubscribeTokenValid(SECRET, token, ID, nonce)).toBe(true);
    expect(unsubscribeTokenValid(SECRET, token, ID, newNonce())).toBe(false); // subscribed again since
    expect(unsubscribeTokenValid(`${SECRET}x`, token, ID, nonce)).toBe(false);
    const other = '1f8fad5b-d9cb-469f-a165-70867728950e';
    expect(unsubscribeTokenValid(SECRET, token.replace(ID, other), other, nonce)).toBe(false);
    expect(unsubscribeTokenValid(SECRET, `${token}x`, ID, nonce)).toBe(false);
  });

  it('reads no id from malformed tokens', () => {
    for (const t of ['', 'x', `${ID}`, `${ID}.short`, `../${ID}.${'a'.repeat(43)}`]) expect(subscriberIdOf(t), t).toBeNull();
  });
});
