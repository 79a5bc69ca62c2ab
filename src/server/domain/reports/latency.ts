// Response-time percentiles of a report from the rollups it reads. The one place that knows how
// rollups keep latency (the bounded-relative-error sketch of src/lib/latency-sketch.ts, 1 %),
// so a change of that representation changes only this file and the columns reportsRepo selects.
import { LatencySketch } from '../../../lib/latency-sketch.ts';

export interface LatencyRollup {
  response_sketch: string | null;
  max_response_ms: number | null;
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
  if ('sketch' in r) into.sketch.merge(r.sketch);
  else if (r.response_sketch) into.sketch.mergeText(r.response_sketch);
  const max = 'sketch' in r ? r.max : r.max_response_ms;
  if (max !== null) into.max = into.max === null ? max : Math.max(into.max, max);
}

/** p50 and p95 within 1 % of the exact value over the checks counted, capped by the maximum. */
export function latencyOf(m: LatencyMerge): Latency {
  if (m.sketch.total === 0) return { p50Ms: null, p95Ms: null };
  const at = (q: number) => (m.max === null ? m.sketch.quantile(q) : Math.min(m.sketch.quantile(q), m.max));
  return { p50Ms: at(0.5), p95Ms: at(0.95) };
}
