// RED figures and uptime for one company, read through the domain service on real databases.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DB_KINDS, freshDb, tempDir } from '../../../../tests/support/test-db.ts';
import { actorFor, ctxFor, seedCompany, seedUser } from '../../../../tests/support/fixtures.ts';
import { parseConfig } from '../../config.ts';
import type { Services } from '../context.ts';
import { withProcessState } from '../../process-state.ts';
import type { Db } from '../../db/connect.ts';
import { newId } from '../ids.ts';
import { SpanWriter } from '../../telemetry/span-writer.ts';
import { getRedMetrics, windowStart } from './red.ts';
import { searchTraces } from './traces.ts';
import { insertRollups } from '../../../../tests/support/rollups.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 30, 0);
const HOUR = 3_600_000;

describe.each(DB_KINDS)('RED service on %s', (kind) => {
  let db: Db;
  let services: Services;
  beforeEach(async () => {
    db = await freshDb(kind);
    services = withProcessState({
      config: parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir() }),
      db,
      now: () => NOW,
      ready: true,
      version: 'test',
    });
  });
  afterEach(async () => db.close());

  it("reports uptime from the monitors' hourly rollups, null without checks", async () => {
    const c = await seedCompany(services);
    const other = await seedCompany(services);
    const admin = await seedUser(services, { userType: 2, companyId: c.id });
    const ctx = ctxFor(services, actorFor(admin));
    expect((await getRedMetrics(ctx, { range: '24h' })) as { uptime: number | null }).toMatchObject({
      uptime: null,
      totalRequests: 0,
      errorRate: 0,
      p95: 0,
      avgResponseTime: 0,
      rps: 0,
    });

    for (const company of [c, other]) {
      const monitorId = newId();
      await db.k
        .insertInto('monitors')
        .values({
          id: monitorId,
          company_id: company.id,
          name: 'site',
          type: 'http',
          config: '{}',
          interval_seconds: 60,
          timeout_seconds: 10,
          next_due_at: NOW,
          created_at: NOW,
          updated_at: NOW,
        })
        .execute();
      const rows = [
        { hour_start: NOW - 30 * 60_000 - 2 * HOUR, checks: 60, failures: 3 },
        { hour_start: NOW - 30 * 60_000 - 1 * HOUR, checks: 60, failures: 0 },
        { hour_start: NOW - 30 * 60_000 - 48 * HOUR, checks: 60, failures: 60 }, // outside 24 h
        { hour_start: NOW - 30 * 60_000 - 3 * HOUR, checks: 60, failures: 0, maintenance: 60 }, // planned: left out, as on the monitors
      ];
      for (const r of rows)
        await insertRollups(db, 'hourly', { monitor_id: monitorId, ...r, failures: company === c || r.maintenance ? r.failures : 60 });
    }
    const red = (await getRedMetrics(ctx, { range: '24h' })) as { uptime: number };
    expect(red.uptime).toBeCloseTo((117 / 120) * 100, 9);
  });

  it('keeps the window on minute boundaries and filters traces by range', async () => {
    expect(windowStart(NOW, '1h')).toEqual({ minuteMs: NOW - HOUR, hourMs: NOW - HOUR - 30 * 60_000 });
    const c = await seedCompany(services);
    const viewer = await seedUser(services, { userType: 3, companyId: c.id });
    const ctx = ctxFor(services, actorFor(viewer));
    const writer = new SpanWriter(db);
    const mk = (i: number, agoMs: number, error: boolean) => ({
      trace_id: (i + 1).toString(16).padStart(32, 'b'),
      span_id: (i + 1).toString(16).padStart(16, '0'),
      parent_span_id: null,
      name: 'GET /',
      service: 'web',
      kind: 2,
      start_us: (NOW - agoMs) * 1000,
      duration_ms: 5,
      status_code: error ? 2 : 0,
      http_status: null,
      is_error: error,
      is_request: true,
      error_message: error ? 'x' : null,
      attributes: '{}',
      events: '[]',
    });
    await writer.write(c.id, [mk(1, 10 * 60_000, true), mk(2, 3 * HOUR, true), mk(3, 2 * 86_400_000, true), mk(4, 5 * 60_000, false)]);
    await writer.close();
    expect((await getRedMetrics(ctx, { range: '1h' })) as { totalRequests: number }).toMatchObject({ totalRequests: 2, errorRate: 50 });
    expect((await getRedMetrics(ctx, { range: '24h' })) as { totalRequests: number }).toMatchObject({ totalRequests: 3 });
    expect((await getRedMetrics(ctx, { range: '7d' })) as { totalRequests: number }).toMatchObject({ totalRequests: 4, errorRate: 75 });
    expect((await searchTraces(ctx, { error: true, range: '24h' })).map((t) => t.id)).toEqual(['0000000000000002', '0000000000000003']);
    expect((await searchTraces(ctx, { range: '1h' })).map((t) => t.id)).toEqual(['0000000000000005', '0000000000000002']);
    await expect(getRedMetrics(ctxFor(services, null), {})).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('reads the 30-day card from the hourly tier, the partial first hour from minutes, exactly', async () => {
    const c = await seedCompany(services);
    const admin = await seedUser(services, { userType: 2, companyId: c.id });
    const ctx = ctxFor(services, actorFor(admin));
    const writer = new SpanWriter(db);
    const DAY = 24 * HOUR;
    const mk = (i: number, agoMs: number, ms: number) => ({
      trace_id: (i + 1).toString(16).padStart(32, 'c'),
      span_id: (i + 1).toString(16).padStart(16, '0'),
      parent_span_id: null,
      name: 'GET /',
      service: 'web',
      kind: 2,
      start_us: (NOW - agoMs) * 1000,
      duration_ms: ms,
      status_code: 0,
      http_status: 200,
      is_error: false,
      is_request: true,
      error_message: null,
      attributes: '{}',
      events: '[]',
    });
    // The window starts at 12:30 thirty days ago: 12:40 is in it, 12:20 (same hour row) is not.
    const spans = [mk(1, 30 * DAY - 10 * 60_000, 100), mk(2, 30 * DAY + 10 * 60_000, 9_999), mk(3, 20 * DAY, 300), mk(4, 5 * 60_000, 200)];
    for (let i = 0; i < 96; i++) spans.push(mk(10 + i, 10 * DAY + i * 60_000, 20 + i));
    await writer.write(c.id, spans);
    await writer.close();
    // The minutes inside whole hours are not read: removing them changes nothing.
    await db.k
      .deleteFrom('red_rollups')
      .where('minute_ms', '>=', NOW - 30 * DAY + 30 * 60_000)
      .where('minute_ms', '<', NOW - HOUR)
      .execute();
    const red = (await getRedMetrics(ctx, { range: '30d' })) as { totalRequests: number; p95: number; avgResponseTime: number };
    const kept = [100, 300, 200, ...Array.from({ length: 96 }, (_, i) => 20 + i)].sort((a, b) => a - b);
    expect(red.totalRequests).toBe(99);
    expect(red.avgResponseTime).toBeCloseTo(kept.reduce((a, b) => a + b, 0) / 99, 2);
    const exact = kept[Math.ceil(0.95 * 99) - 1];
    expect(Math.abs(red.p95 - exact) / exact).toBeLessThanOrEqual(0.01);
  });
});
