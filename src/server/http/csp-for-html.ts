// Astro's CSP header lists the hashes of every inline script and style its build knows for a
// route, not those of the page it rendered: the status page's carried 34 style hashes and 9
// script hashes for 2 style blocks and 1 script, 2.5 KB sent (and scanned by Node's header check)
// with every answer. Cut to the hashes of the blocks the HTML holds, the policy is shorter and
// tighter, and allows nothing Astro's did not: a hash is only ever dropped, never added.
import { cspHashSource } from '../domain/status-page/csp-hash.ts';

// <script> and <style> are raw text elements: their text ends at the first matching end tag
// (HTML's parsing rules), so this finds each one's exact text, which is what a CSP hash covers.
// A script with a src attribute is allowed by source, not by hash.
const INLINE_BLOCK = /<(script|style)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;

/** The hash sources (`'sha256-…'`) of the inline scripts and styles in `html`. */
export function inlineHashes(html: string): { script: Set<string>; style: Set<string> } {
  const found = { script: new Set<string>(), style: new Set<string>() };
  for (const m of html.matchAll(INLINE_BLOCK)) {
    const tag = m[1].toLowerCase() as 'script' | 'style';
    if (tag === 'script' && /\bsrc\s*=/i.test(m[2])) continue;
    found[tag].add(cspHashSource(m[3]));
  }
  return found;
}

/** `csp` with the script-src and style-src hash sources that no inline block of `html` needs removed. */
export function cspForHtml(csp: string, html: string): string {
  const used = inlineHashes(html);
  return csp
    .split(';')
    .map((directive) => {
      const tokens = directive.trim().split(/\s+/);
      const name = tokens[0]?.toLowerCase();
      const keep = name === 'script-src' ? used.script : name === 'style-src' ? used.style : null;
      if (!keep) return directive.trim();
      // only sha256 sources are recomputed here (Astro's default); any other source stays
      return tokens.filter((t, i) => i === 0 || !t.startsWith("'sha256-") || keep.has(t)).join(' ');
    })
    .filter((d) => d !== '')
    .join('; ');
}
