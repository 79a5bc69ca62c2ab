import { describe, expect, it } from 'vitest';
import { dailyDue, dailyOffset, lastDailySlot } from './daily-slot.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 24);

describe('daily slots', () => {
  it('spread ids over the day in whole minutes', () => {
    const offsets = new Set(Array.from({ length: 1000 }, (_, i) => dailyOffset(`asset-${i}`)));
    expect(offsets.size).toBeGreaterThan(400);
    for (const o of offsets) {
      expect(o % 60_000).toBe(0);
      expect(o).toBeGreaterThanOrEqual(0);
      expect(o).toBeLessThan(DAY);
    }
  });

  it('the last slot is today when passed, else yesterday', () => {
    const id = 'x';
    const at = T0 + dailyOffset(id);
    expect(lastDailySlot(id, at)).toBe(at);
    expect(lastDailySlot(id, at + 1)).toBe(at);
    expect(lastDailySlot(id, at - 1)).toBe(at - DAY);
  });

  it('a target is due once per day: never run, or last run before its slot', () => {
    const id = 'y';
    const slot = T0 + dailyOffset(id);
    expect(dailyDue(id, null, slot)).toBe(true);
    expect(dailyDue(id, slot - 1, slot)).toBe(true);
    expect(dailyDue(id, slot, slot + DAY - 1)).toBe(false);
    expect(dailyDue(id, slot, slot + DAY)).toBe(true);
  });
});
