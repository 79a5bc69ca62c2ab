import { describe, expect, it } from 'vitest';
import {
  decodePayload,
  formatRemaining,
  isExpired,
  isExpiringSoon,
  isWellFormedToken,
  normalizeClaims,
  secondsRemaining,
} from './token.ts';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('token helpers (spec sections 4, 5, 9)', () => {
  it.each([
    ['aaa.bbb.ccc', true],
    ['a-_1.B2_-.c3', true],
    ['aaa.bbb', false],
    ['aaa.bbb.ccc.ddd', false],
    ['aaa..ccc', false],
    ['aaa.bbb.', false],
    ['aa=.bbb.ccc', false],
    ['aa+.bbb.ccc', false],
    ['', false],
  ])('%s well-formed: %s', (token, ok) => {
    expect(isWellFormedToken(token)).toBe(ok);
  });

  it('is expired within 5 seconds of exp', () => {
    const exp = 1_000_000;
    expect(isExpired(exp, (exp - 6) * 1000)).toBe(false);
    expect(isExpired(exp, (exp - 5) * 1000 - 1)).toBe(false);
    expect(isExpired(exp, (exp - 5) * 1000)).toBe(true);
    expect(isExpired(exp, (exp + 10) * 1000)).toBe(true);
  });

  it('is expiring soon at 300 seconds or fewer', () => {
    const exp = 1_000_000;
    expect(isExpiringSoon(exp, (exp - 301) * 1000)).toBe(false);
    expect(isExpiringSoon(exp, (exp - 300) * 1000)).toBe(true);
    expect(secondsRemaining(exp, (exp - 300) * 1000)).toBe(300);
  });

  it.each([
    [0, 'expired'],
    [-5, 'expired'],
    [1, '1s'],
    [59, '59s'],
    [60, '1m'],
    [3599, '59m'],
    [3600, '1h 0m'],
    [3 * 3600 + 5 * 60 + 9, '3h 5m'],
  ])('shows %i s as %s', (s, text) => {
    expect(formatRemaining(s)).toBe(text);
  });

  it('decodes payloads and applies the claim fallbacks', () => {
    const token = `${b64({ alg: 'HS256' })}.${b64({ sub: 'u1', user_type: 2, company_id: 'c1', exp: 10, iat: 1 })}.sig`;
    expect(decodePayload(token)).toMatchObject({ sub: 'u1' });
    expect(normalizeClaims(decodePayload(token)!)).toEqual({
      email: 'u1',
      role: 'customer_admin',
      tenantId: 'c1',
      exp: 10,
      iat: 1,
      sub: 'u1',
    });
    expect(normalizeClaims({ user: 'x@y.z', user_type: '1', tid: 't' })).toMatchObject({
      email: 'x@y.z',
      role: 'super_admin',
      tenantId: 't',
    });
    expect(normalizeClaims({ email: 'a@b.c', role: 'customer_viewer', tenantId: 'T', tenant_id: 'no' })).toMatchObject({
      email: 'a@b.c',
      role: 'customer_viewer',
      tenantId: 'T',
    });
    expect(normalizeClaims({})).toEqual({ email: null, role: null, tenantId: null, exp: null, iat: null, sub: null });
    expect(decodePayload('not.a.jwt!')).toBeNull();
    expect(decodePayload(`${b64({})}.${Buffer.from('[1]').toString('base64url')}.x`)).toBeNull();
  });
});
