// Rollup arithmetic: pure. A rollup keeps counts, sum/min/max and a fixed-bucket latency
// histogram, so merging results is exact and p95 is derived without raw rows.
import type { CheckStatus } from '../db/schema/monitoring.ts';
import { uptimePercent as sharedUptimePercent } from '../../lib/timeline.ts';

/** Upper bounds (ms) of the histogram buckets; the last bucket is open-ended. */
export const BUCKETS_MS = [5, 10, 20, 30, 50, 75, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000, 30000];

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
  hist: number[];
  p95ResponseMs: number | null;
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
  hist: new Array(BUCKETS_MS.length + 1).fill(0),
  p95ResponseMs: null,
  lastStatus: null,
  lastHttpCode: null,
  lastCheckedAt: null,
  phases: emptyPhases(),
});

export function bucketOf(ms: number): number {
  for (let i = 0; i < BUCKETS_MS.length; i++) if (ms <= BUCKETS_MS[i]) return i;
  return BUCKETS_MS.length;
}

/** p95 as the upper bound of the bucket holding the 95th percentile, capped by the maximum. */
export function p95(hist: number[], max: number | null): number | null {
  const n = hist.reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const rank = Math.ceil(n * 0.95);
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i];
    if (seen >= rank) {
      const bound = i < BUCKETS_MS.length ? BUCKETS_MS[i] : (max ?? BUCKETS_MS[BUCKETS_MS.length - 1]);
      return max === null ? bound : Math.min(bound, max);
    }
  }
  return max;
}

export function addResult(r: Rollup, x: ResultForRollup): Rollup {
  const out: Rollup = { ...r, hist: [...r.hist], phases: { ...emptyPhases(), ...r.phases } };
  while (out.hist.length < BUCKETS_MS.length + 1) out.hist.push(0);
  out.checks += 1;
  if (x.inMaintenance) out.maintenance += 1;
  else if (x.status === 'down') out.failures += 1;
  else if (x.status === 'degraded') out.degraded += 1;
  if (x.responseTimeMs !== null && x.status !== 'down') {
    out.sumResponseMs += x.responseTimeMs;
    out.minResponseMs = out.minResponseMs === null ? x.responseTimeMs : Math.min(out.minResponseMs, x.responseTimeMs);
    out.maxResponseMs = out.maxResponseMs === null ? x.responseTimeMs : Math.max(out.maxResponseMs, x.responseTimeMs);
    out.hist[bucketOf(x.responseTimeMs)] += 1;
    out.p95ResponseMs = p95(out.hist, out.maxResponseMs);
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
