import { describe, expect, it } from 'vitest';
import { csvDocument, csvField } from './csv.ts';

describe('CSV fields', () => {
  it('quotes commas, quotes and line breaks as RFC 4180 says', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(99.95)).toBe('99.95');
    expect(csvField(false)).toBe('false');
  });
  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    for (const start of ['+1', '-1+2', '@SUM(A1)', '\tx']) expect(csvField(start)).toBe(`'${start}`);
    expect(
      csvDocument([
        ['a', 1],
        ['b', null],
      ]),
    ).toBe('a,1\r\nb,\r\n');
  });
});
