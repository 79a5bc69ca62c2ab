import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cspForHtml, inlineHashes } from './csp-for-html.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const STYLE = 'body{color:red}';
const OTHER_STYLE = '.x{margin:0}';
const SCRIPT = 'document.documentElement.classList.add("js")';
const OTHER_SCRIPT = 'console.log(1)';
const CSP = [
  `script-src 'self' ${hash(OTHER_SCRIPT)} ${hash(SCRIPT)}`,
  `style-src 'self' ${hash(OTHER_STYLE)} ${hash(STYLE)} 'sha384-keptAsIs'`,
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

describe('cspForHtml', () => {
  it("keeps only the hashes of the page's own inline blocks, and every other directive and source as it was", () => {
    const html = `<html><head><style>${STYLE}</style><script type="module">${SCRIPT}</script></head><body></body></html>`;
    expect(cspForHtml(CSP, html)).toBe(
      `script-src 'self' ${hash(SCRIPT)}; style-src 'self' ${hash(STYLE)} 'sha384-keptAsIs'; object-src 'none'; frame-ancestors 'none'`,
    );
  });

  it('never adds a hash the policy did not list (an inline block it did not allow stays blocked)', () => {
    const html = `<style>${STYLE}</style><style>.injected{}</style><script>${SCRIPT}</script><script>alert(1)</script>`;
    const out = cspForHtml(CSP, html);
    expect(out).not.toContain(hash('.injected{}'));
    expect(out).not.toContain(hash('alert(1)'));
    expect(out).toContain(hash(STYLE));
  });

  it('drops every hash of a directive when the page has no such block, leaving its other sources', () => {
    expect(cspForHtml(CSP, '<p>no inline blocks</p>')).toBe(
      "script-src 'self'; style-src 'self' 'sha384-keptAsIs'; object-src 'none'; frame-ancestors 'none'",
    );
  });

  it('leaves a policy without script-src or style-src alone', () => {
    expect(cspForHtml("default-src 'none'; frame-ancestors 'none'", `<style>${STYLE}</style>`)).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
  });
});

describe('inlineHashes', () => {
  it("hashes each block's exact text, ends it at the first end tag in any case, and skips scripts loaded by src", () => {
    const text = 'a { content: "é</b>" }\n';
    const html = `<STYLE media="all">${text}</Style ><script src="/a.js"></script><script>${SCRIPT}</script>`;
    const found = inlineHashes(html);
    expect([...found.style]).toEqual([hash(text)]);
    expect([...found.script]).toEqual([hash(SCRIPT)]);
  });
});
