import { describe, expect, it } from 'vitest';
import { DENSE_BELOW_HOURS, drawPerCheck, openingChartRange } from './dense-history.ts';

describe("a young monitor's history", () => {
  it('is drawn per check while fewer than 6 of the last 24 hours hold timed checks', () => {
    expect(DENSE_BELOW_HOURS).toBe(6);
    expect(drawPerCheck(0)).toBe(true);
    expect(drawPerCheck(1)).toBe(true);
    expect(drawPerCheck(5)).toBe(true);
    expect(drawPerCheck(6)).toBe(false);
    expect(drawPerCheck(24)).toBe(false);
  });
  it("opens the monitor page's chart on the latest checks until then, and on 24 hours after", () => {
    const hours = (withChecks: number) => Array.from({ length: 24 }, (_, i) => (i >= 24 - withChecks ? 60 : 0));
    expect(openingChartRange(hours(0))).toBe('checks');
    expect(openingChartRange(hours(1))).toBe('checks');
    expect(openingChartRange(hours(5))).toBe('checks');
    expect(openingChartRange(hours(6))).toBe('24h');
    // hours apart count the same as hours in a row
    expect(openingChartRange([5, 0, 5, 0, 5, 0, 5, 0, 5, 0, 5, ...Array(13).fill(0)])).toBe('24h');
  });
});
