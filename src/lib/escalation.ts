// Escalation time maths, pure: which steps of a policy are due for an incident that is still not
// acknowledged, given how many were already sent. Steps are taken in order; a step is due once
// `after_minutes` have passed since the incident started.

export interface EscalationStepTiming {
  position: number;
  afterMinutes: number;
}

/** The steps to send now: the ones after the `sent` first whose time has come, in order. */
export function dueEscalationSteps<S extends EscalationStepTiming>(startedAt: number, sent: number, steps: readonly S[], now: number): S[] {
  const ordered = [...steps].sort((a, b) => a.position - b.position);
  const due: S[] = [];
  for (const s of ordered.slice(sent)) {
    if (startedAt + s.afterMinutes * 60_000 > now) break;
    due.push(s);
  }
  return due;
}

/** The least wait before a repeat: a policy whose steps are all at minute 0 does not repeat at once. */
export const MIN_REPEAT_WAIT_MINUTES = 5;

export interface EscalationRoundStep<S> extends EscalationStepTiming {
  step: S;
  /** 0 for the first pass through the steps, 1.. for each repeat */
  round: number;
  /** The step's index in the policy */
  index: number;
  isLast: boolean;
}

/**
 * The policy's steps run `1 + repeat` times: round r sends step k at `r x P + after_minutes(k)`.
 * A round lasts P = L + W: the last step's after_minutes L, then a wait W as long as the wait
 * before the last step (L minus the step before it; L for a one-step policy), at least 5 minutes,
 * so a repeat's first step never lands on the last step of the round before. Positions
 * count on across rounds (r x steps + k), so the incident's sent-step count covers repeats too and
 * the first round keeps the positions it always had.
 */
export function escalationRounds<S extends EscalationStepTiming>(steps: readonly S[], repeat: number): EscalationRoundStep<S>[] {
  const ordered = [...steps].sort((a, b) => a.position - b.position);
  if (ordered.length === 0) return [];
  const last = ordered[ordered.length - 1]!.afterMinutes;
  const before = ordered.length > 1 ? ordered[ordered.length - 2]!.afterMinutes : 0;
  const period = last + Math.max(last - before, MIN_REPEAT_WAIT_MINUTES);
  const out: EscalationRoundStep<S>[] = [];
  for (let round = 0; round <= repeat; round++)
    ordered.forEach((step, index) =>
      out.push({
        step,
        round,
        index,
        isLast: index === ordered.length - 1,
        position: round * ordered.length + index,
        afterMinutes: round * period + step.afterMinutes,
      }),
    );
  return out;
}
