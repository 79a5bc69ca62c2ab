// Is an operator's secret (SESSION_SECRET) random enough to sign sessions with? A length rule
// alone lets through forty `a`s and the placeholder of a sample .env file, so the secret must
// also carry enough measured entropy, not repeat a short pattern, not walk the keyboard or the
// alphabet, and not contain a placeholder phrase.
import { adjacencyGraphs } from '@zxcvbn-ts/language-common';

export const MIN_SECRET_LENGTH = 32;
/** openssl rand -hex 16 (128 random bits) measures about 110 bits by the estimate below, and
 * very rarely less than 90. */
const MIN_ESTIMATED_BITS = 80;

// Words of sample configurations and tutorials, matched after dropping case and punctuation.
const PLACEHOLDER_WORDS = [
  'changeme',
  'changethis',
  'replaceme',
  'replacewith',
  'yoursecret',
  'yourown',
  'mysecret',
  'secretkey',
  'sessionsecret',
  'placeholder',
  'example',
  'password',
  'default',
  'insecure',
  'notsecret',
  'dontuse',
  'donotuse',
  'random',
  'fixme',
];

/** Bits an attacker must guess at most: length times the smaller of the measured (Shannon)
 * entropy per character and the size of the character classes used. */
function estimatedBits(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let shannon = 0;
  for (const n of counts.values()) shannon -= (n / s.length) * Math.log2(n / s.length);
  let alphabet = 0;
  if (/[a-z]/.test(s)) alphabet += 26;
  if (/[A-Z]/.test(s)) alphabet += 26;
  if (/[0-9]/.test(s)) alphabet += 10;
  if (/[^a-zA-Z0-9]/.test(s)) alphabet += 33;
  return s.length * Math.min(shannon, Math.log2(alphabet));
}

/** The whole secret is a shorter unit said again (with a partial unit at the end allowed). */
function repeatsPattern(s: string): boolean {
  for (let unit = 1; unit <= s.length / 2; unit++) {
    let same = true;
    for (let i = unit; i < s.length && same; i++) same = s[i] === s[i - unit];
    if (same) return true;
  }
  return false;
}

const qwerty = adjacencyGraphs.qwerty as Record<string, (string | null)[]>;
const neighbours = (a: string, b: string) =>
  qwerty[a.toLowerCase()]?.some((keys) => keys?.toLowerCase().includes(b.toLowerCase())) ?? false;

/** Three steps in four go to the next character (abc, 123) or to a neighbouring key (qwe). */
function walks(s: string): boolean {
  let steps = 0;
  for (let i = 1; i < s.length; i++) {
    if (Math.abs(s.charCodeAt(i) - s.charCodeAt(i - 1)) === 1 || neighbours(s[i - 1], s[i])) steps++;
  }
  return steps >= (s.length - 1) * 0.75;
}

/** Why the secret is not good enough, or null. */
export function weakSecretReason(secret: string): string | null {
  if (secret.length < MIN_SECRET_LENGTH) return 'too short';
  const letters = secret.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (PLACEHOLDER_WORDS.some((w) => letters.includes(w))) return 'a placeholder';
  if (repeatsPattern(secret)) return 'a repeated pattern';
  if (walks(secret)) return 'a sequence';
  if (estimatedBits(secret) < MIN_ESTIMATED_BITS) return 'too little entropy';
  return null;
}
