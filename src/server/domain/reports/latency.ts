// Response-time percentiles of a report from the rollups it reads. The one place that knows how
// rollups keep latency (today: a fixed-bucket histogram, engine/rollup-math.ts), so a change of
// that representation changes only this file and the columns reportsRepo selects for it.
import { BUCKETS_MS } from '../../engine/rollup-math.ts';

export interface LatencyRollup {
  response_hist: string | null;
  max_response_ms: number | null;
}

/** Merged latency of some rollups: more rollups or other merged ones add in without re-reading rows. */
export interface LatencyMerge {
  hist: number[];
  max: number | null;
  n: number;
}

export interface Latency {
  p50Ms: number | null;
  p95Ms: number | null;
}

export const emptyLatency = (): LatencyMerge => ({ hist: new Array<number>(BUCKETS_MS.length + 1).fill(0), max: null, n: 0 });

/** Adds one rollup's latency (or another merge) into `into`. */
export function addLatency(into: LatencyMerge, r: LatencyRollup | LatencyMerge): void {
  const h = 'hist' in r ? r.hist : r.response_hist ? (JSON.parse(r.response_hist) as number[]) : null;
  const max = 'hist' in r ? r.max : r.max_response_ms;
  if (!h) return;
  for (let i = 0; i < h.length && i < into.hist.length; i++) {
    into.hist[i] += h[i];
    into.n += h[i];
  }
  if (max !== null) into.max = into.max === null ? max : Math.max(into.max, max);
}

/** p50 and p95: each the upper bound of the bucket holding it, capped by the maximum. */
export function latencyOf(m: LatencyMerge): Latency {
  const at = (q: number): number | null => {
    if (m.n === 0) return null;
    const rank = Math.ceil(m.n * q);
    let seen = 0;
    for (let i = 0; i < m.hist.length; i++) {
      seen += m.hist[i];
      if (seen >= rank) {
        const bound = i < BUCKETS_MS.length ? BUCKETS_MS[i] : (m.max ?? BUCKETS_MS[BUCKETS_MS.length - 1]);
        return m.max === null ? bound : Math.min(bound, m.max);
      }
    }
    return m.max;
  };
  return { p50Ms: at(0.5), p95Ms: at(0.95) };
}
