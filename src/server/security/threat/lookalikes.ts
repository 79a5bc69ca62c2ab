// Lookalike domains of a company's domain, the names a phisher registers: typos (a letter left
// out, doubled, swapped with its neighbour, or replaced by a key next to it), homoglyphs (rn for
// m, 0 for o, and Cyrillic or Greek letters that look Latin, written as IDN punycode), the same
// name under other top-level domains, and hyphens inserted. Pure: no DNS here.
import { domainToASCII } from 'node:url';

export type LookalikeTechnique =
  | 'omission'
  | 'repetition'
  | 'transposition'
  | 'adjacent-key'
  | 'homoglyph'
  | 'idn-homoglyph'
  | 'tld-swap'
  | 'hyphenation';

export interface Lookalike {
  candidate: string;
  technique: LookalikeTechnique;
}

const QWERTY = ['1234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Keys next to a key on a US keyboard (same row and the rows above and below). */
export function adjacentKeys(ch: string): string[] {
  const row = QWERTY.findIndex((r) => r.includes(ch));
  if (row < 0) return [];
  const col = QWERTY[row].indexOf(ch);
  const out = new Set<string>();
  for (const r of [row - 1, row, row + 1]) {
    const keys = QWERTY[r];
    if (!keys) continue;
    for (const c of [col - 1, col, col + 1]) if (keys[c] && keys[c] !== ch) out.add(keys[c]);
  }
  return [...out];
}

/** ASCII look-alikes (one letter or two for one). */
const ASCII_GLYPHS: Record<string, string[]> = {
  o: ['0'],
  l: ['1', 'i'],
  i: ['1', 'l'],
  m: ['rn'],
  w: ['vv'],
  e: ['3'],
  a: ['4'],
  s: ['5'],
  g: ['q'],
  b: ['d'],
  d: ['b', 'cl'],
};

/** Cyrillic and Greek letters drawn like Latin ones. */
const UNICODE_GLYPHS: Record<string, string> = {
  a: 'а',
  c: 'с',
  e: 'е',
  i: 'і',
  j: 'ј',
  o: 'о',
  p: 'р',
  s: 'ѕ',
  x: 'х',
  y: 'у',
  k: 'к',
  n: 'п',
};

/** Top-level domains a lookalike is most often registered under. */
export const SWAP_TLDS = ['com', 'net', 'org', 'co', 'io', 'info', 'biz', 'app', 'dev', 'xyz', 'online', 'site', 'shop', 'us', 'uk', 'de'];

const LABEL_RE = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Candidates for `domain` (a registered name such as example.com or example.co.uk; the first
 * label is varied, the rest kept, except for TLD swaps), each once, never the domain itself.
 */
export function lookalikes(domain: string): Lookalike[] {
  const d = domain.toLowerCase().replace(/\.$/, '');
  const dot = d.indexOf('.');
  if (dot <= 0) return [];
  const name = d.slice(0, dot);
  const suffix = d.slice(dot + 1);
  const seen = new Set<string>([d]);
  const out: Lookalike[] = [];
  const add = (label: string, technique: LookalikeTechnique, tld = suffix) => {
    if (!LABEL_RE.test(label) && !(technique === 'idn-homoglyph' && label.startsWith('xn--'))) return;
    const candidate = `${label}.${tld}`;
    if (seen.has(candidate)) return;
    seen.add(candidate);
    out.push({ candidate, technique });
  };

  for (let i = 0; i < name.length; i++) if (name.length > 1) add(name.slice(0, i) + name.slice(i + 1), 'omission');
  for (let i = 0; i < name.length; i++) add(name.slice(0, i + 1) + name[i] + name.slice(i + 1), 'repetition');
  for (let i = 0; i + 1 < name.length; i++) {
    if (name[i] !== name[i + 1]) add(name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2), 'transposition');
  }
  for (let i = 0; i < name.length; i++) {
    for (const k of adjacentKeys(name[i])) add(name.slice(0, i) + k + name.slice(i + 1), 'adjacent-key');
  }
  for (let i = 0; i < name.length; i++) {
    for (const g of ASCII_GLYPHS[name[i]] ?? []) add(name.slice(0, i) + g + name.slice(i + 1), 'homoglyph');
  }
  for (let i = 0; i < name.length; i++) {
    const g = UNICODE_GLYPHS[name[i]];
    if (!g) continue;
    const ascii = domainToASCII(`${name.slice(0, i)}${g}${name.slice(i + 1)}.${suffix}`);
    if (ascii) add(ascii.slice(0, ascii.length - suffix.length - 1), 'idn-homoglyph');
  }
  for (const tld of SWAP_TLDS) if (tld !== suffix) add(name, 'tld-swap', tld);
  for (let i = 1; i < name.length; i++)
    if (name[i - 1] !== '-' && name[i] !== '-') add(`${name.slice(0, i)}-${name.slice(i)}`, 'hyphenation');
  return out;
}
