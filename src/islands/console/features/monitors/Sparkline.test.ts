import { describe, expect, it } from 'vitest';
import { sparkShape } from './Sparkline.tsx';

describe('the 24-hour sparkline', () => {
  it('is nothing without timed hours', () => {
    expect(sparkShape(Array(24).fill(null))).toBeNull();
  });

  it('joins consecutive hours, breaks at gaps, and draws a lone hour as a dot (the slowest at the top)', () => {
    const points: Array<number | null> = Array(24).fill(null);
    points[0] = 100;
    points[1] = 50;
    points[23] = 25;
    const s = sparkShape(points)!;
    expect(s.path).toBe('M2 2L6 12');
    expect(s.dots).toEqual([{ x: 94, y: 17 }]);
  });
});

describe("a young monitor's sparkline of its latest checks", () => {
  it('spreads the few checks over the whole width as one line', () => {
    const s = sparkShape([100, 50, 75, 100])!;
    expect(s.path).toBe('M2 2L32.7 12L63.3 7L94 2');
    expect(s.dots).toEqual([]);
  });
});
