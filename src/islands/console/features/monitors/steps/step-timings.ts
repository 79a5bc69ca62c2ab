// The per-step timings of an api_flow or browser monitor's checks (CheckResult.timings step_1 …
// step_N, next to total; engine/kinds/synthetic-run.ts stepTimingKey) as stacked layers, oldest
// check first, for the monitor page's chart. Pure.

export interface TimedCheck {
  checked_at: string;
  timings?: Record<string, number> | null;
}

export interface StepLayers {
  /** seconds since the epoch, oldest first */
  x: number[];
  /** per step (bottom first): each check's top edge (its time plus the steps below it), null when it did not run */
  tops: Array<Array<number | null>>;
  /** per step: the mean over the checks that ran it, or null */
  means: Array<number | null>;
  /** how many steps the chart shows */
  steps: number;
}

const stepKey = /^step_(\d+)$/;

export function stepLayers(checks: readonly TimedCheck[], stepCount: number): StepLayers {
  const ordered = [...checks].filter((c) => c.timings).sort((a, b) => Date.parse(a.checked_at) - Date.parse(b.checked_at));
  // A check may hold more steps than the monitor now has (steps removed since): show what ran.
  let steps = stepCount;
  for (const c of ordered)
    for (const k of Object.keys(c.timings ?? {})) {
      const m = stepKey.exec(k);
      if (m) steps = Math.max(steps, Number(m[1]));
    }
  const tops: Array<Array<number | null>> = Array.from({ length: steps }, () => []);
  const sums = Array.from({ length: steps }, () => ({ total: 0, n: 0 }));
  for (const c of ordered) {
    let sum = 0;
    for (let i = 0; i < steps; i++) {
      const v = c.timings?.[`step_${i + 1}`];
      if (typeof v === 'number') {
        sum += v;
        sums[i].total += v;
        sums[i].n += 1;
        tops[i].push(sum);
      } else tops[i].push(null);
    }
  }
  return {
    x: ordered.map((c) => Date.parse(c.checked_at) / 1000),
    tops,
    means: sums.map((s) => (s.n ? s.total / s.n : null)),
    steps,
  };
}
