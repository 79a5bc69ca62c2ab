// The time maths of domain checks: each registration expiry threshold warns once per expiry
// date (a renewal starts over), and each domain is due once a day at its own moment.
import { describe, expect, it } from 'vitest';
import { DAY_MS, dailySlot, expiryWarning, isDue } from './domain-check-run.ts';

const NOW = Date.UTC(2026, 10, 24, 12);

describe('registration expiry warnings', () => {
  it('warns at 30, 14, 7 and 1 days, each once, the most urgent when several are crossed at once', () => {
    const expires = NOW + 40 * DAY_MS;
    let state = expiryWarning(expires, undefined, NOW);
    expect(state).toEqual({ warn: null, warned: { expires_at: expires, days: [] } });
    const at = (daysLeft: number) => expires - daysLeft * DAY_MS - 1;
    state = expiryWarning(expires, state.warned, at(30));
    expect(state.warn).toBe(30);
    expect(expiryWarning(expires, state.warned, at(29)).warn).toBeNull();
    state = expiryWarning(expires, state.warned, at(6));
    expect(state).toEqual({ warn: 7, warned: { expires_at: expires, days: [30, 14, 7] } });
    state = expiryWarning(expires, state.warned, at(1));
    expect(state.warn).toBe(1);
    expect(expiryWarning(expires, state.warned, expires + DAY_MS).warn).toBeNull();
  });

  it('starts over when the expiry date changes (a renewal)', () => {
    const first = expiryWarning(NOW + 5 * DAY_MS, undefined, NOW);
    expect(first.warn).toBe(7);
    expect(expiryWarning(NOW + 25 * DAY_MS, first.warned, NOW)).toEqual({
      warn: 30,
      warned: { expires_at: NOW + 25 * DAY_MS, days: [30] },
    });
    expect(expiryWarning(null, first.warned, NOW)).toEqual({ warn: null, warned: { expires_at: null, days: [] } });
  });
});

describe('the daily schedule', () => {
  it('checks a domain never checked at once, then once a day at its slot', () => {
    const id = 'asset-1';
    const slot = dailySlot(id);
    const midnight = Date.UTC(2026, 10, 24);
    expect(isDue(id, null, midnight)).toBe(true);
    expect(isDue(id, midnight + slot - 1000, midnight + slot - 1)).toBe(false);
    expect(isDue(id, midnight + slot - 1000, midnight + slot)).toBe(true);
    expect(isDue(id, midnight + slot, midnight + slot + DAY_MS - 1)).toBe(false);
    expect(isDue(id, midnight + slot, midnight + slot + DAY_MS)).toBe(true);
  });

  it('spreads domains over the day', () => {
    const hours = new Set(Array.from({ length: 200 }, (_, i) => Math.floor(dailySlot(`asset-${i}`) / 3_600_000)));
    expect(hours.size).toBeGreaterThan(20);
  });
});
