import { describe, expect, it } from 'vitest';
import { formatInZone, msToZonedInput, shortInZone, zonedInputToMs, zoneNames } from './zoned-time.ts';

describe('on-call time zones', () => {
  it('lists UTC first, then the IANA zones the platform knows', () => {
    const zones = zoneNames();
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('Australia/Sydney');
    expect(new Set(zones).size).toBe(zones.length);
  });

  it('writes a moment on the wall clock of the zone', () => {
    const ms = Date.parse('2026-11-30T08:00:00Z');
    expect(formatInZone(ms, 'Europe/Berlin')).toBe('Mon 2026-11-30 09:00 CET');
    expect(formatInZone(ms, 'UTC')).toBe('Mon 2026-11-30 08:00 UTC');
    expect(shortInZone(ms, 'America/New_York', ms)).toBe('03:00');
    expect(shortInZone(ms, 'Australia/Sydney', Date.parse('2026-11-29T08:00:00Z'))).toBe('Mon 11-30 19:00');
  });

  it.each([
    // zone, wall clock, the moment it names
    ['Europe/Berlin', '2026-11-30T09:00', '2026-11-30T08:00:00.000Z'],
    ['Europe/Berlin', '2026-07-01T09:00', '2026-07-01T07:00:00.000Z'],
    ['America/New_York', '2026-03-08T09:00', '2026-03-08T13:00:00.000Z'], // the day clocks go forward
    ['Australia/Sydney', '2026-04-05T09:00', '2026-04-04T23:00:00.000Z'], // the day clocks go back
    ['Asia/Kolkata', '2026-01-01T00:00', '2025-12-31T18:30:00.000Z'],
    // Berlin's skipped hour: 02:30 does not exist, it reads as 03:30 summer time
    ['Europe/Berlin', '2026-03-29T02:30', '2026-03-29T01:30:00.000Z'],
    // Berlin's repeated hour: 02:30 happens twice, the first is taken
    ['Europe/Berlin', '2026-10-25T02:30', '2026-10-25T00:30:00.000Z'],
  ])('%s %s is %s', (zone, local, iso) => {
    const ms = zonedInputToMs(local, zone);
    expect(new Date(ms).toISOString()).toBe(iso);
  });

  it('round-trips a datetime-local value through its zone', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'UTC'])
      for (let day = 0; day < 365; day += 7) {
        const value = msToZonedInput(Date.parse('2026-01-01T09:00:00Z') + day * 86_400_000, zone);
        expect(msToZonedInput(zonedInputToMs(value, zone), zone)).toBe(value);
      }
  });

  it('refuses an unfinished value', () => {
    expect(zonedInputToMs('2026-11-30', 'UTC')).toBeNaN();
  });
});
