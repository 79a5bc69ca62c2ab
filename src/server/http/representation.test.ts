import { describe, expect, it } from 'vitest';
import { codedEtag, negotiateCoding } from './representation.ts';

describe('negotiateCoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br; q=0 , gzip;q=0.1', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['br;q=0.4, identity;q=0.5', 'identity'],
    ['br;q=bogus', 'identity'], // an unreadable weight counts as 0
    ['br;q=0, br;q=1', 'br'], // listed twice: the favourable weight
    ['*;q=0', null],
    ['identity;q=0', null],
    ['*;q=0, identity', 'identity'],
    ['identity;q=0, *;q=0.1', 'br'],
    [['gzip', 'br;q=0'], 'gzip'], // repeated header lines
  ] as const)('%j → %s', (header, coding) => {
    expect(negotiateCoding(header as string | string[] | undefined, 50_000)).toBe(coding);
  });

  it('leaves small bodies uncompressed unless identity is refused', () => {
    expect(negotiateCoding('br, gzip', 1023)).toBe('identity');
    expect(negotiateCoding('br, gzip', 1024)).toBe('br');
    expect(negotiateCoding('gzip, identity;q=0', 10)).toBe('gzip');
  });

  it('answers a header seen before by the size asked now (the answers are remembered per header)', () => {
    for (const [small, large] of [
      [10, 50_000],
      [50_000, 10],
    ]) {
      const header = `br;q=0.9, gzip;q=0.8, x-${small}`;
      expect(negotiateCoding(header, small), `${small} first`).toBe(small < 1024 ? 'identity' : 'br');
      expect(negotiateCoding(header, large), `${large} second`).toBe(large < 1024 ? 'identity' : 'br');
    }
    expect(negotiateCoding('gzip, br;q=0.5', 50_000)).toBe('gzip');
    expect(negotiateCoding(['gzip', 'br;q=0.5'], 50_000)).toBe('gzip');
    // headers past what is remembered, and long ones, answer as well
    for (let i = 0; i < 600; i++) expect(negotiateCoding(`gzip;q=0.${i % 9}, br;q=0, u${i}`, 50_000)).toBe(i % 9 ? 'gzip' : 'identity');
    expect(negotiateCoding(`${'x-unknown, '.repeat(100)}gzip`, 50_000)).toBe('gzip');
  });
});

describe('codedEtag', () => {
  it('gives each coding its own strong validator', () => {
    expect([codedEtag('"sp-abc"', 'identity'), codedEtag('"sp-abc"', 'br'), codedEtag('"sp-abc"', 'gzip')]).toEqual([
      '"sp-abc"',
      '"sp-abc-br"',
      '"sp-abc-gz"',
    ]);
  });
});
