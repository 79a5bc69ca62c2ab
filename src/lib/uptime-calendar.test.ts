import { describe, expect, it } from 'vitest';
import { calendarStart, calendarUptime, uptimeCalendar, uptimeRange } from './uptime-calendar.ts';
import { DAY_MS, type RollupCounts } from './timeline.ts';

const NOW = Date.UTC(2026, 10, 24, 13, 5); // Tuesday 24 November 2026
const day = (y: number, m: number, d: number, over: Partial<RollupCounts> = {}): RollupCounts => ({
  start: Date.UTC(y, m, d),
  checks: 1440,
  failures: 0,
  degraded: 0,
  maintenance: 0,
  lastHttpCode: 200,
  ...over,
});

describe('uptime calendar', () => {
  it('reads the range a visitor asked for, 3 months otherwise', () => {
    expect([uptimeRange('3'), uptimeRange('6'), uptimeRange('12'), uptimeRange('24'), uptimeRange(null), uptimeRange('6.5')]).toEqual([
      3, 6, 12, 3, 3, 3,
    ]);
  });

  it('draws the last months oldest first, each from a Monday-first grid, up to today', () => {
    const months = uptimeCalendar([], NOW, 3);
    expect(months.map((m) => m.label)).toEqual(['September 2026', 'October 2026', 'November 2026']);
    expect(months.map((m) => m.days.length)).toEqual([30, 31, 24]);
    // 1 September 2026 is a Tuesday, 1 October a Thursday, 1 November a Sunday
    expect(months.map((m) => m.leadingBlanks)).toEqual([1, 3, 6]);
    expect(months[0].days.every((d) => d.uptime === null && d.tone === 'none')).toBe(true);
    expect(calendarStart(NOW, 12)).toBe(Date.UTC(2025, 11, 1));
    expect(uptimeCalendar([], Date.UTC(2026, 0, 15), 3).map((m) => m.label)).toEqual(['November 2025', 'December 2025', 'January 2026']);
  });

  it('gives each day and month its uptime with maintenance left out', () => {
    const rows = [
      day(2026, 10, 2, { failures: 144 }), // 90 %
      day(2026, 10, 3, { failures: 1 }), // 99.93 %
      day(2026, 10, 4, { maintenance: 10 }), // checks in maintenance are left out
      day(2026, 9, 31),
    ];
    const [, oct, nov] = uptimeCalendar(rows, NOW, 3);
    const byDate = (d: number) => nov.days[d - 1];
    expect(byDate(2)).toMatchObject({ uptime: 90, tone: 'bad' });
    expect(byDate(3).tone).toBe('good');
    expect(byDate(3).uptime).toBeCloseTo(99.9306, 3);
    expect(byDate(4)).toMatchObject({ uptime: 100, tone: 'good' });
    expect(byDate(5)).toMatchObject({ uptime: null, tone: 'none' });
    expect(nov.uptime).toBeCloseTo(((1440 * 3 - 10 - 145) / (1440 * 3 - 10)) * 100, 6);
    expect(oct.uptime).toBe(100);
    expect(calendarUptime(rows, NOW, 3)).toBeCloseTo(((1440 * 4 - 10 - 145) / (1440 * 4 - 10)) * 100, 6);
    // a day of the future never shows, a row before the range is not counted
    expect(calendarUptime([...rows, day(2026, 5, 1, { failures: 1440 })], NOW, 3)).toBe(calendarUptime(rows, NOW, 3));
    expect(nov.days.at(-1)!.day).toBe(NOW - (NOW % DAY_MS));
  });
});
