import { describe, expect, it } from 'vitest';
import { inventoryWindow, rollupPlan } from './inventory-window.ts';

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 10, 24, 13, 37, 28, 500);

describe('inventory window', () => {
  it('ends the last hour with the minute that holds now', () => {
    const w = inventoryWindow('1h', NOW);
    expect(w.toMs).toBe(Date.UTC(2026, 10, 24, 13, 38));
    expect(w.fromMs).toBe(Date.UTC(2026, 10, 24, 12, 38));
    expect(w.previousFromMs).toBe(Date.UTC(2026, 10, 24, 11, 38));
  });

  it.each([
    ['24h', 24],
    ['7d', 7 * 24],
    ['30d', 30 * 24],
  ] as const)('ends %s with the hour that holds now, in whole hours', (range, hours) => {
    const w = inventoryWindow(range, NOW);
    expect(w.toMs).toBe(Date.UTC(2026, 10, 24, 14));
    expect(w.toMs - w.fromMs).toBe(hours * HOUR);
    expect(w.fromMs - w.previousFromMs).toBe(hours * HOUR);
    expect(w.fromMs % HOUR).toBe(0);
  });
});

describe('rollup plan', () => {
  const DAY = 24 * HOUR;
  const D = Date.UTC(2026, 10, 1);
  it('reads minutes unless both ends are whole hours', () => {
    expect(rollupPlan(D + 60_000, D + HOUR)).toEqual([{ grain: 'minute', fromMs: D + 60_000, toMs: D + HOUR }]);
  });
  it('reads hours within a day, whole days from the daily rows and the edges from the hours', () => {
    expect(rollupPlan(D + 3 * HOUR, D + 20 * HOUR)).toEqual([{ grain: 'hour', fromMs: D + 3 * HOUR, toMs: D + 20 * HOUR }]);
    expect(rollupPlan(D + 3 * HOUR, D + 27 * HOUR)).toEqual([{ grain: 'hour', fromMs: D + 3 * HOUR, toMs: D + 27 * HOUR }]);
    expect(rollupPlan(D + 14 * HOUR, D + 30 * DAY + 14 * HOUR)).toEqual([
      { grain: 'hour', fromMs: D + 14 * HOUR, toMs: D + DAY },
      { grain: 'day', fromMs: D + DAY, toMs: D + 30 * DAY },
      { grain: 'hour', fromMs: D + 30 * DAY, toMs: D + 30 * DAY + 14 * HOUR },
    ]);
    expect(rollupPlan(D, D + 7 * DAY)).toEqual([{ grain: 'day', fromMs: D, toMs: D + 7 * DAY }]);
  });
});
