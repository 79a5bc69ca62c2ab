// GET /api/v1/monitors/{id}/response-times (issue 13, the monitor page's chart): one point per
// hour (24h, 7d) or day (30d, 90d) from scripted rollups, with exact average and p95 from the
// stored histogram, the phase breakdown from raw checks of the range, and tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUCKETS_MS } from '../../../src/server/engine/rollup-math.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A histogram with `n` responses in the bucket whose upper bound is `bound` ms, per entry. */
function hist(entries: Array<[bound: number, n: number]>): string {
  const h = new Array(BUCKETS_MS.length + 1).fill(0);
  for (const [bound, n] of entries) h[BUCKETS_MS.indexOf(bound)] += n;
  return JSON.stringify(h);
}

describe.each(DB_KINDS)('monitor response times on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let viewer: ApiClient;
  let otherAdmin: ApiClient;
  let anonymous: ApiClient;
  const now = Date.UTC(2026, 10, 24, 12, 30);
  const hour = Math.floor(now / HOUR) * HOUR;
  const day = Math.floor(now / DAY) * DAY;
  const monitorId = newId();

  beforeAll(async () => {
    t = await startTestApp({ db: kind, now: () => now });
    const acme = await seedCompany(t.services, { plan: 'enterprise' });
    const globex = await seedCompany(t.services, { plan: 'enterprise' });
    const k = t.services.db.k;
    await k
      .insertInto('monitors')
      .values({
        id: monitorId,
        company_id: acme.id,
        name: 'Checkout API',
        type: 'http',
        config: JSON.stringify({ url: 'https://shop.example.net/health' }),
        interval_seconds: 60,
        timeout_seconds: 10,
        status_since: null,
        pending_status: null,
        last_checked_at: null,
        last_response_time_ms: null,
        last_http_code: null,
        last_error: null,
        cert_expires_at: null,
        push_token_hash: null,
        last_push_at: null,
        // never due: the test app runs no engine
        next_due_at: now + 365 * DAY,
        lease_owner: null,
        lease_expires_at: null,
        last_answers: null,
        created_at: now - 100 * DAY,
        updated_at: now - 100 * DAY,
      })
      .execute();
    const roll = (start: number, r: { checks: number; failures: number; sum: number; max: number | null; hist: string | null }) => ({
      monitor_id: monitorId,
      company_id: acme.id,
      checks: r.checks,
      failures: r.failures,
      degraded: 0,
      maintenance: 0,
      sum_response_ms: r.sum,
      min_response_ms: null,
      max_response_ms: r.max,
      response_hist: r.hist,
      // deliberately wrong: the endpoint derives p95 from the histogram, not this column
      p95_response_ms: 1,
      last_status: null,
      last_http_code: 200,
      last_checked_at: start,
    });
    await k
      .insertInto('monitor_rollups_hourly')
      .values([
        // 10 responses of 80 ms, 10 of 600 ms, 2 failures: avg 340, p95 in the ≤750 bucket capped by max 700
        {
          ...roll(hour, {
            checks: 22,
            failures: 2,
            sum: 6800,
            max: 700,
            hist: hist([
              [100, 10],
              [750, 10],
            ]),
          }),
          hour_start: hour,
          // 20 timed checks; TLS only on 10 of them (per phase: [sum ms, checks with it])
          phase_sums: JSON.stringify({ dns: [60, 20], connect: [100, 20], tls: [120, 10], ttfb: [600, 20] }),
        },
        { ...roll(hour - 5 * HOUR, { checks: 1, failures: 0, sum: 42, max: 42, hist: hist([[50, 1]]) }), hour_start: hour - 5 * HOUR },
        // all failed: counted, but no time
        { ...roll(hour - 6 * HOUR, { checks: 3, failures: 3, sum: 0, max: null, hist: null }), hour_start: hour - 6 * HOUR },
        // in 7 days, not in 24 hours
        {
          ...roll(hour - 100 * HOUR, { checks: 4, failures: 0, sum: 400, max: 130, hist: hist([[150, 4]]) }),
          hour_start: hour - 100 * HOUR,
        },
      ])
      .execute();
    await k
      .insertInto('monitor_rollups_daily')
      .values([
        // 100 responses ≤ 200 ms averaging 150, the slowest 190
        { ...roll(day, { checks: 100, failures: 0, sum: 15000, max: 190, hist: hist([[200, 100]]) }), day_start: day },
        { ...roll(day - 89 * DAY, { checks: 2, failures: 0, sum: 20, max: 12, hist: hist([[20, 2]]) }), day_start: day - 89 * DAY },
        // one day too old for 90 days
        { ...roll(day - 90 * DAY, { checks: 9, failures: 0, sum: 900, max: 100, hist: hist([[100, 9]]) }), day_start: day - 90 * DAY },
      ])
      .execute();
    const check = (at: number, timings: Record<string, number> | null) => ({
      monitor_id: monitorId,
      company_id: acme.id,
      checked_at: at,
      status: 'operational' as const,
      response_time_ms: 10,
      http_code: 200,
      error: null,
      timings: timings ? JSON.stringify(timings) : null,
      cert_expires_at: null,
    });
    await k
      .insertInto('check_results')
      .values([
        check(now - 60_000, { dns: 2, connect: 4, tls: 6, ttfb: 10, total: 30 }),
        check(now - 120_000, { dns: 4, connect: 6, total: 50 }),
        check(now - 180_000, null),
        check(now - 30 * HOUR, { dns: 100, connect: 5, total: 200 }),
      ])
      .execute();
    const host = `${acme.subdomain}.${t.config.productDomain}`;
    admin = new ApiClient(t.baseUrl, host);
    viewer = new ApiClient(t.baseUrl, host);
    anonymous = new ApiClient(t.baseUrl, host);
    otherAdmin = new ApiClient(t.baseUrl, `${globex.subdomain}.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }));
    await signIn(otherAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }));
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const url = (range?: string) => `/api/v1/monitors/${monitorId}/response-times${range ? `?range=${range}` : ''}`;

  it('answers 24 hourly points, oldest first, with exact average and p95 from the histogram', async () => {
    const r = await viewer.get(url());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ monitor_id: monitorId, range: '24h', grain: 'hour' });
    expect(r.body.points).toHaveLength(24);
    expect(r.body.points[0].start).toBe(new Date(hour - 23 * HOUR).toISOString());
    expect(r.body.points[23]).toEqual({
      start: new Date(hour).toISOString(),
      avg: 340,
      p95: 700,
      checks: 22,
      failures: 2,
      degraded: 0,
      maintenance: 0,
      last_http_code: 200,
      // dns 3, connect 5, tls 12 (over its 10 checks), wait = ttfb 30 - 3 - 5 - 12
      phases: { dns: 3, connect: 5, tls: 12, wait: 10 },
    });
    // a period without phase sums (written before they were kept) has no breakdown
    expect(r.body.points[18]).toMatchObject({ avg: 42, p95: 42, checks: 1, phases: { dns: null, connect: null, tls: null, wait: null } });
    expect(r.body.points[17]).toMatchObject({ avg: null, p95: null, checks: 3, failures: 3 });
    expect(r.body.points[0]).toMatchObject({ avg: null, p95: null, checks: 0 });
    expect(r.body.points.filter((p: { checks: number }) => p.checks > 0)).toHaveLength(3);
    // the phases of the two timed checks of the last 24 hours
    expect(r.body.phases).toEqual({ samples: 2, dns: 3, connect: 5, tls: 6, ttfb: 10, total: 40 });
  });

  it('answers 168 hourly points for 7 days, 30 and 90 daily points for 30 and 90 days', async () => {
    const week = await admin.get(url('7d'));
    expect(week.body.grain).toBe('hour');
    expect(week.body.points).toHaveLength(168);
    expect(week.body.points.find((p: { start: string }) => p.start === new Date(hour - 100 * HOUR).toISOString())).toMatchObject({
      avg: 100,
      p95: 130,
    });
    expect(week.body.phases).toMatchObject({ samples: 3, dns: 35.33 });
    const month = await admin.get(url('30d'));
    expect(month.body.grain).toBe('day');
    expect(month.body.points).toHaveLength(30);
    expect(month.body.points[29]).toMatchObject({ start: new Date(day).toISOString(), avg: 150, p95: 190, checks: 100 });
    expect(month.body.points.filter((p: { checks: number }) => p.checks > 0)).toHaveLength(1);
    const quarter = await admin.get(url('90d'));
    expect(quarter.body.points).toHaveLength(90);
    expect(quarter.body.points[0]).toMatchObject({ start: new Date(day - 89 * DAY).toISOString(), avg: 10, p95: 12 });
    expect(quarter.body.points.filter((p: { checks: number }) => p.checks > 0)).toHaveLength(2);
  });

  it('refuses an unknown range, anonymous callers, and other companies (404, as if absent)', async () => {
    expect((await admin.get(url('1y'))).status).toBe(400);
    expect((await anonymous.get(url())).status).toBe(401);
    const foreign = await otherAdmin.get(url('90d'));
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('Checkout');
    expect((await admin.get(`/api/v1/monitors/${newId()}/response-times`)).status).toBe(404);
  });
});
