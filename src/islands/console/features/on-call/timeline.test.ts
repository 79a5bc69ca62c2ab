import { describe, expect, it } from 'vitest';
import { dayLines, place } from './timeline.ts';

const H = 3_600_000;

describe('timeline placement', () => {
  it('places shifts as shares of the range, cut at its edges, and drops those outside', () => {
    const placed = place(
      [
        { start: -5 * H, end: 6 * H, who: 'a' },
        { start: 6 * H, end: 18 * H, who: 'b' },
        { start: 18 * H, end: 30 * H, who: 'c' },
        { start: 30 * H, end: 40 * H, who: 'outside' },
      ],
      0,
      24 * H,
    );
    expect(placed.map((p) => [p.item.who, p.left, p.width])).toEqual([
      ['a', 0, 25],
      ['b', 25, 50],
      ['c', 75, 25],
    ]);
  });

  it("draws the zone's midnights, 23 hours apart on the day clocks go forward", () => {
    const from = Date.parse('2026-03-28T00:00:00Z');
    const lines = dayLines(from, from + 3 * 24 * H, 'Europe/Berlin');
    expect(lines.map((l) => [new Date(l.at).toISOString(), l.label])).toEqual([
      ['2026-03-28T23:00:00.000Z', 'Sun 29'],
      ['2026-03-29T22:00:00.000Z', 'Mon 30'],
      ['2026-03-30T22:00:00.000Z', 'Tue 31'],
    ]);
    expect(lines[1].at - lines[0].at).toBe(23 * H);
  });
});
