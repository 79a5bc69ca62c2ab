// SPF as receivers evaluate it: terms parsed with their qualifiers, DNS lookups counted through
// includes and redirects (RFC 7208 4.6.4), the `all` in effect after a redirect, loops and
// missing includes named instead of followed forever.
import { describe, expect, it } from 'vitest';
import { analyseSpf, parseSpf } from './spf.ts';

const zone = (records: Record<string, string[]>) => async (name: string) => records[name] ?? [];

describe('SPF', () => {
  it('parses qualifiers, mechanisms and modifiers', () => {
    expect(parseSpf('v=spf1 ip4:192.0.2.0/24 -a:mail.example.com ~mx/24 redirect=_spf.example.com ?all')).toEqual([
      { qualifier: '+', name: 'ip4', value: '192.0.2.0/24' },
      { qualifier: '-', name: 'a', value: 'mail.example.com' },
      { qualifier: '~', name: 'mx', value: '24' },
      { qualifier: '+', name: 'redirect', value: '_spf.example.com' },
      { qualifier: '?', name: 'all', value: null },
    ]);
  });

  it('counts lookups through includes and takes `all` from a redirect when the record has none', async () => {
    const spf = await analyseSpf(
      'example.com',
      zone({
        'example.com': ['v=spf1 mx include:a.example.net redirect=b.example.net', 'other text'],
        'a.example.net': ['v=spf1 ip4:198.51.100.1 exists:%{i}.x.example.net -all'],
        'b.example.net': ['v=spf1 a ptr ~all'],
      }),
    );
    expect(spf).toMatchObject({
      record: 'v=spf1 mx include:a.example.net redirect=b.example.net',
      count: 1,
      all: '~',
      lookups: 6,
      broken: [],
    });
  });

  it('names includes without a record and loops, and counts two records', async () => {
    const spf = await analyseSpf(
      'loop.example',
      zone({
        'loop.example': ['v=spf1 include:self.example include:none.example -all', 'v=spf1 -all'],
        'self.example': ['v=spf1 include:self.example -all'],
      }),
    );
    expect(spf).toMatchObject({ count: 2, all: '-', lookups: 3, broken: ['self.example', 'none.example'] });
  });

  it('answers no record for a name without one', async () => {
    expect(await analyseSpf('none.example', zone({ 'none.example': ['google-site-verification=x'] }))).toMatchObject({
      record: null,
      count: 0,
      lookups: 0,
    });
  });
});
