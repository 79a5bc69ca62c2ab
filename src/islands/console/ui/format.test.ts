import { describe, expect, it } from 'vitest';
import { fmtRate } from './format.ts';

describe('fmtRate', () => {
  it.each([
    [0, '0.00'],
    [10 / 86_400, '<0.01'], // 10 requests in a day
    [0.004, '<0.01'],
    [0.005, '0.01'],
    [12.345, '12.35'],
    [null, '—'],
    [Number.NaN, '—'],
  ])('%s per second reads %s', (v, text) => {
    expect(fmtRate(v)).toBe(text);
  });
});
