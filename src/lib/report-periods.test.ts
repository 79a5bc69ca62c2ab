import { describe, expect, it } from 'vitest';
import {
  DAY_MS,
  isoDateStart,
  isReportPeriod,
  lastCompletePeriod,
  latestPeriodWithData,
  periodDates,
  rangeOfDates,
  REPORT_PERIODS,
} from './report-periods.ts';

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

describe('the named periods', () => {
  const now = Date.UTC(2026, 1, 14, 10); // Saturday 14 February 2026
  it('this month so far, the last 7 and 30 days up to today, the last month, quarter and 12 months', () => {
    expect(periodDates('this_month', now)).toEqual({ from: '2026-02-01', to: '2026-02-14' });
    expect(periodDates('last_7_days', now)).toEqual({ from: '2026-02-08', to: '2026-02-14' });
    expect(periodDates('last_30_days', now)).toEqual({ from: '2026-01-16', to: '2026-02-14' });
    expect(periodDates('last_month', now)).toEqual({ from: '2026-01-01', to: '2026-01-31' });
    expect(periodDates('last_quarter', now)).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    expect(periodDates('last_12_months', now)).toEqual({ from: '2025-02-15', to: '2026-02-14' });
  });
  it('every period is a valid range, and the first of a month is a one-day month so far', () => {
    for (const p of REPORT_PERIODS) expect(rangeOfDates(periodDates(p, now).from, periodDates(p, now).to)).not.toBeTypeOf('string');
    expect(periodDates('this_month', Date.UTC(2026, 2, 1, 0, 5))).toEqual({ from: '2026-03-01', to: '2026-03-01' });
    expect(periodDates('last_month', Date.UTC(2026, 0, 3))).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(periodDates('last_7_days', Date.UTC(2026, 2, 2, 23, 59))).toEqual({ from: '2026-02-24', to: '2026-03-02' });
  });
  it('names only its own periods', () => {
    expect(isReportPeriod('last_7_days')).toBe(true);
    expect(isReportPeriod('month')).toBe(false);
    expect(isReportPeriod('latest')).toBe(false);
  });
});

describe('the period a report opens on', () => {
  const now = Date.UTC(2026, 2, 14, 10); // 14 March 2026
  it('is this month for data of minutes ago, and without any data', () => {
    expect(latestPeriodWithData(now - 5 * 60_000, now)).toBe('this_month');
    expect(latestPeriodWithData(Date.UTC(2026, 2, 1), now)).toBe('this_month');
    expect(latestPeriodWithData(null, now)).toBe('this_month');
  });
  it('walks back to the newest calendar period holding the latest data', () => {
    expect(latestPeriodWithData(Date.UTC(2026, 1, 28, 23, 59), now)).toBe('last_month');
    expect(latestPeriodWithData(Date.UTC(2025, 11, 31, 12), now)).toBe('last_quarter');
    // January is in neither last month (February) nor the last quarter (October to December)
    expect(latestPeriodWithData(Date.UTC(2026, 0, 20), now)).toBe('last_12_months');
    expect(latestPeriodWithData(Date.UTC(2025, 2, 15), now)).toBe('last_12_months');
    expect(latestPeriodWithData(Date.UTC(2025, 2, 14, 12), now)).toBe('this_month');
  });
});
