// GET /api/v1/monitors/{id}/response-times (issue 13, the monitor page's chart): one point per
// hour (24h, 7d) or day (30d, 90d) from scripted rollups, with the exact average and p50/p95/p99
// within 1 % from the stored latency sketch, the phase breakdown from raw checks of the range, and
// tenant isolation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LatencySketch } from '../../../src/lib/latency-sketch.ts';
import { newId } from '../../../src/server/domain/ids.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { insertRollups } from '../../support/rollups.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `n` responses of `ms` each, per entry. */
const times = (...entries: Array<[ms: number, n: number]>) => entries.flatMap(([ms, n]) => Array<number>(n).fill(ms));

/** Within 1 % (the sketch's bound) of the exact value, or both null. */
function near(got: number | null, want: number | null): void {
  if (want === null) expect(got).toBeNull();
  else expect(Math.abs(got! - want) / want).toBeLessThanOrEqual(0.01);
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
    const roll = (start: number, r: { failures: number; values: number[] }) => {
      const sketch = new LatencySketch();
      for (const v of r.values) sketch.add(v);
      return {
        monitor_id: monitorId,
        company_id: acme.id,
        checks: r.values.length + r.failures,
        failures: r.failures,
        degraded: 0,
        maintenance: 0,
        sum_response_ms: r.values.reduce((a, b) => a + b, 0),
        min_response_ms: r.values.length ? Math.min(...r.values) : null,
        max_response_ms: r.values.length ? Math.max(...r.values) : null,
        response_sketch: sketch.serialize(),
        // deliberately wrong: the endpoint derives percentiles from the sketch, not this column
        p95_response_ms: 1,
        last_status: null,
        last_http_code: 200,
        last_checked_at: start,
      };
    };
    await insertRollups(t.services.db, 'hourly', [
      // 10 responses of 80 ms, 8 of 600 ms, 2 of 700, 2 failures: avg 350, p50 80, p95 700
      {
        ...roll(hour, { failures: 2, values: times([80, 10], [600, 8], [700, 2]) }),
        hour_start: hour,
        // 20 timed checks; TLS only on 10 of them (per phase: [sum ms, checks with it])
        phase_sums: JSON.stringify({ dns: [60, 20], connect: [100, 20], tls: [120, 10], ttfb: [600, 20] }),
      },
      { ...roll(hour - 5 * HOUR, { failures: 0, values: [42] }), hour_start: hour - 5 * HOUR },
      // all failed: counted, but no time
      { ...roll(hour - 6 * HOUR, { failures: 3, values: [] }), hour_start: hour - 6 * HOUR },
      // in 7 days, not in 24 hours
      { ...roll(hour - 100 * HOUR, { failures: 0, values: [70, 100, 100, 130] }), hour_start: hour - 100 * HOUR },
    ]);
    await insertRollups(t.services.db, 'daily', [
      // 100 responses averaging 150: 110 to 190 ms, the median 150
      { ...roll(day, { failures: 0, values: times([110, 25], [140, 25], [160, 25], [190, 25]) }), day_start: day },
      { ...roll(day - 89 * DAY, { failures: 0, values: [8, 12] }), day_start: day - 89 * DAY },
      // one day too old for 90 days
      { ...roll(day - 90 * DAY, { failures: 0, values: times([100, 9]) }), day_start: day - 90 * DAY },
    ]);
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

  it('answers 24 hourly points, oldest first, with the exact average and percentiles within 1 %', async () => {
    const r = await viewer.get(url());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ monitor_id: monitorId, range: '24h', grain: 'hour' });
    expect(r.body.points).toHaveLength(24);
    expect(r.body.points[0].start).toBe(new Date(hour - 23 * HOUR).toISOString());
    const last = r.body.points[23];
    near(last.p50, 80);
    near(last.p95, 700);
    near(last.p99, 700);
    expect(last).toEqual({
      start: new Date(hour).toISOString(),
      avg: 350,
      p50: last.p50,
      p95: last.p95,
      p99: last.p99,
      checks: 22,
      failures: 2,
      degraded: 0,
      maintenance: 0,
      last_http_code: 200,
      // dns 3, connect 5, tls 12 (over its 10 checks), wait = ttfb 30 - 3 - 5 - 12
      phases: { dns: 3, connect: 5, tls: 12, wait: 10 },
    });
    // a period without phase sums (written before they were kept) has no breakdown
    // one response: every percentile is it (kept between the period's fastest and slowest)
    expect(r.body.points[18]).toMatchObject({
      avg: 42,
      p50: 42,
      p95: 42,
      p99: 42,
      checks: 1,
      phases: { dns: null, connect: null, tls: null, wait: null },
    });
    expect(r.body.points[17]).toMatchObject({ avg: null, p50: null, p95: null, p99: null, checks: 3, failures: 3 });
    expect(r.body.points[0]).toMatchObject({ avg: null, p95: null, checks: 0 });
    // the whole day: 21 timed responses, 10 of 80 ms, 8 of 600, 2 of 700 and one of 42
    expect(r.body.summary).toMatchObject({ timed: 21, avg: 335.33 });
    near(r.body.summary.p50, 80);
    near(r.body.summary.p95, 700);
    expect(r.body.points.filter((p: { checks: number }) => p.checks > 0)).toHaveLength(3);
    // the phases of the two timed checks of the last 24 hours
    expect(r.body.phases).toEqual({ samples: 2, dns: 3, connect: 5, tls: 6, ttfb: 10, total: 40 });
  });

  it('answers 168 hourly points for 7 days, 30 and 90 daily points for 30 and 90 days', async () => {
    const week = await admin.get(url('7d'));
    expect(week.body.grain).toBe('hour');
    expect(week.body.points).toHaveLength(168);
    const old = week.body.points.find((p: { start: string }) => p.start === new Date(hour - 100 * HOUR).toISOString());
    expect(old.avg).toBe(100);
    near(old.p50, 100);
    near(old.p95, 130);
    expect(week.body.summary.timed).toBe(25);
    expect(week.body.phases).toMatchObject({ samples: 3, dns: 35.33 });
    const month = await admin.get(url('30d'));
    expect(month.body.grain).toBe('day');
    expect(month.body.points).toHaveLength(30);
    expect(month.body.points[29]).toMatchObject({ start: new Date(day).toISOString(), avg: 150, checks: 100 });
    near(month.body.points[29].p50, 140);
    near(month.body.points[29].p95, 190);
    near(month.body.points[29].p99, 190);
    expect(month.body.points.filter((p: { checks: number }) => p.checks > 0)).toHaveLength(1);
    const quarter = await admin.get(url('90d'));
    expect(quarter.body.points).toHaveLength(90);
    expect(quarter.body.points[0]).toMatchObject({ start: new Date(day - 89 * DAY).toISOString(), avg: 10 });
    near(quarter.body.points[0].p50, 8);
    near(quarter.body.points[0].p95, 12);
    expect(quarter.body.summary.timed).toBe(102);
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
