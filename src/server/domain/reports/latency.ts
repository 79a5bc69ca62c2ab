// Response-time percentiles of a report from the rollups it reads. The one place that knows how
// rollups keep latency (the bounded-relative-error sketch of src/lib/latency-sketch.ts, 1 %),
// so a change of that representation changes only this file and the columns reportsRepo selects.
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { mergeRollupLatency } from '../../../lib/rollup-detail.ts';

/** A rollup row's binary figures (src/lib/rollup-detail.ts), which hold its sketch and maximum. */
export interface LatencyRollup {
  data: Uint8Array;
}

/** Merged latency of some rollups: more rollups or other merged ones add in without re-reading rows. */
export interface LatencyMerge {
  sketch: LatencySketch;
  max: number | null;
}

export interface Latency {
  p50Ms: number | null;
  p95Ms: number | null;
}

export const emptyLatency = (): LatencyMerge => ({ sketch: new LatencySketch(), max: null });

/** Adds one rollup's latency (or another merge) into `into`. */
export function addLatency(into: LatencyMerge, r: LatencyRollup | LatencyMerge): void {
  let max: number | null;
  if ('sketch' in r) {
    into.sketch.merge(r.sketch);
    max = r.max;
  } else max = mergeRollupLatency(r.data, into.sketch);
  if (max !== null) into.max = into.max === null ? max : Math.max(into.max, max);
}

/** p50 and p95 within 1 % of the exact value over the checks counted, capped by the maximum. */
export function latencyOf(m: LatencyMerge): Latency {
  if (m.sketch.total === 0) return { p50Ms: null, p95Ms: null };
  const at = (q: number) => (m.max === null ? m.sketch.quantile(q) : Math.min(m.sketch.quantile(q), m.max));
  return { p50Ms: at(0.5), p95Ms: at(0.95) };
}
