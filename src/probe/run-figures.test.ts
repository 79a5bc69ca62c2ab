import { describe, expect, it } from 'vitest';
import { RunFigures } from './run-figures.ts';
import { ProbeScheduler } from './scheduler.ts';

describe('the run figures', () => {
  it('gives the lag quantiles of every check of the run', () => {
    const f = new RunFigures();
    for (let i = 1; i <= 1000; i++) f.lag.add(i === 1000 ? 950 : i % 10);
    expect(f.lag.quantile(0.5)).toBe(5);
    expect(f.lag.quantile(0.99)).toBe(9);
    expect(f.lag.max).toBe(950);
    expect(f.summary()).toMatch(/1000 checks .* lag p50 5 ms p99 9 ms max 950 ms; 0 results delivered in 0 calls/);
  });
});

describe('the spread of a monitor over its locations', () => {
  const at = (key: string, id: string) => {
    const s = new ProbeScheduler(
      () => {
        throw new Error('not run');
      },
      () => {},
      () => {},
    );
    s.spreadKey = key;
    s.upsert({ id, type: 'http', config: {}, interval_seconds: 60, timeout_seconds: 5 } as never);
    return (s as unknown as { heap: Array<{ due: number }> }).heap[0].due % 60_000;
  };
  it('checks one monitor from two locations at different points of its interval, each the same every time', () => {
    const ids = Array.from({ length: 20 }, (_, i) => `monitor-${i}`);
    const apart = ids.filter((id) => at('eu-west', id) !== at('us-east', id));
    expect(apart.length).toBeGreaterThanOrEqual(19);
    expect(ids.map((id) => at('eu-west', id))).toEqual(ids.map((id) => at('eu-west', id)));
  });
});
