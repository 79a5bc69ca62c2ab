import { describe, expect, it } from 'vitest';
import { csvFields, feedParser } from './feed-parse.ts';

const parse = (format: 'plain' | 'abusech-csv', text: string) => {
  const p = feedParser(format);
  return text.split('\n').flatMap((l) => {
    const r = p(l);
    return r ? [r] : [];
  });
};

describe('threat feed lines', () => {
  it('reads plain lists: addresses, ranges, domains and hosts-file lines; comments skipped', () => {
    const got = parse(
      'plain',
      [
        '# a comment',
        '192.0.2.7',
        '198.51.100.0/24 # range',
        '203.0.113.9/32',
        'Evil.Example',
        '0.0.0.0 bad.example',
        'not valid!',
        '',
      ].join('\n'),
    );
    expect(got.map((g) => [g.kind, g.value])).toEqual([
      ['ip', '192.0.2.7'],
      ['cidr', '198.51.100.0/24'],
      ['ip', '203.0.113.9'],
      ['domain', 'evil.example'],
      ['domain', 'bad.example'],
    ]);
  });

  it('reads abuse.ch CSV by its header comment and takes the host of URLs', () => {
    const text = [
      '################################################################',
      '# id,dateadded,url,url_status,last_online,threat,tags,urlhaus_link,reporter',
      '"3001","2026-05-01 10:00:00","http://dl.evil.example:8080/a.exe","online","2026-05-02 00:00:00","malware_download","exe,Mozi","https://urlhaus.abuse.ch/url/3001/","x"',
      '"3002","2026-05-01 11:00:00","http://192.0.2.44/i.sh","offline","","malware_download","sh","https://urlhaus.abuse.ch/url/3002/","y"',
    ].join('\n');
    expect(parse('abusech-csv', text)).toEqual([
      {
        value: 'dl.evil.example',
        kind: 'domain',
        threat: 'malware_download',
        tags: 'exe,Mozi',
        first_seen_at: Date.UTC(2026, 4, 1, 10),
      },
      expect.objectContaining({ value: '192.0.2.44', kind: 'ip', tags: 'sh' }),
    ]);
    const feodo = parse(
      'abusech-csv',
      '"first_seen_utc","dst_ip","dst_port","c2_status","last_online","malware"\n"2026-01-02 03:04:05","198.51.100.3","443","online","","QakBot"',
    );
    expect(feodo).toEqual([
      expect.objectContaining({ value: '198.51.100.3', threat: 'QakBot', first_seen_at: Date.UTC(2026, 0, 2, 3, 4, 5) }),
    ]);
  });

  it('splits quoted CSV fields with doubled quotes', () => {
    expect(csvFields('"a","b ""c""",d,')).toEqual(['a', 'b "c"', 'd', '']);
  });
});
