import { describe, expect, it } from 'vitest';
import { hourStart } from '../../lib/timeline.ts';
import { addResult, bucketOf, emptyRollup, p95, uptimePercent, BUCKETS_MS } from './rollup-math.ts';

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

  it.each([
    [0, 0],
    [5, 0],
    [6, 1],
    [100, 6],
    [30000, BUCKETS_MS.length - 1],
    [30001, BUCKETS_MS.length],
  ])('bucket of %d ms is %d', (ms, b) => expect(bucketOf(ms)).toBe(b));

  it('derives p95 from the histogram, capped by the maximum', () => {
    const hist = new Array(BUCKETS_MS.length + 1).fill(0);
    hist[bucketOf(40)] = 95;
    hist[bucketOf(900)] = 5;
    expect(p95(hist, 900)).toBe(50);
    hist[bucketOf(900)] = 6;
    expect(p95(hist, 900)).toBe(900);
    expect(p95(new Array(BUCKETS_MS.length + 1).fill(0), null)).toBeNull();
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
