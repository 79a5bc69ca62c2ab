import { describe, expect, it } from 'vitest';
import { stepLayers } from './step-timings.ts';

describe('per-step timings of the recent checks', () => {
  it('stacks each step on the ones before it, oldest check first', () => {
    const l = stepLayers(
      [
        { checked_at: '2026-01-01T00:02:00Z', timings: { step_1: 10, step_2: 30, total: 40 } },
        { checked_at: '2026-01-01T00:01:00Z', timings: { step_1: 20, step_2: 5, total: 25 } },
      ],
      2,
    );
    expect(l.x).toEqual([Date.parse('2026-01-01T00:01:00Z') / 1000, Date.parse('2026-01-01T00:02:00Z') / 1000]);
    expect(l.tops).toEqual([
      [20, 10],
      [25, 40],
    ]);
    expect(l.means).toEqual([15, 17.5]);
  });

  it('leaves a gap where a step did not run (skipped after a failure) and shows steps since removed', () => {
    const l = stepLayers(
      [
        { checked_at: '2026-01-01T00:01:00Z', timings: { step_1: 10, total: 10 } },
        { checked_at: '2026-01-01T00:02:00Z', timings: { step_1: 5, step_2: 5, step_3: 5 } },
        { checked_at: '2026-01-01T00:03:00Z', timings: null },
      ],
      2,
    );
    expect(l.steps).toBe(3);
    expect(l.tops[1]).toEqual([null, 10]);
    expect(l.x).toHaveLength(2);
  });
});
