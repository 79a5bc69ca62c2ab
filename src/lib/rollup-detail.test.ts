import { describe, expect, it } from 'vitest';
import { LatencySketch } from './latency-sketch.ts';
import { decodeRollupDetail, decodeRollupDetailLive, encodeRollupDetail, type RollupDetail } from './rollup-detail.ts';
import { seededRandom } from './seeded-random.ts';

const HOUR = Date.UTC(2026, 10, 24, 13);

function hourOfChecks(seed: number): RollupDetail {
  const r = seededRandom(seed);
  const sketch = new LatencySketch();
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  const phases = { dns: [0, 0], connect: [0, 0], tls: [0, 0], ttfb: [0, 0] } as Record<string, [number, number]>;
  for (let i = 0; i < 60; i++) {
    const ms = Math.round((80 + r() * 400) * 100) / 100;
    sketch.add(ms);
    sum += ms;
    min = Math.min(min, ms);
    max = Math.max(max, ms);
    for (const p of Object.keys(phases)) phases[p] = [phases[p][0] + Math.round(r() * 3000) / 100, phases[p][1] + 1];
  }
  return {
    sum_response_ms: sum,
    min_response_ms: min,
    max_response_ms: max,
    p95_response_ms: Math.round(sketch.quantile(0.95) * 100) / 100,
    last_status: 'operational',
    last_checked_at: HOUR + 3_599_123,
    response_sketch: sketch.serialize(),
    phase_sums: JSON.stringify(phases),
  };
}

/** What a reader computes from a row: the figures screens show, to the hundredth. */
const shown = (d: RollupDetail) => ({
  ...d,
  sum_response_ms: Math.round(d.sum_response_ms * 100) / 100,
  phase_sums:
    d.phase_sums === null
      ? null
      : Object.fromEntries(
          Object.entries(JSON.parse(d.phase_sums) as Record<string, [number, number]>).map(([k, [s, n]]) => [
            k,
            [Math.round(s * 100) / 100, n],
          ]),
        ),
});

describe('rollup detail codec', () => {
  it('reads back an hour of minute checks as the figures screens show, in about a fifth of the text', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const d = hourOfChecks(seed);
      const bytes = encodeRollupDetail(d, HOUR);
      const back = decodeRollupDetail(bytes, HOUR);
      expect(shown(back)).toEqual(shown(d));
      // the sketch and the percentiles it gives are exact
      expect(back.response_sketch).toBe(d.response_sketch);
      expect(bytes.length).toBeLessThan((d.response_sketch.length + d.phase_sums!.length) / 3);
    }
  });

  it('keeps empty hours, nulls and rows older than the phase sums', () => {
    const empty: RollupDetail = {
      sum_response_ms: 0,
      min_response_ms: null,
      max_response_ms: null,
      p95_response_ms: null,
      last_status: null,
      last_checked_at: null,
      response_sketch: '',
      phase_sums: null,
    };
    expect(decodeRollupDetail(encodeRollupDetail(empty, HOUR), HOUR)).toEqual(empty);
    const down = { ...empty, last_status: 'down', last_checked_at: HOUR - 5, response_sketch: 'z*3' };
    expect(decodeRollupDetail(encodeRollupDetail(down, HOUR), HOUR)).toEqual(down);
  });

  it('keeps values the compact forms cannot hold exactly, as they were', () => {
    const odd: RollupDetail = {
      sum_response_ms: 1 / 3,
      min_response_ms: 0.001,
      max_response_ms: 1e300,
      p95_response_ms: -0,
      last_status: 'paused — ünknown',
      last_checked_at: 2 ** 60,
      response_sketch: 'z,-700*2,-3,0,5*100000,69000',
      phase_sums: '{"dns":[1,1],"extra":[2,2]}',
    };
    const back = decodeRollupDetail(encodeRollupDetail(odd, HOUR), HOUR);
    expect(back).toEqual(odd);
    expect(Object.is(back.p95_response_ms, -0)).toBe(true);
  });

  it('refuses damaged values with a RangeError, never a wrong rollup', () => {
    const bytes = encodeRollupDetail(hourOfChecks(7), HOUR);
    expect(() => decodeRollupDetail(bytes.subarray(0, bytes.length - 3), HOUR)).toThrow(RangeError);
    expect(() => decodeRollupDetail(new Uint8Array([...bytes, 0]), HOUR)).toThrow(RangeError);
    expect(() => decodeRollupDetail(new Uint8Array([9, ...bytes.subarray(1)]), HOUR)).toThrow(RangeError);
  });
});

describe('the result writer path: sketch and phase sums as objects', () => {
  it('writes the same bytes as their texts and reads back the same figures', () => {
    for (const seed of [1, 2, 3]) {
      const d = hourOfChecks(seed);
      const bytes = encodeRollupDetail(d, HOUR);
      const live = decodeRollupDetailLive(bytes, HOUR);
      const read = decodeRollupDetail(bytes, HOUR);
      expect(live.sketch.serialize()).toBe(read.response_sketch);
      expect(JSON.stringify(live.phases)).toBe(read.phase_sums);
      // objects only, as the writer hands them back after adding its results
      const again = encodeRollupDetail({ ...live, response_sketch: '', phase_sums: null }, HOUR);
      expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);
      expect(decodeRollupDetail(again, HOUR)).toEqual(decodeRollupDetail(bytes, HOUR));
    }
  });

  it('keeps phase sums of another shape as their text', () => {
    const d = { ...hourOfChecks(4), phase_sums: null };
    const odd = { dns: [1.5, 2], connect: [3, 1] } as Record<string, [number, number]>;
    const bytes = encodeRollupDetail({ ...d, sketch: LatencySketch.parse(d.response_sketch), phases: odd }, HOUR);
    expect(decodeRollupDetail(bytes, HOUR).phase_sums).toBe(JSON.stringify(odd));
  });
});
