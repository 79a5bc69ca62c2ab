// Escaping for the HTML the status page builds as strings (timeline items, monitor rows). Each
// costs one scan when there is nothing to escape, the common case.
const TEXT_UNSAFE = /[&<>'"]/g;
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&#39;', '"': '&quot;' };
const ATTR_UNSAFE = /[&"<]/g;
const ATTR_ESCAPES: Record<string, string> = { '&': '&amp;', '"': '&quot;', '<': '&lt;' };

/** Element text, escaped as Astro escapes expressions. */
export const escapeText = (s: string): string => (s.search(TEXT_UNSAFE) === -1 ? s : s.replace(TEXT_UNSAFE, (c) => TEXT_ESCAPES[c]));

/** A double-quoted attribute value. */
export const escapeAttr = (s: string): string => (s.search(ATTR_UNSAFE) === -1 ? s : s.replace(ATTR_UNSAFE, (c) => ATTR_ESCAPES[c]));
