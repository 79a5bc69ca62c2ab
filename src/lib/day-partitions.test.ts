import { describe, expect, it } from 'vitest';
import { dayExpired, dayPartitionName, daysToEnsure, longestRetentionDays, retentionCutoff } from './day-partitions.ts';

const DAY = 86_400_000;
const NOV_24 = Date.UTC(2026, 10, 24);

describe('day partitions', () => {
  it('names a partition after its UTC day, whatever the hour', () => {
    expect(dayPartitionName('spans', NOV_24)).toBe('spans_p20261124');
    expect(dayPartitionName('check_results', NOV_24 + DAY - 1)).toBe('check_results_p20261124');
    expect(dayPartitionName('check_results', Date.UTC(2027, 0, 1, 0, 0, 0))).toBe('check_results_p20270101');
  });

  it('wants today and the 7 days ahead', () => {
    const days = daysToEnsure(NOV_24 + 23 * 3_600_000);
    expect(days.map((d) => dayPartitionName('t', d))).toEqual([
      't_p20261124',
      't_p20261125',
      't_p20261126',
      't_p20261127',
      't_p20261128',
      't_p20261129',
      't_p20261130',
      't_p20261201',
    ]);
  });

  it('keeps the longest retention of the plans in use; unknown plans count as starter; none at all as the fallback', () => {
    expect(longestRetentionDays(['starter', 'enterprise', 'professional'], 90)).toBe(90);
    expect(longestRetentionDays(['starter', 'professional'], 90)).toBe(30);
    expect(longestRetentionDays(['starter', 'platinum', null], 90)).toBe(7);
    expect(longestRetentionDays([], 90)).toBe(90);
  });

  it('drops a day only when all of it lies before the cutoff', () => {
    expect(dayExpired(NOV_24, NOV_24 + DAY)).toBe(true);
    expect(dayExpired(NOV_24, NOV_24 + DAY - 1)).toBe(false);
  });

  it('cuts rows at the exact instant, or at the midnight before it when whole days are kept', () => {
    const now = NOV_24 + 15 * 3_600_000;
    expect(retentionCutoff(now, 7, false)).toBe(now - 7 * DAY);
    expect(retentionCutoff(now, 7, true)).toBe(NOV_24 - 7 * DAY);
  });
});
