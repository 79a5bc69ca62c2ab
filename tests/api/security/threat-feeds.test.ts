// Feed imports on both databases from a loopback HTTP server, friendly and hostile: an import
// replaces the feed's previous entries (keeping when each was first seen); a feed that answers
// too much (no Content-Length), too slowly, with an error or with a page of no indicators leaves
// the previous import in place and says why.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { threatRepo } from '../../../src/server/db/repositories/threat-repo.ts';
import type { Services } from '../../../src/server/domain/context.ts';
import { threatFeeds } from '../../../src/server/jobs/threat-feeds.ts';
import { matchFeeds } from '../../../src/server/security/threat/match.ts';
import { servicesOn } from '../../support/alert-services.ts';
import { DB_KINDS, newDatabaseLocation } from '../../support/test-db.ts';

let feed = '';
let csv = '';
let bad: 'huge' | 'slow' | 'error' | 'html' | 'fine' = 'fine';
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/list') return res.end(feed);
    if (req.url === '/csv') return res.end(csv);
    if (bad === 'huge') {
      // 2 MiB, chunked: the size is only known by counting
      for (let i = 0; i < 32; i++) res.write(`${'x'.repeat(65_535)}\n`);
      return res.end();
    }
    if (bad === 'slow') return res.write('192.0.2.200\n'); // never ends
    if (bad === 'html') return res.end('<html><body>Service temporarily unavailable</body></html>');
    if (bad === 'error') {
      res.statusCode = 500;
      return res.end('oops');
    }
    res.end('192.0.2.201\n');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe.each(DB_KINDS)('threat feed imports on %s', (kind) => {
  let services: Services;
  let now = 1_000_000;
  afterEach(async () => services?.db.close());

  const setUp = async () => {
    services = await servicesOn(await newDatabaseLocation(kind), () => now, {
      THREAT_FEEDS: JSON.stringify([
        { name: 'main', url: `${base}/list`, format: 'plain', threat: 'botnet' },
        { name: 'other', url: `${base}/other`, format: 'plain' },
        { name: 'URLhaus', url: `${base}/csv`, format: 'abusech-csv' },
      ]),
      THREAT_FEED_MAX_MB: '1',
      THREAT_FEED_TIMEOUT_SECONDS: '1',
    });
  };
  const values = async (name: string) =>
    (
      await services.db.k
        .selectFrom('threat_indicators')
        .select(['value', 'kind', 'threat', 'first_seen_at'])
        .where('feed', '=', name)
        .orderBy('value')
        .execute()
    ).map((r) => [r.value, r.kind, r.threat, Number(r.first_seen_at)]);
  const feedState = async (name: string) => (await threatRepo(services.db).listFeeds()).find((f) => f.name === name);

  it('replaces a feed by its latest import and keeps when each entry was first seen', async () => {
    await setUp();
    feed = ['a.example', '192.0.2.1', '198.51.100.9/24', 'a.example', '# comment'].join('\n');
    bad = 'fine';
    csv =
      '"1","2026-05-20 08:00:00","http://dl.evil.example/a.exe","online","","malware_download","exe","https://urlhaus.abuse.ch/url/1/","r"';
    expect(await threatFeeds.run(services, now)).toBe('threat feeds: main 3; other 1; URLhaus 1');
    const t1 = now;
    now += 3_600_000;
    feed = ['b.example', '192.0.2.1', '198.51.100.0/24'].join('\n');
    csv = '"1","2026-05-20 08:00:00","http://dl.evil.example/b.html","online","","phishing","html","https://urlhaus.abuse.ch/url/1/","r"';
    await threatFeeds.run(services, now);
    // an entry the feed now says something else about is updated, its first sighting kept
    expect(await values('URLhaus')).toEqual([['dl.evil.example', 'domain', 'phishing', Date.UTC(2026, 4, 20, 8)]]);
    expect(await values('main')).toEqual([
      ['192.0.2.1', 'ip', 'botnet', t1],
      ['198.51.100.0/24', 'cidr', 'botnet', t1],
      ['b.example', 'domain', 'botnet', now],
    ]);
    expect(await feedState('main')).toMatchObject({ indicators: 3, cidr_prefixes: '["v4/24"]', imported_at: now, error: null });
    const m = await matchFeeds(services.db, ['www.b.example', '198.51.100.77', 'a.example']);
    expect(m.get('www.b.example')?.map((x) => [x.indicator, x.threat])).toEqual([['b.example', 'botnet']]);
    expect(m.get('198.51.100.77')?.map((x) => x.indicator)).toEqual(['198.51.100.0/24']);
    expect(m.has('a.example')).toBe(false);
  });

  it('keeps the previous import of a feed that answers too much, too slowly, with an error or with no indicator at all, and says why', async () => {
    await setUp();
    feed = 'a.example';
    csv = '"1","2026-05-20 08:00:00","http://dl.evil.example/a.exe","online","","malware_download","exe","x","r"';
    bad = 'fine';
    await threatFeeds.run(services, now);
    const good = now;
    for (const [mode, error] of [
      ['huge', 'larger than 1048576 bytes'],
      ['slow', 'no answer within 1 s'],
      ['error', 'HTTP 500'],
      ['html', 'no indicators in the answer'],
    ] as const) {
      bad = mode;
      now += 3_600_000;
      expect(await threatFeeds.run(services, now)).toBe(`threat feeds: main 1; other failed: ${error}; URLhaus 1`);
      expect(await feedState('other')).toMatchObject({ indicators: 1, imported_at: good, attempted_at: now, error });
      expect(await values('other')).toEqual([['192.0.2.201', 'ip', 'listed', good]]);
    }
  });
});
