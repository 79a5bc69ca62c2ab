import { describe, expect, it } from 'vitest';
import { CHART_HEIGHT, CHART_WIDTH, niceMax, readPath, seriesPath, seriesSummary } from './response-chart.ts';

describe('niceMax', () => {
  it.each([
    [[12, 80, null], 100],
    [[101], 200],
    [[0.4], 0.5],
    [[250], 250],
    [[260], 500],
    [[1000], 1000],
    [[null, null], 0],
    [[], 0],
  ] as const)('%j -> %d', (values, max) => {
    expect(niceMax(values)).toBe(max);
  });
});

describe('seriesPath', () => {
  it('spreads the periods over the width and maps 0..max to the height', () => {
    // 3 periods: x at 0, 300, 600; 50 ms of 100 is half way up
    expect(seriesPath([0, 50, 100], 100)).toBe(`M0 ${CHART_HEIGHT}l300 -60l300 -60`);
  });

  it('breaks the line at a period without data and draws a lone period as a dot', () => {
    expect(seriesPath([100, null, 50, null, 25, 25], 100, 500, 100)).toBe('M0 0h0M200 50h0M400 75l100 0');
  });

  it('is empty without data', () => {
    expect(seriesPath([null, null], 0)).toBe('');
  });

  it('reads back to the values within the drawing precision', () => {
    const points = Array.from({ length: 168 }, (_, i) => (i % 17 === 5 ? null : 40 + ((i * 37) % 113) + i / 7));
    const max = niceMax(points);
    const back = readPath(seriesPath(points, max), max, points.length);
    const drawn = points.flatMap((v, index) => (v === null ? [] : [{ index, ms: v }]));
    expect(back.map((p) => p.index)).toEqual(drawn.map((p) => p.index));
    // 0.1 unit of a 120-unit height: max / 1200 at most, plus the x rounding (none in y)
    for (const [i, p] of back.entries()) expect(Math.abs(p.ms - drawn[i].ms)).toBeLessThanOrEqual(max / 1200 + 1e-9);
    expect(CHART_WIDTH).toBe(600);
  });
});

describe('seriesSummary', () => {
  it('averages the periods with data', () => {
    expect(seriesSummary([10, null, 20, 30])).toEqual({ mean: 20, min: 10, max: 30 });
    expect(seriesSummary([null])).toBeNull();
  });
});
