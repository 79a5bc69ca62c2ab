// Uptime Kuma's wall-clock maintenance times read as instants: zones with summer time, windows
// across midnight, the next weekday or day of the month from a given moment.
import { describe, expect, it } from 'vitest';
import { dailySpanSeconds, nextMonthDay, nextWeekday, wallToMs, zoneOf } from './maintenance-time.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('Uptime Kuma maintenance times', () => {
  it('reads a stored date in its zone, summer and winter time alike', () => {
    expect(iso(wallToMs('2030-06-10 02:00:00', 'Europe/Berlin'))).toBe('2030-06-10T00:00:00.000Z');
    expect(iso(wallToMs('2030-01-10 02:00', 'Europe/Berlin'))).toBe('2030-01-10T01:00:00.000Z');
    expect(wallToMs('not a date', 'UTC')).toBeNull();
  });

  it('takes SAME_AS_SERVER and unknown zones as UTC, and says so', () => {
    expect(zoneOf('SAME_AS_SERVER')).toEqual({ zone: 'UTC', assumed: true });
    expect(zoneOf('Mars/Olympus')).toEqual({ zone: 'UTC', assumed: true });
    expect(zoneOf('America/New_York')).toEqual({ zone: 'America/New_York', assumed: false });
  });

  it('a daily span ending at or before its start ends the next day', () => {
    expect(dailySpanSeconds('03:00', '04:30')).toBe(5400);
    expect(dailySpanSeconds('23:30', '00:30')).toBe(3600);
    expect(dailySpanSeconds('02:00', '02:00')).toBe(86400);
    expect(dailySpanSeconds(null, '02:00')).toBeNull();
  });

  it('finds the next weekday (0 Sunday) and day of the month at or after a moment', () => {
    const tuesday = Date.parse('2030-01-01T00:00:00Z');
    expect(iso(nextWeekday(0, '03:00', 'UTC', tuesday))).toBe('2030-01-06T03:00:00.000Z');
    expect(iso(nextWeekday(2, '03:00', 'UTC', tuesday))).toBe('2030-01-01T03:00:00.000Z');
    expect(iso(nextWeekday(2, '03:00', 'UTC', Date.parse('2030-01-01T05:00:00Z')))).toBe('2030-01-08T03:00:00.000Z');
    expect(iso(nextWeekday(1, '09:00', 'America/New_York', tuesday))).toBe('2030-01-07T14:00:00.000Z');
    expect(iso(nextMonthDay(15, '23:30', 'UTC', tuesday))).toBe('2030-01-15T23:30:00.000Z');
    expect(iso(nextMonthDay(1, '00:30', 'UTC', Date.parse('2030-01-01T01:00:00Z')))).toBe('2030-02-01T00:30:00.000Z');
  });
});
