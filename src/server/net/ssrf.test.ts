import { describe, expect, it } from 'vitest';
import {
  internalDnsName,
  isInternalAnswer,
  literalTarget,
  NAME_REFUSED,
  normalizeHost,
  refusalReason,
  resolveSafe,
  TargetRefused,
} from './ssrf.ts';

describe('SSRF guard', () => {
  it.each([
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['192.168.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['169.254.10.10', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['224.0.0.1', 'multicast'],
    ['198.18.0.1', 'reserved'],
    ['64:ff9b::7f00:1', 'IPv4-embedded'],
    ['2002:7f00:1::', '6to4'],
    ['::7f00:1', 'IPv4-embedded loopback'],
    ['::a9fe:a9fe', 'metadata'],
    ['::a00:1', 'private'],
    ['::808:808', 'IPv4-embedded'],
    ['64:ff9b:1::a00:1', 'private'],
    ['169.254.170.23', 'metadata'],
    ['fd00:ec2::23', 'metadata'],
    ['169.254.0.23', 'metadata'],
    ['168.63.129.16', 'metadata'],
    ['169.254.169.253', 'metadata'],
  ])('refuses %s (%s) by default', (ip, what) => {
    expect(refusalReason(ip, false)).toContain(what);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows public %s', (ip) => {
    expect(refusalReason(ip, false)).toBeNull();
  });

  it('opens private and loopback to the operator switch, never metadata', () => {
    expect(refusalReason('127.0.0.1', true)).toBeNull();
    expect(refusalReason('10.0.0.1', true)).toBeNull();
    expect(refusalReason('100.64.0.1', true)).toBeNull();
    expect(refusalReason('169.254.169.254', true)).toContain('metadata');
    expect(refusalReason('fd00:ec2::254', true)).toContain('metadata');
    expect(refusalReason('::ffff:169.254.169.254', true)).toContain('metadata');
    expect(refusalReason('::a9fe:a9fe', true)).toContain('metadata');
    expect(refusalReason('169.254.170.23', true)).toContain('metadata');
    expect(refusalReason('168.63.129.16', true)).toContain('metadata');
    expect(refusalReason('::7f00:1', true)).not.toContain('loopback'); // opened: only the embedding itself is refused
    expect(refusalReason('169.254.10.10', true)).toBeNull(); // the rest of link-local opens
  });

  it.each([
    ['127.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['Example.COM', 'example.com'],
  ])('normalizes %s to %s', (h, n) => expect(normalizeHost(h)).toBe(n));

  it.each([
    '127.1',
    '0x7f000001',
    '2130706433',
    '[::ffff:127.0.0.1]',
    '[::127.0.0.1]',
    '[::7f00:1]',
    '169.254.169.254',
    '[fd00:ec2::254]',
    '100.64.0.1',
    'localhost',
  ])('resolveSafe refuses %s', async (h) => {
    await expect(resolveSafe(h, false, async () => [{ address: '93.184.216.34', family: 4 }])).rejects.toBeInstanceOf(TargetRefused);
  });

  it('refuses a name when any of its addresses is blocked, with the answer a name that does not resolve gets', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ];
    await expect(resolveSafe('mixed.example', false, resolve)).rejects.toThrow(NAME_REFUSED);
    // neither the internal address nor its kind is named: the same words as for a missing name
    await expect(resolveSafe('db.internal', false, async () => [{ address: '10.20.30.40', family: 4 }])).rejects.toThrow(
      new RegExp(`^${NAME_REFUSED}$`),
    );
    const nxdomain = async () => {
      throw Object.assign(new Error('queryA ENOTFOUND nope.example'), { code: 'ENOTFOUND' });
    };
    await expect(resolveSafe('nope.example', false, nxdomain)).rejects.toThrow(new RegExp(`^${NAME_REFUSED}$`));
    await expect(resolveSafe('empty.example', false, async () => [])).rejects.toThrow(new RegExp(`^${NAME_REFUSED}$`));
    await expect(resolveSafe('public.example', false, async () => [{ address: '93.184.216.34', family: 4 }])).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('judges literals and localhost without a lookup; names are left to the check', () => {
    expect(() => literalTarget('10.0.0.5', false)).toThrow('Target refused: 10.0.0.5 is a private address');
    expect(() => literalTarget('localhost', false)).toThrow('Target refused: localhost is a loopback name');
    expect(literalTarget('app.localhost', true)).toEqual({ address: '127.0.0.1', family: 4 });
    expect(() => literalTarget('localhost', ['10.0.0.0/8'])).toThrow(/loopback name/);
    expect(literalTarget('93.184.216.34', false)).toEqual({ address: '93.184.216.34', family: 4 });
    expect(literalTarget('db.corp.example', false)).toBeNull();
  });

  it.each([
    ['postgres', true],
    ['db.default.svc.cluster.local', true],
    ['printer.local', true],
    ['nas.home.arpa', true],
    ['vault.internal', true],
    ['x.localhost', true],
    ['5.0.0.10.in-addr.arpa', true],
    ['10.in-addr.arpa', true],
    ['1.0.0.127.in-addr.arpa', true],
    ['1.1.168.192.in-addr.arpa', true],
    ['1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.ip6.arpa', true],
    ['c.f.ip6.arpa', true],
    ['example.com', false],
    ['status.example.co.uk.', false],
    ['8.8.8.8.in-addr.arpa', false],
    ['local.example.com', false],
  ])('a DNS check of %s is refused: %s', (name, refused) => {
    expect(internalDnsName(name, false) !== null).toBe(refused);
    expect(internalDnsName(name, true)).toBeNull(); // the operator opened the internal network
  });

  it('hides internal addresses in DNS answers, not public or documentation ones', () => {
    for (const a of ['10.1.2.3', '127.0.0.1', '169.254.169.254', '::1', 'fd12::1', '100.64.1.1', '::a00:1'])
      expect(isInternalAnswer(a, false), a).toBe(true);
    for (const a of ['93.184.216.34', '192.0.2.7', '2001:db8::1', 'mail.example.com', '10 mx.example.com'])
      expect(isInternalAnswer(a, false), a).toBe(false);
    expect(isInternalAnswer('10.1.2.3', ['10.0.0.0/8'])).toBe(false); // opened by the operator
    expect(isInternalAnswer('10.1.2.3', ['127.0.0.1/32'])).toBe(true);
    expect(isInternalAnswer('169.254.169.254', true)).toBe(true); // metadata never
  });
});
