// HTTP delivery of the public documents, seen through raw requests: content codings negotiated
// with their q-values, every document (page, feeds, JSON) compressed from the first request
// after a change, one ETag per coding with Vary, Last-Modified and If-Modified-Since.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { seedIncident, seedMonitor, seedScriptedHistory, type SeededMonitor } from '../public/fixtures.ts';

const START = Date.UTC(2026, 10, 22, 14, 37, 12);

function decoded(r: { headers: Headers; bytes: Buffer }): string {
  const coding = r.headers.get('content-encoding');
  if (coding === 'br') return brotliDecompressSync(r.bytes).toString('utf8');
  if (coding === 'gzip') return gunzipSync(r.bytes).toString('utf8');
  return r.bytes.toString('utf8');
}

describe.each(DB_KINDS)('public document delivery on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  let api: SeededMonitor;
  const tick = (ms = 1500) => (clock += ms);
  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${t.baseUrl}${path}`, 'GET', { host: `${acme.subdomain}.localhost:${t.port}`, ...headers });
  const DOCS = [
    '/',
    '/history.rss',
    '/history.atom',
    '/api/v2/summary.json',
    '/api/v2/incidents.json',
    `/api/v1/public/public-status/enc${kind}`,
  ];

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `enc${kind}` });
    api = await seedMonitor(t.services.db, acme.id, clock, { name: 'API', url: 'https://api.acme.example/health' });
    await seedScriptedHistory(t.services.db, api, clock);
    for (let i = 0; i < 6; i++) {
      await seedIncident(t.services.db, acme.id, clock, {
        monitorId: null,
        title: `Elevated errors ${i}`,
        updates: [{ status: 'investigating', message: `We are looking into elevated error rates (${i}).`, at: clock - 60_000 }],
      });
    }
  });
  afterAll(async () => t?.close());

  it('compresses the page, feeds and JSON documents, from the first request after a change', async () => {
    tick();
    for (const path of DOCS) {
      // a change the page shows (a check alone shows by the minute, see status-page-repo.ts)
      await t.services.db.k
        .updateTable('monitors')
        .set({ last_checked_at: clock, status_since: clock, updated_at: clock })
        .where('id', '=', api.id)
        .execute();
      tick();
      const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.status, path).toBe(200);
      expect(br.headers.get('content-encoding'), path).toBe('br');
      expect(br.headers.get('vary'), path).toMatch(/accept-encoding/i);
      const plain = await get(path);
      expect(plain.headers.get('content-encoding'), path).toBeNull();
      expect(decoded(br), path).toBe(plain.text);
      expect(plain.bytes.length, path).toBeGreaterThan(1024);
      const gz = await get(path, { 'accept-encoding': 'gzip' });
      expect(gz.headers.get('content-encoding'), path).toBe('gzip');
      expect(decoded(gz), path).toBe(plain.text);
    }
  });

  it.each([
    ['br;q=0, gzip', 'gzip'],
    ['gzip, br;q=0', 'gzip'],
    ['br;q=0', null],
    ['gzip;q=0.5, br;q=0.9', 'br'],
    ['gzip;q=1, br;q=0.2', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, gzip;q=0', 'br'],
    ['identity', null],
    ['', null],
    ['BR', 'br'],
    ['compress, deflate', null],
  ])('Accept-Encoding %j gets %s', async (accept, coding) => {
    for (const path of ['/', '/history.atom', '/api/v2/summary.json']) {
      const r = await get(path, { 'accept-encoding': accept });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-encoding'), path).toBe(coding);
    }
  });

  it('compresses even a small badge when identity is refused, and answers 406 when nothing is acceptable', async () => {
    const small = await get('/badges/status.json', { 'accept-encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull(); // too small to gain anything
    const forced = await get('/badges/status.json', { 'accept-encoding': 'gzip, identity;q=0' });
    expect(forced.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(decoded(forced))).toMatchObject({ schemaVersion: 1, label: 'status' });
    for (const accept of ['identity;q=0', '*;q=0', 'compress, identity;q=0']) {
      for (const path of ['/', '/history.rss', '/badges/status.svg', '/api/v2/summary.json']) {
        const r = await get(path, { 'accept-encoding': accept });
        expect(r.status, `${path} ${accept}`).toBe(406);
      }
    }
  });

  it('gives each coding its own ETag and answers If-None-Match per coding', async () => {
    tick();
    for (const path of DOCS) {
      const br = await get(path, { 'accept-encoding': 'br' });
      const gz = await get(path, { 'accept-encoding': 'gzip' });
      const id = await get(path);
      const tags = [br, gz, id].map((r) => r.headers.get('etag'));
      expect(new Set(tags).size, `${path} ${tags}`).toBe(3);
      expect((await get(path, { 'accept-encoding': 'br', 'if-none-match': tags[0]! })).status, path).toBe(304);
      expect((await get(path, { 'accept-encoding': 'gzip', 'if-none-match': tags[1]! })).status, path).toBe(304);
      expect((await get(path, { 'if-none-match': tags[2]! })).status, path).toBe(304);
      // a br copy does not validate a gzip request: the bodies differ
      const other = await get(path, { 'accept-encoding': 'gzip', 'if-none-match': tags[0]! });
      expect(other.status, path).toBe(200);
      expect(other.headers.get('content-encoding'), path).toBe('gzip');
    }
  });

  it('sends Last-Modified from the snapshot and answers If-Modified-Since', async () => {
    tick();
    for (const path of DOCS) {
      const r = await get(path, { 'accept-encoding': 'br' });
      const lm = r.headers.get('last-modified');
      expect(lm, path).toBeTruthy();
      expect(Date.parse(lm!), path).toBeLessThanOrEqual(clock);
      expect(Date.parse(lm!), path).toBeGreaterThan(clock - 10 * 60_000);
      const same = await get(path, { 'accept-encoding': 'br', 'if-modified-since': lm! });
      expect(same.status, path).toBe(304);
      expect(same.bytes.length).toBe(0);
      const older = await get(path, { 'accept-encoding': 'br', 'if-modified-since': new Date(Date.parse(lm!) - 1000).toUTCString() });
      expect(older.status, path).toBe(200);
    }
    // after a change the page is newer than the client's copy
    const before = (await get('/')).headers.get('last-modified')!;
    await t.services.db.k.updateTable('monitors').set({ status: 'down', updated_at: clock }).where('id', '=', api.id).execute();
    tick(3000);
    const after = await get('/', { 'if-modified-since': before });
    expect(after.status).toBe(200);
    expect(Date.parse(after.headers.get('last-modified')!)).toBeGreaterThan(Date.parse(before));
  });
});
