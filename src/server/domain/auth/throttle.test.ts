import { describe, expect, it } from 'vitest';
import { SlidingWindow } from './throttle.ts';

describe('sliding window', () => {
  it('allows `limit` hits per window and says how long to wait after that', () => {
    const w = new SlidingWindow(3, 60_000);
    const t0 = 1_000_000;
    expect(w.retryAfter('a', t0)).toBe(0);
    w.hit('a', t0);
    w.hit('a', t0 + 10_000);
    w.hit('a', t0 + 20_000);
    expect(w.retryAfter('a', t0 + 20_000)).toBe(40);
    expect(w.retryAfter('b', t0 + 20_000)).toBe(0);
    // the oldest hit leaves the window: one more is allowed
    expect(w.retryAfter('a', t0 + 60_001)).toBe(0);
    w.hit('a', t0 + 60_001);
    expect(w.retryAfter('a', t0 + 60_001)).toBe(10);
    w.clear('a');
    expect(w.retryAfter('a', t0 + 60_001)).toBe(0);
  });

  it('never answers less than a second while limited', () => {
    const w = new SlidingWindow(1, 1000);
    w.hit('k', 5000);
    expect(w.retryAfter('k', 5999)).toBe(1);
    expect(w.retryAfter('k', 6000)).toBe(0);
  });
});
