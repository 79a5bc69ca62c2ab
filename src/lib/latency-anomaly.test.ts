import { describe, expect, it } from 'vitest';
import { generateSeries, MONDAY } from '../../bench/anomalies/series.ts';
import {
  baselineAt,
  currentEpisode,
  findEpisodes,
  HOUR_MS,
  judge,
  mad,
  median,
  SENSITIVITY_OPTIONS,
  type LatencyPoint,
} from './latency-anomaly.ts';

const DAY = 24 * HOUR_MS;
const normal = SENSITIVITY_OPTIONS.normal;
/** Flat 100 ms hours with ±2 ms of alternating noise, `days` days from MONDAY */
const flat = (days: number, value = (i: number) => 100 + (i % 2 ? 2 : -2)): LatencyPoint[] =>
  Array.from({ length: days * 24 }, (_, i) => ({ start: MONDAY + i * HOUR_MS, value: value(i) }));

describe('robust statistics', () => {
  it.each([
    [[3, 1, 2], 2],
    [[4, 1, 2, 3], 2.5],
    [[5], 5],
  ])('median of %j is %d', (values, want) => expect(median(values)).toBe(want));

  it('MAD ignores one wild value', () => {
    expect(mad([10, 11, 9, 10, 1000])).toBe(1);
  });
});

describe('baseline', () => {
  it('needs the minimum history of the same hour on earlier days', () => {
    const s = flat(6);
    expect(baselineAt(s, MONDAY + 6 * DAY, normal)).toBeNull();
    expect(baselineAt(flat(7), MONDAY + 7 * DAY, normal)).toMatchObject({ level: 98, season: 'hour_of_day', samples: 7 });
  });

  it('follows the hour of the day: a busy hour is compared with busy hours', () => {
    const s = flat(10, (i) => (i % 24 === 14 ? 300 : 100));
    expect(baselineAt(s, MONDAY + 10 * DAY + 14 * HOUR_MS, normal)?.level).toBe(300);
    expect(baselineAt(s, MONDAY + 10 * DAY + 13 * HOUR_MS, normal)?.level).toBe(100);
  });

  it('follows the day of the week once three weeks of it exist', () => {
    // Saturdays (day 5 of each week) are twice as slow.
    const s = flat(21, (i) => (Math.floor(i / 24) % 7 === 5 ? 200 : 100));
    const b = baselineAt(s, MONDAY + 26 * DAY, normal);
    expect(b).toMatchObject({ level: 200, season: 'hour_of_week', samples: 3 });
  });

  it('never judges a window against the day it is in', () => {
    const s = flat(8);
    s.push({ start: MONDAY + 8 * DAY - HOUR_MS, value: 5000 });
    expect(baselineAt(s, MONDAY + 8 * DAY, normal)?.level).toBe(98);
  });
});

describe('judging windows', () => {
  const history = flat(14);
  const at = MONDAY + 14 * DAY;

  it('a much slower hour is anomalous, with its deviation in spreads', () => {
    const w = judge(history, { start: at, value: 250 }, normal);
    expect(w.anomalous).toBe(true);
    expect(w.deviation).toBeGreaterThan(normal.threshold);
  });

  it('a faster hour is never anomalous', () => {
    expect(judge(history, { start: at, value: 10 }, normal).anomalous).toBe(false);
  });

  it('many spreads but a small part above the level is not anomalous (a very steady series)', () => {
    const steady = flat(14, () => 100);
    expect(judge(steady, { start: at, value: 130 }, normal).anomalous).toBe(false);
    expect(judge(steady, { start: at, value: 150 }, normal).anomalous).toBe(true);
  });
});

describe('episodes', () => {
  const history = flat(14);
  const at = MONDAY + 14 * DAY;
  const withSlow = (hours: number, value = 400) => [
    ...history,
    ...Array.from({ length: hours }, (_, i) => ({ start: at + i * HOUR_MS, value })),
  ];

  it('one or two slow hours raise nothing: a run of three does', () => {
    expect(findEpisodes(withSlow(2), at, at + 10 * HOUR_MS, normal)).toEqual([]);
    const [e] = findEpisodes(withSlow(3), at, at + 3 * HOUR_MS, normal);
    expect(e).toMatchObject({ start: at, end: null });
    expect(e.worst.value).toBe(400);
  });

  it('the episode ends after two normal hours, at the end of its last slow hour', () => {
    const s = [...withSlow(4), { start: at + 4 * HOUR_MS, value: 100 }, { start: at + 5 * HOUR_MS, value: 100 }];
    expect(currentEpisode(s, at, at + 5 * HOUR_MS, normal)).not.toBeNull();
    expect(findEpisodes(s, at, at + 6 * HOUR_MS, normal)).toMatchObject([{ start: at, end: at + 4 * HOUR_MS }]);
    expect(currentEpisode(s, at, at + 6 * HOUR_MS, normal)).toBeNull();
  });

  it('a missing hour breaks the run', () => {
    const s = [...history, { start: at, value: 400 }, { start: at + HOUR_MS, value: 400 }, { start: at + 3 * HOUR_MS, value: 400 }];
    expect(findEpisodes(s, at, at + 4 * HOUR_MS, normal)).toEqual([]);
  });

  it('windows not yet over are not judged', () => {
    expect(findEpisodes(withSlow(3), at, at + 3 * HOUR_MS - 1, normal)).toEqual([]);
  });

  it('a series that stopped ends its episode', () => {
    expect(currentEpisode(withSlow(3), at, at + 3 * HOUR_MS, normal)).not.toBeNull();
    expect(currentEpisode(withSlow(3), at, at + 6 * HOUR_MS, normal)).toBeNull();
  });

  it('nothing at all below the minimum history, however slow', () => {
    const s = [...flat(3), ...Array.from({ length: 10 }, (_, i) => ({ start: MONDAY + 3 * DAY + i * HOUR_MS, value: 5000 }))];
    expect(findEpisodes(s, MONDAY, MONDAY + 4 * DAY, SENSITIVITY_OPTIONS.high)).toEqual([]);
  });
});

describe('on generated seasonal series', () => {
  const judged = MONDAY + 21 * DAY;
  const end = MONDAY + 28 * DAY;

  it.each([1, 2, 3, 4, 5])('a clean week (seed %d) raises nothing at the default sensitivity', (seed) => {
    const s = generateSeries({ seed, t0: MONDAY, weeks: 4, base: 120, noise: 0.1, injected: [] });
    expect(findEpisodes(s, judged, end, normal)).toEqual([]);
  });

  it('a level shift on Wednesday afternoon raises one episode starting within its first hours', () => {
    const start = judged + 2 * DAY + 15 * HOUR_MS;
    const s = generateSeries({
      seed: 7,
      t0: MONDAY,
      weeks: 4,
      base: 120,
      noise: 0.1,
      injected: [{ kind: 'level_shift', start, end: start + 23 * HOUR_MS, factor: 2 }],
    });
    const episodes = findEpisodes(s, judged, end, normal);
    expect(episodes).toHaveLength(1);
    expect(episodes[0].start).toBeGreaterThanOrEqual(start);
    expect(episodes[0].start).toBeLessThanOrEqual(start + 2 * HOUR_MS);
  });
});
