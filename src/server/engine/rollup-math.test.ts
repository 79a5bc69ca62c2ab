import { describe, expect, it } from 'vitest';
import { hourStart } from '../../lib/timeline.ts';
import { LatencySketch } from '../../lib/latency-sketch.ts';
import { addResult, emptyRollup, responseQuantile, uptimePercent } from './rollup-math.ts';

describe('rollup maths', () => {
  it('counts checks, failures, degraded and maintenance apart', () => {
    let r = emptyRollup();
    const add = (status: 'operational' | 'degraded' | 'down', ms: number | null, t: number, maint = false) => {
      r = addResult(r, { status, responseTimeMs: ms, httpCode: status === 'down' ? 500 : 200, checkedAt: t, inMaintenance: maint });
    };
    add('operational', 100, 1);
    add('degraded', 900, 2);
    add('down', null, 3);
    add('down', null, 4, true);
    expect(r).toMatchObject({
      checks: 4,
      failures: 1,
      degraded: 1,
      maintenance: 1,
      sumResponseMs: 1000,
      minResponseMs: 100,
      maxResponseMs: 900,
      lastStatus: 'down',
      lastCheckedAt: 4,
    });
  });

  it('keeps the latest status even when results arrive out of order', () => {
    let r = addResult(emptyRollup(), { status: 'down', responseTimeMs: null, httpCode: 503, checkedAt: 20, inMaintenance: false });
    r = addResult(r, { status: 'operational', responseTimeMs: 5, httpCode: 200, checkedAt: 10, inMaintenance: false });
    expect(r.lastStatus).toBe('down');
    expect(r.lastHttpCode).toBe(503);
  });

  it('sketches the timed responses only, percentiles within 1 % of exact', () => {
    let r = emptyRollup();
    for (let i = 1; i <= 200; i++) {
      r = addResult(r, { status: 'operational', responseTimeMs: 300 + i * 0.5, httpCode: 200, checkedAt: i, inMaintenance: false });
    }
    r = addResult(r, { status: 'down', responseTimeMs: 9000, httpCode: 500, checkedAt: 201, inMaintenance: false });
    expect(r.sketch.total).toBe(200); // the failure's time is not a response time
    const exact = (q: number) => 300 + Math.ceil(q * 200) * 0.5;
    for (const q of [0.5, 0.95, 0.99]) {
      const got = responseQuantile(r.sketch, q, r.minResponseMs, r.maxResponseMs)!;
      expect(Math.abs(got - exact(q)) / exact(q)).toBeLessThanOrEqual(0.01);
    }
  });

  it('keeps a percentile between the fastest and slowest response, null without any', () => {
    const s = new LatencySketch();
    s.add(40);
    expect(responseQuantile(s, 0.95, 40, 40)).toBe(40);
    expect(responseQuantile(new LatencySketch(), 0.95, null, null)).toBeNull();
  });

  it.each([
    [[{ checks: 100, failures: 0, maintenance: 0 }], 100],
    [[{ checks: 100, failures: 1, maintenance: 0 }], 99],
    [
      [
        { checks: 60, failures: 6, maintenance: 0 },
        { checks: 60, failures: 0, maintenance: 20 },
      ],
      94,
    ],
    [[], null],
    [[{ checks: 5, failures: 0, maintenance: 5 }], null],
  ])('uptime of %j is %s', (rows, pct) => expect(uptimePercent(rows)).toBe(pct));

  it('aligns hours on UTC', () => {
    expect(hourStart(Date.UTC(2026, 0, 1, 10, 59, 59, 999))).toBe(Date.UTC(2026, 0, 1, 10));
  });
});
