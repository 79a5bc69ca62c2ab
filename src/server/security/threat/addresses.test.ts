import { describe, expect, it } from 'vitest';
import {
  canonicalCidr,
  dnsblIpQuery,
  domainAndParents,
  enclosingNetworks,
  hostOf,
  normalizeDomain,
  normalizeIp,
  prefixKey,
} from './addresses.ts';

describe('threat address arithmetic', () => {
  it('writes a CIDR as its network and an address as every network enclosing it, alike', () => {
    expect(canonicalCidr('192.0.2.77/24')).toEqual({ value: '192.0.2.0/24', single: false });
    expect(canonicalCidr('203.0.113.9/32')).toEqual({ value: '203.0.113.9', single: true });
    expect(canonicalCidr('2001:db8:0:0::/32')).toEqual({ value: '2001:db8::/32', single: false });
    expect(canonicalCidr('10.0.0.0/33')).toBeUndefined();
    expect(canonicalCidr('evil.example/24')).toBeUndefined();
    const v4 = enclosingNetworks('192.0.2.77');
    expect(v4).toHaveLength(31);
    expect(v4).toContain('192.0.2.0/24');
    expect(v4).toContain('192.0.2.76/31');
    expect(v4[0]).toBe('128.0.0.0/1');
    expect(enclosingNetworks('2001:db8:ffff::1')).toContain('2001:db8::/32');
    expect(enclosingNetworks('2001:db9::1')).not.toContain('2001:db8::/32');
    // only the prefix lengths the feeds hold
    expect(enclosingNetworks('192.0.2.77', new Set(['v4/24', 'v6/24', 'v4/16']))).toEqual(['192.0.0.0/16', '192.0.2.0/24']);
    expect(prefixKey('2001:db8::/32')).toBe('v6/32');
  });

  it('normalises names and addresses, refusing what is neither', () => {
    expect(normalizeDomain('Evil.Example.')).toBe('evil.example');
    expect(normalizeDomain('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeDomain('localhost')).toBeUndefined();
    expect(normalizeDomain('a b.example')).toBeUndefined();
    expect(normalizeDomain('192.0.2.1')).toBeUndefined();
    expect(normalizeIp('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(normalizeIp('2001:DB8:0::1')).toBe('2001:db8::1');
    expect(normalizeIp('256.1.1.1')).toBeUndefined();
    expect(normalizeIp('0x7f.1')).toBeUndefined();
  });

  it('covers a name by its parents and builds RFC 5782 blocklist queries', () => {
    expect(domainAndParents('a.b.example.com')).toEqual(['a.b.example.com', 'b.example.com', 'example.com']);
    expect(dnsblIpQuery('192.0.2.99', 'zen.test')).toBe('99.2.0.192.zen.test');
    expect(dnsblIpQuery('2001:db8::1', 'bl.test')).toBe(`1.0.0.0.${'0.'.repeat(20)}8.b.d.0.1.0.0.2.bl.test`);
  });

  it('takes the host of span attributes and feed lines: URLs, host:port, bracketed IPv6', () => {
    expect(hostOf('https://Pay.Evil.example:8443/x?y=1')).toEqual({ host: 'pay.evil.example', ip: false });
    expect(hostOf('evil.example:443')).toEqual({ host: 'evil.example', ip: false });
    expect(hostOf('[2001:db8::5]:80')).toEqual({ host: '2001:db8::5', ip: true });
    expect(hostOf('http://[2001:db8::5]/')).toEqual({ host: '2001:db8::5', ip: true });
    expect(hostOf('2001:db8::5')).toEqual({ host: '2001:db8::5', ip: true });
    expect(hostOf('192.0.2.1:8080')).toEqual({ host: '192.0.2.1', ip: true });
    expect(hostOf('not a host')).toBeUndefined();
  });
});
