import { describe, expect, it } from 'vitest';
import { coversMonitor, isActiveAt, occurrenceFrom, type WindowTimes } from './maintenance.ts';

const t = (s: string) => Date.parse(s);
// Sunday 31 January 2027, 02:00-04:00 UTC
const once: WindowTimes = { starts_at: t('2027-01-31T02:00:00Z'), ends_at: t('2027-01-31T04:00:00Z') };
const weekly: WindowTimes = { ...once, recurrence: 'weekly' };
const monthly: WindowTimes = { ...once, recurrence: 'monthly' };

describe('isActiveAt', () => {
  it.each([
    ['once, before', once, '2027-01-31T01:59:59Z', false],
    ['once, at the start', once, '2027-01-31T02:00:00Z', true],
    ['once, at the end (excluded)', once, '2027-01-31T04:00:00Z', false],
    ['once, a week later', once, '2027-02-07T03:00:00Z', false],
    ['weekly, before the first', weekly, '2027-01-24T03:00:00Z', false],
    ['weekly, first occurrence', weekly, '2027-01-31T03:00:00Z', true],
    ['weekly, next Sunday', weekly, '2027-02-07T03:00:00Z', true],
    ['weekly, a year of Sundays later', weekly, '2028-01-30T02:30:00Z', true],
    ['weekly, next Sunday after the span', weekly, '2027-02-07T04:00:00Z', false],
    ['weekly, Monday', weekly, '2027-02-08T03:00:00Z', false],
    ['monthly, 31 January', monthly, '2027-01-31T03:00:00Z', true],
    ['monthly, February has no 31st: its last day', monthly, '2027-02-28T03:00:00Z', true],
    ['monthly, 31 March', monthly, '2027-03-31T03:00:00Z', true],
    ['monthly, 30 April', monthly, '2027-04-30T03:00:00Z', true],
    ['monthly, 30 March is not a day of it', monthly, '2027-03-30T03:00:00Z', false],
    ['monthly, a week later', monthly, '2027-02-07T03:00:00Z', false],
    ['cancelled', { ...weekly, cancelled_at: t('2027-01-01T00:00:00Z') }, '2027-01-31T03:00:00Z', false],
    [
      'times as strings (PostgreSQL bigint)',
      { starts_at: String(once.starts_at), ends_at: String(once.ends_at) },
      '2027-01-31T03:00:00Z',
      true,
    ],
  ] as const)('%s', (_name, w, at, active) => {
    expect(isActiveAt(w, t(at))).toBe(active);
  });
});

describe('occurrenceFrom', () => {
  it('answers the next occurrence of a recurring window and none after a one-off ended', () => {
    expect(occurrenceFrom(weekly, t('2027-02-03T00:00:00Z'))).toEqual({ start: t('2027-02-07T02:00:00Z'), end: t('2027-02-07T04:00:00Z') });
    expect(occurrenceFrom(monthly, t('2027-02-01T00:00:00Z'))).toEqual({
      start: t('2027-02-28T02:00:00Z'),
      end: t('2027-02-28T04:00:00Z'),
    });
    expect(occurrenceFrom(once, t('2027-02-01T00:00:00Z'))).toBeNull();
    expect(occurrenceFrom(once, t('2027-01-01T00:00:00Z'))).toEqual({ start: t('2027-01-31T02:00:00Z'), end: t('2027-01-31T04:00:00Z') });
  });
});

describe('coversMonitor', () => {
  const m = { id: 'm1', company_id: 'c1' };
  it('covers the whole company without monitors, the listed monitors otherwise, never another company', () => {
    expect(coversMonitor({ company_id: 'c1', monitor_id: null }, m)).toBe(true);
    expect(coversMonitor({ company_id: 'c1', monitor_id: null, monitor_ids: [] }, m)).toBe(true);
    expect(coversMonitor({ company_id: 'c1', monitor_id: 'm2', monitor_ids: ['m2', 'm1'] }, m)).toBe(true);
    expect(coversMonitor({ company_id: 'c1', monitor_id: 'm2', monitor_ids: ['m2', 'm3'] }, m)).toBe(false);
    expect(coversMonitor({ company_id: 'c1', monitor_id: 'm1' }, m)).toBe(true);
    expect(coversMonitor({ company_id: 'c2', monitor_id: null }, m)).toBe(false);
  });
});
