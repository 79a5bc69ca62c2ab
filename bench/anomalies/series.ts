// Generated latency series for the anomaly detector (bench/anomalies/run.ts and its unit test):
// hourly medians with a daily curve (busier afternoons), a weekly one (quieter weekends),
// multiplicative noise with occasional lone outliers, and anomalies injected at known hours.
// Seeded, so a run repeats exactly.
import { HOUR_MS, type LatencyPoint } from '../../src/lib/latency-anomaly.ts';
import { seededRandom } from '../../src/lib/seeded-random.ts';

export type InjectedKind = 'spike' | 'level_shift' | 'drift';

export interface Injected {
  kind: InjectedKind;
  /** First and last hour (start ms) of the anomaly; a level shift or drift lasts to `end` */
  start: number;
  end: number;
  /** Peak factor over the normal value (2: twice as slow) */
  factor: number;
}

export interface SeriesSpec {
  seed: number;
  /** Monday 00:00 UTC of the first week */
  t0: number;
  weeks: number;
  base: number;
  /** Relative noise (0.08: about ±8 %) */
  noise: number;
  injected: Injected[];
}

const DAY = 24 * HOUR_MS;

function normalValue(spec: SeriesSpec, t: number, rnd: () => number): number {
  const hour = Math.floor((t % DAY) / HOUR_MS);
  const weekday = Math.floor((t - spec.t0) / DAY) % 7;
  const daily = 1 + 0.35 * Math.max(0, Math.sin(((hour - 6) / 24) * 2 * Math.PI));
  const weekly = weekday >= 5 ? 0.85 : 1;
  // Sum of uniforms: roughly normal noise; 1 hour in 100 a lone outlier up to +60 %.
  const n = (rnd() + rnd() + rnd() - 1.5) * 2 * spec.noise;
  const outlier = rnd() < 0.01 ? 1 + 0.6 * rnd() : 1;
  return spec.base * daily * weekly * (1 + n) * outlier;
}

function factorAt(inj: Injected, t: number): number {
  if (t < inj.start || t > inj.end) return 1;
  if (inj.kind === 'drift') return 1 + ((inj.factor - 1) * (t - inj.start)) / Math.max(HOUR_MS, inj.end - inj.start);
  return inj.factor;
}

export function generateSeries(spec: SeriesSpec): LatencyPoint[] {
  const rnd = seededRandom(spec.seed);
  const out: LatencyPoint[] = [];
  const end = spec.t0 + spec.weeks * 7 * DAY;
  for (let t = spec.t0; t < end; t += HOUR_MS) {
    let v = normalValue(spec, t, rnd);
    for (const inj of spec.injected) v *= factorAt(inj, t);
    out.push({ start: t, value: v });
  }
  return out;
}

/** Monday 2026-01-05 00:00 UTC */
export const MONDAY = Date.UTC(2026, 0, 5);
