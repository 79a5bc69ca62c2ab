import { describe, expect, it } from 'vitest';
import { errorRateTone, p95Tone, uptimeTone } from './thresholds.ts';

describe('dashboard thresholds (spec section 9)', () => {
  it.each([
    [0, 'green'],
    [1, 'green'],
    [1.01, 'amber'],
    [5, 'amber'],
    [5.01, 'red'],
    [100, 'red'],
    [null, 'grey'],
    [Number.NaN, 'grey'],
  ] as const)('error rate %s%% is %s', (v, tone) => expect(errorRateTone(v)).toBe(tone));

  it.each([
    [0, 'green'],
    [500, 'green'],
    [500.5, 'amber'],
    [1000, 'amber'],
    [1000.01, 'red'],
    [undefined, 'grey'],
  ] as const)('p95 %s ms is %s', (v, tone) => expect(p95Tone(v)).toBe(tone));

  it.each([
    [100, 'green'],
    [99.95, 'green'],
    [99.9, 'amber'],
    [99.01, 'amber'],
    [99, 'red'],
    [50, 'red'],
    [null, 'grey'],
  ] as const)('uptime %s%% is %s', (v, tone) => expect(uptimeTone(v)).toBe(tone));
});
