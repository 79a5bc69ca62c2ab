import { describe, expect, it } from 'vitest';
import { LatencySketch, MAX_VALUE, RELATIVE_ACCURACY, keyOf, valueOfKey } from './latency-sketch.ts';

/** Nearest-rank quantile of raw values: what the sketch promises to approximate. */
function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1];
}

function rng(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const QS = [0, 0.01, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99, 0.999, 1];

describe('latency sketch', () => {
  it('reads every bucket back within 1 % of any value in it', () => {
    for (const v of [1e-5, 0.0123, 0.5, 1, 1.0001, 3.7, 99.99, 100, 400, 401.3, 12_345, 3.6e6, 1e12, 1e200]) {
      const back = valueOfKey(keyOf(v));
      expect(Math.abs(back - v) / v, String(v)).toBeLessThanOrEqual(RELATIVE_ACCURACY + 1e-12);
    }
  });

  it.each([
    ['uniform 0-1200 ms', (r: () => number) => r() * 1200],
    ['log-normal around 40 ms', (r: () => number) => Math.exp(Math.log(40) + 1.5 * (r() + r() + r() - 1.5))],
    ['bimodal: cache hits and misses', (r: () => number) => (r() < 0.8 ? 2 + r() : 380 + r() * 40)],
    ['whole milliseconds', (r: () => number) => Math.round(r() * 30)],
  ])('keeps every quantile of %s within one percent of exact', (_, draw) => {
    const r = rng(11);
    const values = Array.from({ length: 20_000 }, () => draw(r));
    const s = new LatencySketch();
    for (const v of values) s.add(v);
    for (const q of QS) {
      const want = exact(values, q);
      const got = s.quantile(q);
      if (want === 0) expect(got).toBe(0);
      else expect(Math.abs(got - want) / want, `q=${q}`).toBeLessThanOrEqual(RELATIVE_ACCURACY + 1e-12);
    }
  });

  it('says about 400 ms for spans whose exact p95 is 400 ms (the fixed buckets said 500)', () => {
    const values = [...Array.from({ length: 95 }, (_, i) => 100 + i * 3), ...Array.from({ length: 5 }, () => 900)];
    values[94] = 400;
    const s = new LatencySketch();
    for (const v of values) s.add(v);
    expect(exact(values, 0.95)).toBe(400);
    expect(s.quantile(0.95)).toBeGreaterThan(396);
    expect(s.quantile(0.95)).toBeLessThan(404);
  });

  it('merges: sketches of parts equal the sketch of the whole, in any order', () => {
    const r = rng(3);
    const values = Array.from({ length: 5000 }, () => r() * 2000);
    const whole = new LatencySketch();
    for (const v of values) whole.add(v);
    const parts = [new LatencySketch(), new LatencySketch(), new LatencySketch()];
    values.forEach((v, i) => parts[i % 3].add(v));
    const merged = new LatencySketch();
    for (const p of [parts[2], parts[0], parts[1]]) merged.merge(p);
    expect(merged.total).toBe(5000);
    expect(merged.serialize()).toBe(whole.serialize());
    for (const q of QS) expect(merged.quantile(q)).toBe(whole.quantile(q));
  });

  it('serialises compactly and parses back; joined texts parse as the merge', () => {
    const a = new LatencySketch();
    for (const v of [0, 0, 5, 5, 5, 400]) a.add(v);
    expect(a.serialize()).toBe(`z*2,${keyOf(5)}*3,${keyOf(400)}`);
    const b = new LatencySketch();
    for (const v of [5, 1e9]) b.add(v);
    const back = LatencySketch.parse(a.serialize());
    expect(back.serialize()).toBe(a.serialize());
    expect(back.total).toBe(6);
    const joined = LatencySketch.parse(`${a.serialize()},${b.serialize()}`);
    const merged = LatencySketch.parse(a.serialize());
    merged.merge(b);
    expect(joined.serialize()).toBe(merged.serialize());
    expect(joined.total).toBe(8);
    // 1000 requests in one minute all near 120 ms: a handful of characters, not a column each.
    const busy = new LatencySketch();
    for (let i = 0; i < 1000; i++) busy.add(119 + (i % 5) * 0.5);
    expect(busy.serialize().length).toBeLessThan(30);
    expect(LatencySketch.parse('').total).toBe(0);
    expect(LatencySketch.parse(',,12,junk,13*x,14*-2,z*3').total).toBe(4);
  });

  it('edge values: 0 ms reads 0, huge and infinite values stay finite, empty reads 0', () => {
    const s = new LatencySketch();
    expect(s.quantile(0.95)).toBe(0);
    s.add(0);
    s.add(-3);
    s.add(Number.NaN);
    expect(s.quantile(1)).toBe(0);
    s.add(1e9); // 11.5 days
    expect(Math.abs(s.quantile(1) - 1e9) / 1e9).toBeLessThanOrEqual(RELATIVE_ACCURACY);
    s.add(Infinity);
    s.add(Number.MAX_VALUE);
    expect(Number.isFinite(s.quantile(1))).toBe(true);
    expect(Math.abs(s.quantile(1) - MAX_VALUE) / MAX_VALUE).toBeLessThanOrEqual(RELATIVE_ACCURACY);
    expect(LatencySketch.parse(s.serialize()).quantile(1)).toBe(s.quantile(1));
    expect(s.total).toBe(6);
  });
});
