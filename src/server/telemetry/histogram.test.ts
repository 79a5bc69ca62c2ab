import { describe, expect, it } from 'vitest';
import { BUCKET_BOUNDS_MS, BUCKET_COUNT, bucketOf, bucketRange, quantileFromBuckets } from './histogram.ts';

const counts = (entries: Record<number, number>) => Array.from({ length: BUCKET_COUNT }, (_, i) => entries[i] ?? 0);

describe('latency histogram', () => {
  it.each([
    [0, 0],
    [1, 0],
    [1.0001, 1],
    [2, 1],
    [4.9, 2],
    [100, 7],
    [100.5, 8],
    [1000, 13],
    [30000, 18],
    [30000.1, 19],
    [1e9, 19],
  ])('puts %d ms in bucket %d (upper bounds inclusive)', (ms, bucket) => {
    expect(bucketOf(ms)).toBe(bucket);
  });

  it('has increasing bounds ending open', () => {
    for (let i = 1; i < BUCKET_COUNT; i++) expect(BUCKET_BOUNDS_MS[i]).toBeGreaterThan(BUCKET_BOUNDS_MS[i - 1]);
    expect(bucketRange(BUCKET_COUNT - 1)).toEqual({ lower: 30000, upper: Infinity });
    expect(bucketRange(0)).toEqual({ lower: 0, upper: 1 });
  });

  it.each([
    ['no samples', counts({}), 0],
    ['all in one bucket: 95th of 100 is 95% into 50..75', counts({ 6: 100 }), 50 + 25 * 0.95],
    ['nearest rank crosses into the slow bucket', counts({ 3: 94, 13: 6 }), 750 + 250 * (1 / 6)],
    ['exactly at the edge stays in the fast bucket', counts({ 3: 95, 13: 5 }), 10],
    ['open bucket answers its lower bound', counts({ 19: 3 }), 30000],
    ['single sample: the bucket top', counts({ 9: 1 }), 200],
  ])('p95 with %s', (_name, c, expected) => {
    expect(quantileFromBuckets(c, 0.95)).toBeCloseTo(expected, 9);
  });

  it('lands in the same bucket as the exact nearest-rank p95', () => {
    let x = 42;
    const rnd = () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let run = 0; run < 50; run++) {
      const samples = Array.from({ length: 1 + Math.floor(rnd() * 500) }, () => Math.round(rnd() * rnd() * 5000 * 1000) / 1000);
      const c = new Array(BUCKET_COUNT).fill(0);
      for (const s of samples) c[bucketOf(s)]++;
      const sorted = [...samples].sort((a, b) => a - b);
      const exact = sorted[Math.ceil(0.95 * sorted.length) - 1];
      expect(bucketOf(quantileFromBuckets(c, 0.95))).toBe(bucketOf(exact));
    }
  });
});
