// Characters XML 1.0 does not allow (C0 controls other than tab, LF and CR; lone surrogates;
// U+FFFE and U+FFFF). One of them in tenant text makes a whole feed unreadable to a conforming
// parser and a badge's SVG undrawable, so every XML document we write goes through this.
const XML_INVALID = /[\x00-\x08\x0B\x0C\x0E-\x1F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlSafe(text: string): string {
  return text.replace(XML_INVALID, '');
}
