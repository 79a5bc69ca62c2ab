// Time windows of the metrics screen: each range is drawn in buckets of a fixed size (1 h in
// minutes, 24 h in quarter hours, 7 d in hours, 30 d in six hours), ending with the bucket that
// holds now, and compared with the window of the same length just before it.
import { DAY_MS, HOUR_MS } from './timeline.ts';

export const METRIC_RANGES = ['1h', '24h', '7d', '30d'] as const;
export type MetricRange = (typeof METRIC_RANGES)[number];

export const RANGE_LENGTH_MS: Record<MetricRange, number> = { '1h': HOUR_MS, '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };
export const BUCKET_MS: Record<MetricRange, number> = { '1h': 60_000, '24h': 15 * 60_000, '7d': HOUR_MS, '30d': 6 * HOUR_MS };

export interface MetricWindow {
  bucketMs: number;
  /** First instant of the current window (a bucket start, UTC) */
  fromMs: number;
  /** End of the current window (exclusive): the end of the bucket holding now */
  toMs: number;
  /** First instant of the previous window (it ends at fromMs) */
  previousFromMs: number;
}

export function metricWindow(range: MetricRange, nowMs: number): MetricWindow {
  const bucketMs = BUCKET_MS[range];
  const toMs = nowMs - (nowMs % bucketMs) + bucketMs;
  const fromMs = toMs - RANGE_LENGTH_MS[range];
  return { bucketMs, fromMs, toMs, previousFromMs: fromMs - RANGE_LENGTH_MS[range] };
}
