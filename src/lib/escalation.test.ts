import { describe, expect, it } from 'vitest';
import { dueEscalationSteps, escalationRounds } from './escalation.ts';

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

describe('escalationRounds', () => {
  it('repeats the steps after waiting as long as before the last step', () => {
    // Last step at 30, 20 after the one before: a round lasts 50 minutes.
    const rounds = escalationRounds(steps, 2);
    expect(rounds.map((r) => [r.round, r.index, r.position, r.afterMinutes, r.isLast])).toEqual([
      [0, 0, 0, 0, false],
      [0, 1, 1, 10, false],
      [0, 2, 2, 30, true],
      [1, 0, 3, 50, false],
      [1, 1, 4, 60, false],
      [1, 2, 5, 80, true],
      [2, 0, 6, 100, false],
      [2, 1, 7, 110, false],
      [2, 2, 8, 130, true],
    ]);
    // A late run after the second round's second step sends what it missed, once.
    expect(dueEscalationSteps(t0, 3, rounds, t0 + 65 * min).map((r) => r.position)).toEqual([3, 4]);
  });

  it('waits at least 5 minutes before a repeat, and no repeat is the policy as it was', () => {
    expect(escalationRounds([{ position: 0, afterMinutes: 0 }], 2).map((r) => r.afterMinutes)).toEqual([0, 5, 10]);
    expect(escalationRounds([{ position: 0, afterMinutes: 15 }], 1).map((r) => r.afterMinutes)).toEqual([15, 45]);
    expect(escalationRounds(steps, 0).map((r) => r.position)).toEqual([0, 1, 2]);
  });
});
