import { describe, expect, it } from 'vitest';
import { adjacentKeys, lookalikes } from './lookalikes.ts';

describe('lookalike domains', () => {
  const of = (d: string, t: string) =>
    lookalikes(d)
      .filter((l) => l.technique === t)
      .map((l) => l.candidate);

  it('makes each typo kind of the first label and keeps the suffix', () => {
    expect(of('acme.co.uk', 'omission')).toEqual(['cme.co.uk', 'ame.co.uk', 'ace.co.uk', 'acm.co.uk']);
    expect(of('acme.com', 'repetition')).toEqual(['aacme.com', 'accme.com', 'acmme.com', 'acmee.com']);
    expect(of('acme.com', 'transposition')).toEqual(['came.com', 'amce.com', 'acem.com']);
    expect(adjacentKeys('s').sort()).toEqual(['a', 'c', 'd', 'e', 'q', 'w', 'x', 'z']);
    expect(of('ab.com', 'adjacent-key')).toContain('sb.com');
    expect(of('acme.com', 'hyphenation')).toEqual(['a-cme.com', 'ac-me.com', 'acm-e.com']);
  });

  it('makes homoglyphs, in ASCII and as IDN punycode, and TLD swaps', () => {
    expect(of('acme.com', 'homoglyph')).toEqual(['4cme.com', 'acrne.com']); // acm3 is an adjacent-key typo already
    const idn = of('acme.com', 'idn-homoglyph');
    expect(idn.every((c) => c.startsWith('xn--') && c.endsWith('.com'))).toBe(true);
    expect(idn).toContain(new URL('http://аcme.com').hostname); // Cyrillic а
    expect(of('acme.com', 'tld-swap')).toContain('acme.net');
    expect(of('acme.com', 'tld-swap')).not.toContain('acme.com');
  });

  it('never lists the domain itself or a name twice', () => {
    const all = lookalikes('google.com').map((l) => l.candidate);
    expect(new Set(all).size).toBe(all.length);
    expect(all).not.toContain('google.com');
    expect(lookalikes('localhost')).toEqual([]);
  });
});
