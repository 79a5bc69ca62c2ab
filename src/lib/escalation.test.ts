import { describe, expect, it } from 'vitest';
import { dueEscalationSteps } from './escalation.ts';

const steps = [
  { position: 0, afterMinutes: 0 },
  { position: 1, afterMinutes: 10 },
  { position: 2, afterMinutes: 30 },
];
const t0 = Date.UTC(2026, 0, 1);
const min = 60_000;

describe('dueEscalationSteps', () => {
  it.each([
    ['at the start only the immediate step', 0, 0, [0]],
    ['just before 10 min nothing more', 1, 10 * min - 1, []],
    ['at 10 min the second step', 1, 10 * min, [1]],
    ['a late run sends every missed step in order', 0, 45 * min, [0, 1, 2]],
    ['nothing after the last step', 3, 90 * min, []],
  ])('%s', (_name, sent, elapsed, want) => {
    expect(dueEscalationSteps(t0, sent, steps, t0 + elapsed).map((s) => s.position)).toEqual(want);
  });

  it('takes steps in position order whatever the input order', () => {
    expect(dueEscalationSteps(t0, 0, [...steps].reverse(), t0 + 10 * min).map((s) => s.position)).toEqual([0, 1]);
  });
});
