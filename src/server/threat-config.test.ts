import { describe, expect, it } from 'vitest';
import { threatConfig } from './threat-config.ts';

describe('threat-intelligence settings', () => {
  it('reads blocklist zones, feeds and the breach provider', () => {
    const c = threatConfig({
      THREAT_DNSBL_ZONES: 'zen.example:ip, DBL.example:domain',
      THREAT_FEEDS:
        '[{"name":"URLhaus","url":"https://urlhaus.example/csv","format":"abusech-csv"},{"name":"c2","url":"http://x.example/c2.txt","format":"plain","threat":"botnet C2"}]',
      BREACH_LOOKUP_URL: 'https://breach.example/v1',
      BREACH_LOOKUP_KEY: 'k',
    });
    expect(c.blocklists).toEqual([
      { zone: 'zen.example', type: 'ip' },
      { zone: 'dbl.example', type: 'domain' },
    ]);
    expect(c.feeds.map((f) => [f.name, f.format, f.threat])).toEqual([
      ['URLhaus', 'abusech-csv', 'listed'],
      ['c2', 'plain', 'botnet C2'],
    ]);
    expect(c.breach).toEqual({ url: 'https://breach.example/v1', key: 'k' });
    expect(threatConfig({})).toMatchObject({ blocklists: [], feeds: [], breach: null, lookalikeChecksPerRun: 100 });
  });

  it('refuses what it cannot use, naming the variable', () => {
    expect(() => threatConfig({ THREAT_DNSBL_ZONES: 'zen.example:url' })).toThrow(/THREAT_DNSBL_ZONES/);
    expect(() => threatConfig({ THREAT_FEEDS: '{"name":"x"}' })).toThrow(/THREAT_FEEDS/);
    expect(() => threatConfig({ THREAT_FEEDS: '[{"name":"a","url":"file:///etc/passwd","format":"plain"}]' })).toThrow(/THREAT_FEEDS/);
    expect(() =>
      threatConfig({
        THREAT_FEEDS: '[{"name":"a","url":"http://a.example","format":"plain"},{"name":"a","url":"http://b.example","format":"plain"}]',
      }),
    ).toThrow(/names unique/);
    expect(() => threatConfig({ BREACH_LOOKUP_URL: 'https://breach.example' })).toThrow(/BREACH_LOOKUP_KEY/);
    expect(() => threatConfig({ THREAT_FEED_MAX_MB: '0' })).toThrow(/THREAT_FEED_MAX_MB/);
  });
});
