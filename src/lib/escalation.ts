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
