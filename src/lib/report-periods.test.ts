import { describe, expect, it } from 'vitest';
import { DAY_MS, isoDateStart, lastCompletePeriod, presetDates, rangeOfDates } from './report-periods.ts';

describe('report ranges', () => {
  it('covers both whole days of the two dates', () => {
    expect(rangeOfDates('2026-10-01', '2026-10-31')).toEqual({ from: Date.UTC(2026, 9, 1), to: Date.UTC(2026, 10, 1) });
    expect(rangeOfDates('2026-10-05', '2026-10-05')).toEqual({ from: Date.UTC(2026, 9, 5), to: Date.UTC(2026, 9, 5) + DAY_MS });
  });
  it('refuses dates that do not exist, reversed ranges and ranges over a year', () => {
    expect(isoDateStart('2026-02-30')).toBeNull();
    expect(isoDateStart('2026-1-01')).toBeNull();
    expect(rangeOfDates('2026-02-30', '2026-03-01')).toMatch(/from must be a date/);
    expect(rangeOfDates('2026-03-02', '2026-03-01')).toMatch(/not be before/);
    expect(rangeOfDates('2024-01-01', '2024-12-31')).toEqual({ from: Date.UTC(2024, 0, 1), to: Date.UTC(2025, 0, 1) });
    expect(rangeOfDates('2024-01-01', '2025-01-05')).toMatch(/at most 367 days/);
  });
  it('a schedule reports the last complete month, or the last Monday-to-Sunday week', () => {
    const now = Date.UTC(2026, 0, 14, 9); // Wednesday 14 January 2026
    expect(lastCompletePeriod('monthly', now)).toEqual({ key: '2025-12', from: Date.UTC(2025, 11, 1), to: Date.UTC(2026, 0, 1) });
    expect(lastCompletePeriod('weekly', now)).toEqual({ key: '2026-01-05', from: Date.UTC(2026, 0, 5), to: Date.UTC(2026, 0, 12) });
    // On a Monday the week that just ended is the one reported.
    expect(lastCompletePeriod('weekly', Date.UTC(2026, 0, 12, 0, 5)).key).toBe('2026-01-05');
  });
});

describe("the screen's quick ranges", () => {
  const now = Date.UTC(2026, 1, 14, 10); // 14 February 2026
  it('last month, last quarter, and the last 12 months up to today', () => {
    expect(presetDates('month', now)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(presetDates('quarter', now)).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    expect(presetDates('year', now)).toEqual({ from: '2025-02-15', to: '2026-02-14' });
    expect(rangeOfDates(presetDates('year', now).from, presetDates('year', now).to)).not.toBeTypeOf('string');
  });
});
