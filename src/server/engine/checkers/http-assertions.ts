// The http kind's text patterns: a keyword as a regular expression, and response-header
// assertions ("Name: pattern"). Regular expressions run on RE2JS (re2js, linear time) rather than
// the JavaScript engine, whose backtracking lets one tenant's pattern stall every check in the
// process; and only on the first REGEX_SCAN_BYTES of a body. Pure.
import { RE2JS } from 're2js';

/** A keyword regex is searched in this much of the body (RE2JS is linear, at ~5 ms per 32 KiB worst case). */
export const REGEX_SCAN_CHARS = 128 * 1024;
export const MAX_HEADER_ASSERTIONS = 20;

/** A header assertion's pattern: `/…/` a regular expression, anything else text the value must contain; empty: present. */
export interface HeaderPattern {
  regex: RE2JS | null;
  text: string;
}

/** The compiled expression, or the reason it is not one (RE2 syntax: no lookaround or backreferences). */
export function compileRegex(source: string): RE2JS | string {
  try {
    return RE2JS.compile(source);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, '') : 'invalid';
    return `not a valid regular expression (${why.slice(0, 120)})`;
  }
}

export function headerPattern(raw: string): HeaderPattern | string {
  const m = /^\/(.+)\/$/s.exec(raw);
  if (!m) return { regex: null, text: raw };
  const regex = compileRegex(m[1]);
  return typeof regex === 'string' ? regex : { regex, text: raw };
}

/** Whether the body holds the keyword (a regex searched in the body's first REGEX_SCAN_CHARS). */
export function keywordFound(text: string, keyword: string, regex: boolean): boolean {
  if (!regex) return text.includes(keyword);
  const re = compileRegex(keyword);
  return typeof re !== 'string' && re.matcher(text.slice(0, REGEX_SCAN_CHARS)).find();
}

/** The first assertion the response headers fail, as our sentence (the header's value is never quoted). */
export function headerAssertionProblem(
  headers: Record<string, string | string[] | undefined>,
  assertions: Record<string, string> | null | undefined,
): string | null {
  for (const [name, raw] of Object.entries(assertions ?? {})) {
    const value = headers[name.toLowerCase()];
    if (value === undefined) return `Header "${name}" is missing`;
    if (raw === '') continue;
    const pattern = headerPattern(raw);
    if (typeof pattern === 'string') return `Header "${name}": the pattern is ${pattern}`;
    const text = Array.isArray(value) ? value.join(', ') : value;
    const ok = pattern.regex ? pattern.regex.matcher(text).find() : text.includes(pattern.text);
    if (!ok) return `Header "${name}" does not match ${pattern.regex ? raw : `"${raw}"`}`;
  }
  return null;
}
