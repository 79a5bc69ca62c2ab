import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration.ts';

describe('formatDuration', () => {
  it.each([
    [0, 'less than a second'],
    [999, 'less than a second'],
    [-5, 'less than a second'],
    [Number.NaN, 'less than a second'],
    [1000, '1 second'],
    [5_400, '5 seconds'],
    [59_999, '59 seconds'],
    [60_000, '1 minute'],
    [61_000, '1 minute 1 second'],
    [4 * 60_000, '4 minutes'],
    [3_600_000, '1 hour'],
    [3_600_000 + 30_000, '1 hour'], // the two largest units: hours and minutes (0 minutes left out)
    [90 * 60_000, '1 hour 30 minutes'],
    [86_400_000 + 3 * 3_600_000 + 59 * 60_000, '1 day 3 hours'],
    [2 * 86_400_000, '2 days'],
  ])('%d ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
