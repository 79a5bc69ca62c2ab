import { describe, expect, it } from 'vitest';
import { metricWindow } from './metric-buckets.ts';

const T = Date.UTC(2026, 10, 24, 11, 37, 20);

describe('metric windows', () => {
  it('end with the bucket holding now and hold the range in whole buckets', () => {
    expect(metricWindow('1h', T)).toEqual({
      bucketMs: 60_000,
      toMs: Date.UTC(2026, 10, 24, 11, 38),
      fromMs: Date.UTC(2026, 10, 24, 10, 38),
      previousFromMs: Date.UTC(2026, 10, 24, 9, 38),
    });
    const day = metricWindow('24h', T);
    expect([day.bucketMs, day.toMs]).toEqual([900_000, Date.UTC(2026, 10, 24, 11, 45)]);
    expect(metricWindow('7d', T).toMs).toBe(Date.UTC(2026, 10, 24, 12));
    const month = metricWindow('30d', T);
    expect([month.bucketMs, month.toMs, month.fromMs]).toEqual([21_600_000, Date.UTC(2026, 10, 24, 12), Date.UTC(2026, 9, 25, 12)]);
    expect(month.fromMs - month.previousFromMs).toBe(30 * 86_400_000);
  });
});
