import { describe, expect, it } from 'vitest';
import { msText, phasesOf, quantile } from './phase-stats.ts';
import { agoText } from './module.ts';
import { lineOf } from './index.ts';

describe('phase timings and baselines', () => {
  it('splits stored timings into phases: first byte and body are differences from the start', () => {
    expect(phasesOf('{"dns":2,"connect":3,"tls":40,"ttfb":80,"total":95}')).toEqual({
      dns: 2,
      connect: 3,
      tls: 40,
      first_byte: 35,
      body: 15,
    });
    // A failed check keeps the phases it finished: here it stopped in the TLS handshake.
    expect(phasesOf('{"dns":1,"connect":1,"total":1000}')).toEqual({ dns: 1, connect: 1 });
    expect(phasesOf('{"total":5}')).toBeNull();
    expect(phasesOf(null)).toBeNull();
    expect(phasesOf('not json')).toBeNull();
  });

  it('takes quantiles by nearest rank', () => {
    const v = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(v, 0.5)).toBe(50);
    expect(quantile(v, 0.95)).toBe(95);
    expect(quantile([7], 0.95)).toBe(7);
    expect(quantile([], 0.5)).toBeNull();
  });

  it('says durations and leads as people read them', () => {
    expect(msText(840)).toBe('840 ms');
    expect(msText(2400)).toBe('2.4 s');
    expect(msText(12_000)).toBe('12 s');
    expect(agoText(40 * 60_000)).toBe('40 min');
    expect(agoText(185 * 60_000)).toBe('3 h 5 min');
    expect(agoText(120 * 60_000)).toBe('2 h');
  });

  it("makes the alert's line of the first three findings", () => {
    const f = (short: string) => ({ short, item: {} as never });
    expect(lineOf([])).toBe('');
    expect(lineOf([f('TLS handshake failing'), f('certificate replaced 40 min before'), f('2 of 3 locations'), f('x')])).toBe(
      'TLS handshake failing; certificate replaced 40 min before; 2 of 3 locations',
    );
  });
});
