import { describe, expect, it } from 'vitest';
import { formatUtcDay, formatUtcMinute, parseUtcInput, utcInputValue } from './dates.ts';

describe('console dates', () => {
  it('writes a moment as the status page does, in UTC whatever the input form', () => {
    const ms = Date.UTC(2026, 10, 29, 6, 10, 41);
    expect(formatUtcMinute(ms)).toBe('2026-11-29 06:10 UTC');
    expect(formatUtcMinute('2026-11-29T07:10:41+01:00')).toBe('2026-11-29 06:10 UTC');
    expect(formatUtcMinute(new Date(ms))).toBe('2026-11-29 06:10 UTC');
    expect(formatUtcDay('2026-11-29T23:59:59Z')).toBe('2026-11-29');
  });

  it("reads and fills date-and-time fields in UTC, whatever the browser's zone", () => {
    const ms = Date.UTC(2026, 10, 29, 6, 10);
    expect(utcInputValue(ms)).toBe('2026-11-29T06:10');
    expect(parseUtcInput('2026-11-29T06:10')).toBe(ms);
    expect(parseUtcInput('')).toBeNaN();
    expect(parseUtcInput('2026-11-29')).toBeNaN();
  });

  it('answers the fallback for nothing and for text that is no time', () => {
    expect(formatUtcMinute(null)).toBe('—');
    expect(formatUtcMinute(undefined, 'Never')).toBe('Never');
    expect(formatUtcMinute('soon', '')).toBe('');
    expect(formatUtcDay('')).toBe('—');
  });
});
