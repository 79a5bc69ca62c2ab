// A status page change that leaves the page's frame as it was (lib/status-page-markup.ts: only
// the banner and monitor rows differ, as after a check) is made from the last full render: its
// HTML cut around the changeable parts, with the new parts put in their places. The parts are
// the very strings the render put in with set:html, so the result is byte for byte the page a
// full render would give (status-page-warm-cache.test.ts compares them through checks, hours and
// days turning, incidents and maintenance), without Astro's request pipeline.
import type { StatusPageParts } from './status-page-markup.ts';

/**
 * A full render kept for splicing. It is cut around its changeable parts on the first splice,
 * so a full render that is never spliced into (its frame changes again first) costs no cutting.
 */
export interface SpliceBase {
  frame: string;
  /** the render's Content-Security-Policy (its inline styles and scripts are in the frame) */
  csp: string;
  /** until cut: the render and its parts */
  render: { html: Buffer; parts: StatusPageParts } | null;
  /** once cut: the HTML between the changeable parts (one more than there are parts); null if it could not be cut */
  between: string[] | null;
}

/** The changeable parts in page order; the frame says which lists are empty (those are left out). */
const changeable = (p: StatusPageParts): string[] => [p.overall, p.ungrouped, ...p.groups.map((g) => g.rows)].filter((s) => s !== '');

export function spliceBase(html: Buffer, parts: StatusPageParts, csp: string): SpliceBase {
  return { frame: parts.frame, csp, render: { html, parts }, between: null };
}

/** The HTML between the parts, or null when the HTML does not hold each of them in order. */
function cut(html: string, parts: StatusPageParts): string[] | null {
  const between: string[] = [];
  let from = 0;
  for (const part of changeable(parts)) {
    const at = html.indexOf(part, from);
    if (at < 0) return null;
    between.push(html.slice(from, at));
    from = at + part.length;
  }
  between.push(html.slice(from));
  return between;
}

/** The page of these parts made from a base of the same frame, or null (then a full render is needed). */
export function splicePage(base: SpliceBase, parts: StatusPageParts): string | null {
  if (base.frame !== parts.frame) return null;
  if (base.render) {
    base.between = cut(base.render.html.toString(), base.render.parts);
    base.render = null;
  }
  const between = base.between;
  const now = changeable(parts);
  if (!between || now.length !== between.length - 1) return null;
  let html = between[0];
  for (let i = 0; i < now.length; i++) html += now[i] + between[i + 1];
  return html;
}
