// Compact check storage (issue 18): a day of one-minute checks of two monitors goes through the
// engine's result path (writeBatch), then the check-compaction job moves all but the last minutes
// into per-hour chunks. Everything a user reads answers exactly as before, to the last check:
// the check history (every page), the response-time charts with their phase samples, uptime and
// the SLA report. A late result for a compacted hour merges into its chunk (a same-millisecond
// duplicate still keeps the first), a second run moves nothing, and retention removes whole
// chunks past the plan's days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { monitorsRepo, newMonitorRow } from '../../../src/server/db/repositories/monitors-repo.ts';
import { checksRepo } from '../../../src/server/db/repositories/checks-repo.ts';
import { writeBatch, type PendingResult } from '../../../src/server/engine/result-writer.ts';
import { pruneResults } from '../../../src/server/engine/retention.ts';
import { retentionCutoff } from '../../../src/lib/day-partitions.ts';
import { checkCompaction } from '../../../src/server/jobs/check-compaction.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { startTestApp, type ApiClient, type TestApp } from '../../support/test-app.ts';
import { seededRandom } from '../../../src/lib/seeded-random.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const END = Date.UTC(2026, 10, 24, 12, 7, 13);
const START = END - DAY;

const round = (ms: number) => Math.round(ms * 100) / 100;

/** Minute by minute, with scheduling jitter: mostly fine, slow spells, an outage, odd errors. */
function outcomeAt(r: () => number, i: number, withTimings: boolean): PendingResult['outcome'] {
  const down = (i >= 300 && i < 340) || r() < 0.01;
  const slow = i >= 800 && i < 830;
  const dns = round(0.5 + r() * 3);
  const connect = round(5 + r() * 10);
  const tls = round(10 + r() * 20);
  const ttfb = round(dns + connect + tls + (slow ? 2500 : 60) + r() * 80);
  const total = round(ttfb + r() * 4);
  if (down)
    return {
      status: 'down',
      responseTimeMs: null,
      httpCode: i % 3 ? 503 : null,
      error: i % 3 ? 'HTTP 503 — Service Unavailable' : 'Connection refused (ECONNREFUSED 203.0.113.9:443) ✗',
      timings: withTimings ? { dns, total: round(dns + 1) } : null,
      certExpiresAt: null,
    };
  return {
    status: slow ? 'degraded' : 'operational',
    responseTimeMs: total,
    httpCode: 200,
    error: slow ? `Response took ${Math.round(total)} ms (threshold 2000 ms)` : null,
    timings: withTimings ? { dns, connect, tls, ttfb, total } : null,
    certExpiresAt: withTimings ? Date.UTC(2027, 0, 1) + (i > 700 ? DAY * 90 : 0) : null,
  };
}

describe.each(DB_KINDS)('compact check storage on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let host: string;
  let clock = START;
  let companyId: string;
  const monitors = [`m-web-${kind}`, `m-tcp-${kind}`];

  /** Everything a user reads about the monitors' checks, through the API. */
  async function answers() {
    const out: Record<string, unknown> = {};
    for (const id of monitors) {
      const pages: unknown[] = [];
      let before: string | undefined;
      for (;;) {
        const r = await admin.get(`/api/v1/monitors/${id}/checks?limit=1000${before ? `&before=${encodeURIComponent(before)}` : ''}`, {
          host,
        });
        expect(r.status).toBe(200);
        pages.push(r.body);
        if (r.body.length < 1000) break;
        before = r.body.at(-1).checked_at;
      }
      out[`${id} history`] = pages;
      // a small page that starts inside an hour
      out[`${id} page`] = (
        await admin.get(`/api/v1/monitors/${id}/checks?limit=7&before=${new Date(END - 5 * HOUR - 17 * MIN).toISOString()}`, { host })
      ).body;
      for (const range of ['24h', '7d'])
        out[`${id} times ${range}`] = (await admin.get(`/api/v1/monitors/${id}/response-times?range=${range}`, { host })).body;
      out[`${id} uptime`] = (await admin.get(`/api/v1/monitors/${id}/uptime`, { host })).body;
    }
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    out.sla = (await admin.get(`/api/v1/reports/sla?from=${day(START)}&to=${day(END)}&format=json`, { host })).body;
    return out;
  }

  const stored = async () => ({
    rows: Number(
      (
        await t.services.db.k
          .selectFrom('check_results')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    ),
    chunks: await t.services.db.k
      .selectFrom('check_chunks as c')
      .innerJoin('monitors as m', 'm.num', 'c.monitor_num')
      .select(['m.id as monitor_id', 'c.chunk_start', 'c.checks'])
      .orderBy('m.id')
      .orderBy('c.chunk_start')
      .execute(),
  });

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => clock });
    const company = await seedCompany(t.services, { plan: 'enterprise' });
    companyId = company.id;
    host = `${company.subdomain}.${t.config.productDomain}`;
    for (const id of monitors)
      await monitorsRepo(t.services.db).insert({
        ...newMonitorRow({
          id,
          company_id: company.id,
          name: id,
          type: 'http',
          config: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
          is_public: true,
          interval_seconds: 60,
          timeout_seconds: 5,
          confirmations: 1,
          next_due_at: END + DAY,
          created_at: START - HOUR,
        }),
        sla_target: 99.5,
      });
    // Batches of a few seconds' results, as the engine writes them, on a simulated clock.
    const r = seededRandom(18);
    const pending: PendingResult[] = [];
    for (let i = 0; START + i * MIN <= END; i++)
      monitors.forEach((id, m) =>
        pending.push({
          monitorId: id,
          companyId: company.id,
          checkedAt: START + i * MIN + m * 17_000 + Math.floor(r() * 40),
          leaseOwner: null,
          outcome: outcomeAt(r, i, m === 0),
        }),
      );
    for (let i = 0; i < pending.length; i += 10) {
      const batch = pending.slice(i, i + 10);
      clock = batch.at(-1)!.checkedAt + 150;
      await writeBatch(t.services.db, batch, clock, t.services.monitorIncidents!);
    }
    clock = END + 1000;
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: company.id }), host);
  }, 240_000);
  afterAll(async () => {
    await t?.close();
  });

  it('compacts all but the last minutes into hourly chunks and answers every read as before', async () => {
    const before = await answers();
    expect((before[`${monitors[0]} history`] as unknown[][]).flat()).toHaveLength(1441);
    expect(await stored()).toMatchObject({ rows: 2882, chunks: [] });

    expect(await checkCompaction.run(t.services, clock)).toMatch(/^compacted 28\d\d check results$/);
    const after = await stored();
    expect(after.rows).toBeGreaterThanOrEqual(2); // the last minute stays rows
    expect(after.rows).toBeLessThanOrEqual(4);
    expect(after.chunks).toHaveLength(50); // 25 UTC hours touched by the day, per monitor
    expect(after.chunks.reduce((a, c) => a + c.checks, 0) + after.rows).toBe(2882);
    expect(await answers()).toEqual(before);

    expect(await checkCompaction.run(t.services, clock)).toBeUndefined(); // nothing left to move
    expect(await stored()).toEqual(after);
  });

  it('merges a late result into its compacted hour; a same-millisecond duplicate keeps the first', async () => {
    const [id] = monitors;
    const lateAt = END - 5 * HOUR - 17 * MIN - 31_000;
    const history = async () =>
      (await admin.get(`/api/v1/monitors/${id}/checks?limit=1000`, { host })).body as Array<Record<string, unknown>>;
    const first = (await history()).find((c) => Date.parse(c.checked_at as string) < lateAt)!;
    const late = (at: number, error: string): PendingResult => ({
      monitorId: id,
      companyId,
      checkedAt: at,
      leaseOwner: null,
      outcome: { status: 'down', responseTimeMs: null, httpCode: 500, error, timings: null, certExpiresAt: null },
    });
    await writeBatch(
      t.services.db,
      [late(lateAt, 'Late result'), late(Date.parse(first.checked_at as string), 'Duplicate')],
      clock,
      t.services.monitorIncidents!,
    );
    const chunksBefore = (await stored()).chunks;

    const want = await history();
    expect(want.filter((c) => c.error === 'Late result')).toHaveLength(1);
    expect(want.filter((c) => c.error === 'Duplicate')).toHaveLength(0);
    expect(want.find((c) => c.checked_at === first.checked_at)).toEqual(first);

    expect(await checkCompaction.run(t.services, clock)).toBe('compacted 2 check results');
    const chunk = (await stored()).chunks.find((c) => c.monitor_id === id && Number(c.chunk_start) === Math.floor(lateAt / HOUR) * HOUR)!;
    const was = chunksBefore.find((c) => c.monitor_id === id && c.chunk_start === chunk.chunk_start)!;
    expect(chunk.checks).toBe(was.checks + 1);
    expect(await history()).toEqual(want);
  });

  it('retention removes whole chunks past the plan: none across the cutoff, none younger', async () => {
    const starter = await seedCompany(t.services, { plan: 'starter' });
    const id = `m-old-${kind}`;
    await monitorsRepo(t.services.db).insert(
      newMonitorRow({
        id,
        company_id: starter.id,
        name: 'old',
        type: 'http',
        config: '{}',
        is_public: false,
        interval_seconds: 60,
        timeout_seconds: 5,
        confirmations: 1,
        next_due_at: END + DAY,
        created_at: START - 30 * DAY,
      }),
    );
    // The starter plan keeps 7 days; PostgreSQL's cutoff is rounded down to midnight UTC (its day
    // partitions go whole), SQLite's is exact.
    const hour0 = Math.floor(retentionCutoff(END, 7, kind === 'postgres') / HOUR) * HOUR;
    const row = (at: number) => ({
      monitor_id: id,
      company_id: starter.id,
      checked_at: at,
      status: 'operational' as const,
      response_time_ms: 12.5,
      http_code: 200,
      error: null,
      timings: null,
      cert_expires_at: null,
    });
    const times = [hour0 - 2 * HOUR + 5, hour0 - HOUR + 5, hour0 - HOUR + 40 * MIN, hour0 + 5, hour0 + HOUR + 5];
    await checksRepo(t.services.db).insertMany(times.map(row));
    await checkCompaction.run(t.services, clock);
    const chunkStarts = async () =>
      (
        await t.services.db.k
          .selectFrom('check_chunks as c')
          .innerJoin('monitors as m', 'm.num', 'c.monitor_num')
          .select('c.chunk_start')
          .where('m.id', '=', id)
          .orderBy('c.chunk_start')
          .execute()
      ).map((c) => Number(c.chunk_start));
    expect(await chunkStarts()).toEqual([hour0 - 2 * HOUR, hour0 - HOUR, hour0, hour0 + HOUR]);

    // The cutoff falls at or 7 minutes into hour0: the two hours before it go, hour0 stays whole.
    expect(await pruneResults(t.services.db, END)).toBe(3);
    expect(await chunkStarts()).toEqual([hour0, hour0 + HOUR]);
    const kept = await checksRepo(t.services.db).list(id, { limit: 10 });
    expect(kept.map((c) => Number(c.checked_at))).toEqual([hour0 + HOUR + 5, hour0 + 5]);
    // the other company's enterprise history is untouched
    expect((await stored()).chunks.filter((c) => c.monitor_id !== id)).toHaveLength(50);
  });
});
