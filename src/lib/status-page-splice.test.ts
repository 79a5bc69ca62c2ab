import { describe, expect, it } from 'vitest';
import type { StatusPageParts } from './status-page-markup.ts';
import { spliceBase, splicePage } from './status-page-splice.ts';

const parts = (overall: string, ungrouped: string, groups: string[], frame = 'F'): StatusPageParts => ({
  frame,
  overall,
  ungrouped,
  groups: groups.map((rows, i) => ({ id: `g${i}`, name: `G${i}`, rows })),
});
const page = (p: StatusPageParts) =>
  `<head>x</head><main>${p.overall}<h2>Service Status</h2>${p.ungrouped ? `<ul>${p.ungrouped}</ul>` : ''}${p.groups
    .map((g) => `<section><h3>${g.name}</h3><ul>${g.rows}</ul></section>`)
    .join('')}</main><footer>y</footer>`;

describe('splicing a status page', () => {
  it('makes the page a full render of the new parts would be', () => {
    const old = parts('<b>up</b>', '<li>a 1 ms</li>', ['<li>b 2 ms</li>', '', '<li>c</li>']);
    const base = spliceBase(Buffer.from(page(old)), old, 'csp');
    expect(base.csp).toBe('csp');
    const now = parts('<b>down</b>', '<li>a 9 ms</li>', ['<li>b 2 ms</li>', '', '<li>c down</li>']);
    expect(splicePage(base, now)).toBe(page(now));
  });

  it('gives nothing when the frame differs (an incident, a group, settings)', () => {
    const old = parts('<b>up</b>', '<li>a</li>', []);
    const base = spliceBase(Buffer.from(page(old)), old, 'csp');
    expect(splicePage(base, parts('<b>up</b>', '<li>a</li>', [], 'G'))).toBeNull();
  });

  it('splices nothing into a render that does not hold a part as given', () => {
    const old = parts('<b>up</b>', '<li>a &amp; b</li>', []);
    const base = spliceBase(Buffer.from(page(old).replace('&amp;', '&')), old, 'csp');
    expect(splicePage(base, parts('<b>down</b>', '<li>a &amp; b</li>', []))).toBeNull();
  });
});
