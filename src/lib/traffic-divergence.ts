// Probes and real traffic disagreeing (issue 33, item 2): the monitor has been up through the
// whole window while the company's own spans naming the same host fail, or it has been down
// while those spans succeed. Pure: the job gathers the figures, this decides. A few calls prove
// nothing, so each sensitivity asks for a least number of them in the window.
import type { Sensitivity } from './latency-anomaly.ts';

/** The window the spans are counted over (ms) */
export const DIVERGENCE_WINDOW_MS = 15 * 60_000;

export interface DivergenceOptions {
  /** Calls needed in the window before traffic says anything */
  minCalls: number;
  /** Share of failing calls that is "failing" while the probes see it up */
  failingRatio: number;
  /** Share of failing calls at most that is "healthy" while the probes see it down */
  healthyRatio: number;
}

export const DIVERGENCE_OPTIONS: Record<Sensitivity, DivergenceOptions> = {
  low: { minCalls: 50, failingRatio: 0.5, healthyRatio: 0.01 },
  normal: { minCalls: 20, failingRatio: 0.25, healthyRatio: 0.02 },
  high: { minCalls: 10, failingRatio: 0.1, healthyRatio: 0.05 },
};

export type Divergence = 'probes_up_traffic_failing' | 'probes_down_traffic_healthy';

export interface ProbeView {
  status: 'operational' | 'degraded' | 'down' | 'unknown';
  /** Since when it has had that status (ms); null: unknown */
  since: number | null;
}

export interface TrafficFigures {
  calls: number;
  errors: number;
}

/** The disagreement over the window [windowStart, now), or null (they agree, or too little is known). */
export function divergenceOf(probe: ProbeView, traffic: TrafficFigures, windowStart: number, o: DivergenceOptions): Divergence | null {
  if (traffic.calls < o.minCalls || probe.since === null || probe.since > windowStart) return null;
  const ratio = traffic.errors / traffic.calls;
  if (probe.status === 'operational' && ratio >= o.failingRatio) return 'probes_up_traffic_failing';
  if (probe.status === 'down' && ratio <= o.healthyRatio) return 'probes_down_traffic_healthy';
  return null;
}
