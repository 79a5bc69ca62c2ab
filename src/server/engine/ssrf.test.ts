import { describe, expect, it } from 'vitest';
import { normalizeHost, refusalReason, resolveSafe, TargetRefused } from './ssrf.ts';

describe('SSRF guard', () => {
  it.each([
    ['169.254.169.254', 'metadata'], ['fd00:ec2::254', 'metadata'], ['127.0.0.1', 'loopback'], ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'], ['10.1.2.3', 'private'], ['192.168.0.1', 'private'], ['172.16.5.4', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'], ['169.254.10.10', 'link-local'], ['0.0.0.0', 'unspecified'], ['fc00::1', 'unique local'],
    ['224.0.0.1', 'multicast'], ['198.18.0.1', 'reserved'], ['64:ff9b::7f00:1', 'IPv4-embedded'], ['2002:7f00:1::', '6to4'],
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
  });

  it.each([['127.1', '127.0.0.1'], ['0x7f000001', '127.0.0.1'], ['2130706433', '127.0.0.1'], ['0177.0.0.1', '127.0.0.1'], ['[::ffff:127.0.0.1]', '::ffff:7f00:1'], ['Example.COM', 'example.com']])(
    'normalizes %s to %s', (h, n) => expect(normalizeHost(h)).toBe(n),
  );

  it.each(['127.1', '0x7f000001', '2130706433', '[::ffff:127.0.0.1]', '169.254.169.254', '[fd00:ec2::254]', '100.64.0.1', 'localhost'])(
    'resolveSafe refuses %s', async (h) => {
      await expect(resolveSafe(h, false, async () => [{ address: '93.184.216.34', family: 4 }])).rejects.toBeInstanceOf(TargetRefused);
    },
  );

  it('refuses a name when any of its addresses is blocked', async () => {
    const resolve = async () => [{ address: '93.184.216.34', family: 4 }, { address: '127.0.0.1', family: 4 }];
    await expect(resolveSafe('mixed.example', false, resolve)).rejects.toThrow(/127\.0\.0\.1 is a loopback/);
    await expect(resolveSafe('public.example', false, async () => [{ address: '93.184.216.34', family: 4 }])).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });
});
