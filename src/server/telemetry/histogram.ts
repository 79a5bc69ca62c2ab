// Fixed-bucket latency histogram of the RED rollups. Pure: bucket bounds, bucketing, and the p95
// read back from summed bucket counts (linear inside the bucket, so within one bucket of exact).

/** Inclusive upper bounds in ms; the last bucket is open (everything slower than 30 s). */
export const BUCKET_BOUNDS_MS = [
  1,
  2,
  5,
  10,
  25,
  50,
  75,
  100,
  150,
  200,
  300,
  500,
  750,
  1000,
  1500,
  2500,
  5000,
  10000,
  30000,
  Infinity,
] as const;
export const BUCKET_COUNT = BUCKET_BOUNDS_MS.length;
/** Column names h0..h19 of red_rollups, one per bucket. */
export const BUCKET_COLUMNS = BUCKET_BOUNDS_MS.map((_, i) => `h${i}`) as readonly string[];

export function bucketOf(durationMs: number): number {
  for (let i = 0; i < BUCKET_COUNT - 1; i++) if (durationMs <= BUCKET_BOUNDS_MS[i]) return i;
  return BUCKET_COUNT - 1;
}

/** The bucket's range [lower, upper] in ms (upper is Infinity for the last one). */
export function bucketRange(i: number): { lower: number; upper: number } {
  return { lower: i === 0 ? 0 : BUCKET_BOUNDS_MS[i - 1], upper: BUCKET_BOUNDS_MS[i] };
}

/** Quantile q (0..1) by nearest rank over bucket counts; 0 when there is no sample. */
export function quantileFromBuckets(counts: readonly number[], q: number): number {
  const total = counts.reduce((a, b) => a + b, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total));
  let before = 0;
  for (let i = 0; i < counts.length; i++) {
    const n = counts[i];
    if (n > 0 && before + n >= rank) {
      const { lower, upper } = bucketRange(i);
      if (!Number.isFinite(upper)) return lower;
      return lower + ((upper - lower) * (rank - before)) / n;
    }
    before += n;
  }
  return bucketRange(counts.length - 1).lower;
}
