// When a maintenance window's occurrences start and end inside a period: one-off and weekly
// windows, short windows that start and end within the period, and cancelled ones.
import { describe, expect, it } from 'vitest';
import { transitionsIn } from './subscriber-maintenance.ts';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 2, 10, 0, 0);
const win = (over: Record<string, unknown> = {}) => ({
  id: 'w',
  starts_at: T0,
  ends_at: T0 + 2 * H,
  recurrence: null,
  cancelled_at: null,
  ...over,
});
const events = (w: ReturnType<typeof win>, since: number, until: number) =>
  transitionsIn(w as never, since, until).map((c) => `${c.event}@${(c.startsAt - T0) / H}`);

describe('maintenance transitions in a period', () => {
  it('a one-off window starts, then ends, each in the period that holds the moment', () => {
    expect(events(win(), T0 - 60_000, T0 + 60_000)).toEqual(['maintenance.started@0']);
    expect(events(win(), T0 + 60_000, T0 + H)).toEqual([]);
    expect(events(win(), T0 + 2 * H - 1, T0 + 2 * H + 60_000)).toEqual(['maintenance.ended@0']);
    expect(events(win(), T0 + 3 * H, T0 + 4 * H)).toEqual([]);
  });

  it('a window shorter than the period starts and ends in it', () => {
    expect(events(win({ ends_at: T0 + 60_000 }), T0 - 1, T0 + 10 * 60_000)).toEqual(['maintenance.started@0', 'maintenance.ended@0']);
  });

  it('a weekly window starts again a week later; a cancelled one never', () => {
    const weekly = win({ recurrence: 'weekly' });
    expect(events(weekly, T0 + 168 * H - 1, T0 + 168 * H + 1)).toEqual(['maintenance.started@168']);
    expect(events(win({ cancelled_at: T0 - H }), T0 - 1, T0 + 1)).toEqual([]);
  });
});
