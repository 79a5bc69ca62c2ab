import { describe, expect, it } from 'vitest';
import { formatHostPort, normalizeTargetHost, parseHostPort } from './target-host.ts';

describe('target hosts', () => {
  it.each([
    ['db.example.com', 'db.example.com'],
    ['DB.Example.COM.', 'db.example.com'],
    ['localhost', 'localhost'],
    ['10.0.0.1', '10.0.0.1'],
    ['::1', '::1'],
    ['[2001:DB8::1]', '2001:db8::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`],
  ])('accepts %j as %j', (raw, want) => {
    expect(normalizeTargetHost(raw)).toBe(want);
  });

  it.each([
    ';id',
    '$(id)',
    'a\nb',
    'a b',
    ' db',
    'a..b',
    '.a',
    '..',
    '',
    '-a.com',
    'a-.com',
    'a_b.com',
    `${'a'.repeat(64)}.com`,
    `${'abcdefghi.'.repeat(26)}com`,
    '127.1',
    '0x7f.1',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    'a/b',
    'a@b',
    'a%41',
    'fe80::1%eth0',
    '::1]',
    '[::1',
    ':::',
    'a:b',
  ])('refuses %j', (raw) => {
    expect(normalizeTargetHost(raw)).toBeNull();
  });

  it('allows underscores only in DNS query names', () => {
    expect(normalizeTargetHost('_dmarc.example.com', { underscore: true })).toBe('_dmarc.example.com');
    expect(normalizeTargetHost('_dmarc.example.com')).toBeNull();
  });

  it.each([
    ['1.1.1.1', '1.1.1.1'],
    ['1.1.1.1:53', '1.1.1.1:53'],
    ['[::1]:5353', '[::1]:5353'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['dns.example:53', 'dns.example:53'],
  ])('reads the resolver %j', (raw, want) => {
    expect(formatHostPort(parseHostPort(raw)!)).toBe(want);
  });
  it.each([';id', '1.1.1.1;id', '$(id):53', '1.1.1.1:99999', '1.1.1.1:0', '1.1.1.1:', 'a\nb', '[::1]:x'])(
    'refuses the resolver %j',
    (raw) => {
      expect(parseHostPort(raw)).toBeNull();
    },
  );
});
