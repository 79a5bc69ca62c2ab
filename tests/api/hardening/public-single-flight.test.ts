// The status page under live checks: a change of a page's data costs one Astro render however
// many visitors ask at once (the others wait for it), every answer after the change goes out
// in the coding the client asked for, and a check that changes nothing the page shows to the
// minute keeps the page (its ETag) while a visible change replaces it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync } from 'node:zlib';
import { DB_KINDS } from '../../support/test-db.ts';
import { rawRequest, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany } from '../../support/fixtures.ts';
import { seedIncident, seedMonitor, seedScriptedHistory, type SeededMonitor } from '../public/fixtures.ts';
import { statusRendersTotal, statusSnapshotsTotal } from '../../../src/server/metrics/platform.ts';

const START = Date.UTC(2026, 10, 22, 14, 37, 5);
const N = 200;

async function renders(page: 'status' | 'extra'): Promise<number> {
  return (await statusRendersTotal.get()).values.find((v) => v.labels.page === page)?.value ?? 0;
}
async function snapshots(): Promise<number> {
  return (await statusSnapshotsTotal.get()).values[0]?.value ?? 0;
}

describe.each(DB_KINDS)('status page single flight on %s', (kind) => {
  let t: TestApp;
  let clock = START;
  let acme: { id: string; subdomain: string };
  const monitors: SeededMonitor[] = [];
  let incidentId = '';
  const tick = (ms = 1500) => (clock += ms);
  const get = (path: string, headers: Record<string, string> = {}) =>
    rawRequest(`${t.baseUrl}${path}`, 'GET', { host: `${acme.subdomain}.localhost:${t.port}`, ...headers });
  /** What the engine writes for a check of monitor i (status and code unchanged unless given). */
  const check = (i: number, over: { status?: string; statusSince?: number; code?: number } = {}) =>
    t.services.db.k
      .updateTable('monitors')
      .set({
        last_checked_at: clock,
        last_response_time_ms: 100 + (clock % 97),
        updated_at: clock,
        ...(over.status ? { status: over.status as 'down', status_since: over.statusSince ?? clock } : {}),
        ...(over.code ? { last_http_code: over.code } : {}),
      })
      .where('id', '=', monitors[i].id)
      .execute();

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock, withPages: true });
    acme = await seedCompany(t.services, { name: 'Acme Corp', subdomain: `flight${kind}` });
    for (let i = 0; i < 20; i++) {
      const m = await seedMonitor(t.services.db, acme.id, clock, { name: `Service ${i}`, lastCheckedAt: clock - 2000 });
      monitors.push(m);
      if (i < 3) await seedScriptedHistory(t.services.db, m, clock);
    }
    incidentId = await seedIncident(t.services.db, acme.id, clock, {
      title: 'Resolved outage',
      status: 'resolved',
      startedAt: clock - 3_600_000,
      resolvedAt: clock - 1_800_000,
    });
  });
  afterAll(async () => t?.close());

  it(`renders a changed page once for ${N} concurrent visitors and answers all of them in brotli`, async () => {
    expect((await get('/', { 'accept-encoding': 'br' })).status).toBe(200);
    await check(4, { status: 'down' });
    tick();
    const before = await renders('status');
    const all = await Promise.all(Array.from({ length: N }, () => get('/', { 'accept-encoding': 'gzip, deflate, br' })));
    expect(await renders('status')).toBe(before + 1);
    const etags = new Set(all.map((r) => r.headers.get('etag')));
    expect(etags.size).toBe(1);
    for (const r of all) {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-encoding')).toBe('br');
      expect(r.headers.get('vary')).toMatch(/accept-encoding/i);
    }
    expect(brotliDecompressSync(all[N - 1].bytes).toString()).toContain('Service 4');
    // gzip-only clients get gzip from the same render
    const gz = await get('/', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(await renders('status')).toBe(before + 1);
  });

  it.each([
    ['/history', 'history'],
    ['/uptime?months=3', 'uptime'],
    ['/incidents/:id', 'incident'],
  ])(`renders %s once per change for ${N} concurrent visitors`, async (path) => {
    const url = path.replace(':id', incidentId);
    await check(5, { status: 'operational', statusSince: clock + 1 }); // a visible change: a new snapshot
    tick();
    expect((await get('/', { 'accept-encoding': 'br' })).status).toBe(200);
    const before = await renders('extra');
    const all = await Promise.all(Array.from({ length: N }, () => get(url, { 'accept-encoding': 'br' })));
    expect(await renders('extra')).toBe(before + 1);
    for (const r of all) {
      expect(r.status).toBe(200);
      expect(r.headers.get('content-encoding')).toBe('br');
    }
  });

  it('keeps the page through checks that change nothing shown to the minute', async () => {
    clock = Math.floor(clock / 60_000) * 60_000 + 60_000 + 5_000; // early in a fresh minute
    await check(0);
    tick();
    const first = await get('/', { 'accept-encoding': 'br' });
    const etag = first.headers.get('etag')!;
    const built = await snapshots();
    for (let i = 0; i < 20; i++) {
      await check(i); // new response times, later check times, same minute
      tick(2000);
      const r = await get('/', { 'accept-encoding': 'br', 'if-none-match': etag });
      expect(r.status, `check ${i}`).toBe(304);
    }
    expect(await snapshots()).toBe(built);
    // The next minute of check time shows: last check times and response times refresh.
    clock = Math.floor(clock / 60_000) * 60_000 + 60_000 + 1_000;
    await check(7);
    tick();
    const later = await get('/', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(later.status).toBe(200);
    expect(later.headers.get('etag')).not.toBe(etag);
  });

  it.each([
    ['a status change', { status: 'down' }],
    ['a new HTTP code', { code: 503 }],
  ])('changes the page at once for %s within the same minute', async (_, change) => {
    clock = Math.floor(clock / 60_000) * 60_000 + 60_000 + 5_000;
    await check(1);
    tick();
    const etag = (await get('/', { 'accept-encoding': 'br' })).headers.get('etag')!;
    await check(9, change);
    tick();
    const r = await get('/', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).not.toBe(etag);
  });

  it('changes the page at once when a monitor is renamed', async () => {
    clock = Math.floor(clock / 60_000) * 60_000 + 60_000 + 5_000;
    await check(1);
    tick();
    const etag = (await get('/', { 'accept-encoding': 'br' })).headers.get('etag')!;
    await t.services.db.k
      .updateTable('monitors')
      .set({ public_name: 'Billing API', updated_at: clock })
      .where('id', '=', monitors[2].id)
      .execute();
    tick();
    const r = await get('/', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(r.status).toBe(200);
    expect(brotliDecompressSync(r.bytes).toString()).toContain('Billing API');
  });
});
