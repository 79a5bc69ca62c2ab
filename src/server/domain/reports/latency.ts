// Response-time percentiles of a report from the rollups it reads. The one place that knows how
// rollups keep latency (today: a fixed-bucket histogram, engine/rollup-math.ts), so a change of
// that representation changes only this file and the columns reportsRepo selects for it.
import { BUCKETS_MS } from '../../engine/rollup-math.ts';

export interface LatencyRollup {
  response_hist: string | null;
  max_response_ms: number | null;
}

export interface Latency {
  p50Ms: number | null;
  p95Ms: number | null;
}

/** Merges the rollups' histograms; each percentile is its bucket's upper bound, capped by the maximum. */
export function rollupLatency(rows: Iterable<LatencyRollup>): Latency {
  const hist = new Array<number>(BUCKETS_MS.length + 1).fill(0);
  let max: number | null = null;
  let n = 0;
  for (const r of rows) {
    if (!r.response_hist) continue;
    const h = JSON.parse(r.response_hist) as number[];
    for (let i = 0; i < h.length && i < hist.length; i++) {
      hist[i] += h[i];
      n += h[i];
    }
    if (r.max_response_ms !== null) max = max === null ? r.max_response_ms : Math.max(max, r.max_response_ms);
  }
  const at = (q: number): number | null => {
    if (n === 0) return null;
    const rank = Math.ceil(n * q);
    let seen = 0;
    for (let i = 0; i < hist.length; i++) {
      seen += hist[i];
      if (seen >= rank) {
        const bound = i < BUCKETS_MS.length ? BUCKETS_MS[i] : (max ?? BUCKETS_MS[BUCKETS_MS.length - 1]);
        return max === null ? bound : Math.min(bound, max);
      }
    }
    return max;
  };
  return { p50Ms: at(0.5), p95Ms: at(0.95) };
}
