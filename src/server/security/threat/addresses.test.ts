import { describe, expect, it } from 'vitest';
import { cidrRange, dnsblIpQuery, domainAndParents, hostOf, ipKey, normalizeDomain, normalizeIp } from './addresses.ts';

describe('threat address arithmetic', () => {
  it('keys IPv4 and IPv6 in one text ordering and bounds CIDR ranges', () => {
    expect(ipKey('192.0.2.1')).toBe('00000000000000000000ffffc0000201');
    expect(ipKey('2001:db8::1')).toBe('20010db8000000000000000000000001');
    expect(cidrRange('192.0.2.77/24')).toEqual({
      value: '192.0.2.0/24',
      lo: '00000000000000000000ffffc0000200',
      hi: '00000000000000000000ffffc00002ff',
    });
    const r = cidrRange('2001:db8::/32')!;
    expect(r.lo <= ipKey('2001:db8:ffff::1') && ipKey('2001:db8:ffff::1') <= r.hi).toBe(true);
    expect(ipKey('2001:db9::') > r.hi).toBe(true);
    expect(cidrRange('10.0.0.0/33')).toBeUndefined();
  });

  it('normalises names and addresses, refusing what is neither', () => {
    expect(normalizeDomain('Evil.Example.')).toBe('evil.example');
    expect(normalizeDomain('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeDomain('localhost')).toBeUndefined();
    expect(normalizeDomain('a b.example')).toBeUndefined();
    expect(normalizeIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('0x7f.1')).toBeUndefined();
  });

  it('covers a name by its parents and builds RFC 5782 blocklist queries', () => {
    expect(domainAndParents('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com']);
    expect(dnsblIpQuery('192.0.2.99', 'zen.test')).toBe('99.2.0.192.zen.test');
    expect(dnsblIpQuery('2001:db8::1', 'bl.test')).toBe(`1.0.0.0.${'0.'.repeat(20)}8.b.d.0.1.0.0.2.bl.test`);
  });

  it('takes the host of span attributes: URLs, host:port, bracketed IPv6', () => {
    expect(hostOf('https://Pay.Evil.example:8443/x?y=1')).toBe('pay.evil.example');
    expect(hostOf('evil.example:443')).toBe('evil.example');
    expect(hostOf('[2001:db8::5]:80')).toBe('2001:db8::5');
    expect(hostOf('http://[2001:db8::5]/')).toBe('2001:db8::5');
    expect(hostOf('not a host')).toBeUndefined();
  });
});
