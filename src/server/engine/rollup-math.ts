// Rollup arithmetic: pure. A rollup keeps counts, sum/min/max and a latency sketch of bounded
// relative error (src/lib/latency-sketch.ts), so merging results is exact and p50/p95/p99 are
// derived without raw rows, within 1 % of the exact value.
import type { CheckStatus } from '../db/schema/monitoring.ts';
import { uptimePercent as sharedUptimePercent } from '../../lib/timeline.ts';
import { LatencySketch } from '../../lib/latency-sketch.ts';

/** The timed phases a rollup sums (checkers/types.ts Timings; ttfb counts from the start). */
export const PHASES = ['dns', 'connect', 'tls', 'ttfb'] as const;
export type Phase = (typeof PHASES)[number];
/** Per phase: [sum in ms, checks that had it] */
export type PhaseSums = Record<Phase, [number, number]>;

export const emptyPhases = (): PhaseSums => ({ dns: [0, 0], connect: [0, 0], tls: [0, 0], ttfb: [0, 0] });

export interface Rollup {
  checks: number;
  failures: number;
  degraded: number;
  maintenance: number;
  sumResponseMs: number;
  minResponseMs: number | null;
  maxResponseMs: number | null;
  /** The timed responses' latencies (failures carry no time); its total counts them */
  sketch: LatencySketch;
  lastStatus: CheckStatus | null;
  lastHttpCode: number | null;
  lastCheckedAt: number | null;
  phases: PhaseSums;
}

export interface ResultForRollup {
  status: Exclude<CheckStatus, 'unknown'>;
  responseTimeMs: number | null;
  httpCode: number | null;
  checkedAt: number;
  inMaintenance: boolean;
  timings?: Partial<Record<Phase, number>> | null;
}

export const emptyRollup = (): Rollup => ({
  checks: 0,
  failures: 0,
  degraded: 0,
  maintenance: 0,
  sumResponseMs: 0,
  minResponseMs: null,
  maxResponseMs: null,
  sketch: new LatencySketch(),
  lastStatus: null,
  lastHttpCode: null,
  lastCheckedAt: null,
  phases: emptyPhases(),
});

/**
 * Quantile q of the timed responses, kept inside [min, max] (the exact quantile is too, so the
 * clamp only removes error); null without timed responses.
 */
export function responseQuantile(sketch: LatencySketch, q: number, min: number | null, max: number | null): number | null {
  if (sketch.total === 0) return null;
  let v = sketch.quantile(q);
  if (max !== null) v = Math.min(v, max);
  if (min !== null) v = Math.max(v, min);
  return Math.round(v * 100) / 100;
}

/**
 * Adds one result. The rollup is updated in place and returned: a batch folds many results into
 * each rollup, and copying its sketch for every one would cost more than the write.
 */
export function addResult(out: Rollup, x: ResultForRollup): Rollup {
  out.phases = { ...emptyPhases(), ...out.phases };
  out.checks += 1;
  if (x.inMaintenance) out.maintenance += 1;
  else if (x.status === 'down') out.failures += 1;
  else if (x.status === 'degraded') out.degraded += 1;
  if (x.responseTimeMs !== null && x.status !== 'down') {
    out.sumResponseMs += x.responseTimeMs;
    out.minResponseMs = out.minResponseMs === null ? x.responseTimeMs : Math.min(out.minResponseMs, x.responseTimeMs);
    out.maxResponseMs = out.maxResponseMs === null ? x.responseTimeMs : Math.max(out.maxResponseMs, x.responseTimeMs);
    out.sketch.add(x.responseTimeMs);
    // Phases of the same timed responses the average counts, each over the checks that had it.
    for (const p of PHASES) {
      const v = x.timings?.[p];
      if (typeof v === 'number' && Number.isFinite(v)) out.phases[p] = [out.phases[p][0] + v, out.phases[p][1] + 1];
    }
  }
  if (out.lastCheckedAt === null || x.checkedAt >= out.lastCheckedAt) {
    out.lastStatus = x.status;
    out.lastHttpCode = x.httpCode;
    out.lastCheckedAt = x.checkedAt;
  }
  return out;
}

/** Uptime percentage from rollup counts (the shared rule of src/lib/timeline.ts), to 3 decimals. */
export function uptimePercent(rows: Array<{ checks: number; failures: number; maintenance: number }>): number | null {
  const p = sharedUptimePercent(rows);
  return p === null ? null : Math.round(p * 1000) / 1000;
}
