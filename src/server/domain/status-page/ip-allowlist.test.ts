// The allow-list's parsing and matching: canonical ranges, bare addresses, IPv4-mapped IPv6
// visitors (what a dual-stack socket reports for an IPv4 client), and families kept apart.
import { describe, expect, it } from 'vitest';
import { ipAllowed, normalizeCidr, parseAllowlist } from './ip-allowlist.ts';

describe('IP allow-list', () => {
  it('writes each entry as a canonical range, host bits cleared, and refuses what is not one', () => {
    expect(normalizeCidr(' 10.1.2.3/8 ')).toBe('10.0.0.0/8');
    expect(normalizeCidr('203.0.113.7')).toBe('203.0.113.7/32');
    expect(normalizeCidr('2001:DB8::1/32')).toBe('2001:db8::/32');
    expect(normalizeCidr('::ffff:10.0.0.0/104')).toBe('10.0.0.0/8');
    for (const bad of ['', 'x', '10.0.0.0/33', '1.2.3', '2001:db8::/129', '10.0.0.0/8/8']) expect(normalizeCidr(bad), bad).toBeNull();
    expect(parseAllowlist(['10.0.0.1/8', '10.0.0.0/8', '::1'])).toEqual({ ok: ['10.0.0.0/8', '::1/128'] });
    expect(parseAllowlist(['10.0.0.0/8', 'nope'])).toMatchObject({ index: 1 });
    expect(parseAllowlist(Array.from({ length: 101 }, (_, i) => `10.0.0.${i}`))).toMatchObject({ index: 100 });
  });

  it('matches addresses inside the ranges only, an IPv4-mapped address as its IPv4 one', () => {
    const ranges = ['203.0.113.0/24', '2001:db8::/32'];
    expect(ipAllowed('203.0.113.200', ranges)).toBe(true);
    expect(ipAllowed('::ffff:203.0.113.5', ranges)).toBe(true);
    expect(ipAllowed('203.0.114.1', ranges)).toBe(false);
    expect(ipAllowed('2001:db8:ffff::1', ranges)).toBe(true);
    expect(ipAllowed('2001:db9::1', ranges)).toBe(false);
    expect(ipAllowed('::1', ['127.0.0.1/32'])).toBe(false);
    expect(ipAllowed('not an address', ranges)).toBe(false);
  });
});
