import { describe, expect, it } from 'vitest';
import { chartSummary, locationLines, locationSummary, phaseSummary, stackedPhases, timeRange } from './ResponseChart.tsx';
import type { ResponseTimes } from './monitor-page-store.ts';

const point = (checks: number, phases: { dns: number | null; connect: number | null; tls: number | null; wait: number | null }) => ({
  start: '2027-03-01T09:00:00.000Z',
  avg: null as number | null,
  p50: null,
  p95: null as number | null,
  p99: null,
  checks,
  failures: 0,
  degraded: 0,
  maintenance: 0,
  last_http_code: null,
  phases,
});
const none = { dns: null, connect: null, tls: null, wait: null };
const rt = (points: ReturnType<typeof point>[]) =>
  ({
    monitor_id: 'm',
    range: '24h',
    grain: 'hour',
    points,
    summary: { timed: 0, avg: null, p50: null, p95: null, p99: null },
    phases: { samples: 0, dns: null, connect: null, tls: null, ttfb: null, total: null },
    locations: [],
  }) as ResponseTimes;

describe('the phase chart', () => {
  it('stacks each period’s phases bottom up (a phase a period lacks adds nothing), and leaves empty periods empty', () => {
    const data = rt([
      point(10, { dns: 2, connect: 3, tls: null, wait: 5 }),
      point(0, none),
      point(4, { dns: 1, connect: 1, tls: 10, wait: 2 }),
    ]);
    expect(stackedPhases(data)).toEqual([
      [2, null, 1],
      [5, null, 2],
      [5, null, 12],
      [10, null, 14],
    ]);
  });

  it('words the range’s means per check, weighted by each period’s checks', () => {
    const data = rt([point(10, { dns: 2, connect: 3, tls: null, wait: 5 }), point(30, { dns: 6, connect: 3, tls: null, wait: 1 })]);
    expect(phaseSummary(data)).toBe('Mean per check: DNS 5 ms, Connect 3 ms, Wait 2 ms.');
    expect(phaseSummary(rt([point(0, none)]))).toBe('No phase timings in this range.');
  });
});

describe('the latency chart’s summary', () => {
  it('gives the range’s own average and percentiles, and the worst period’s p95', () => {
    const data = {
      ...rt([
        { ...point(10, none), avg: 100, p95: 400 },
        { ...point(10, none), avg: 50, p95: 90 },
      ]),
      summary: { timed: 20, avg: 75, p50: 61.2, p95: 398.7, p99: 512 },
    } as ResponseTimes;
    expect(chartSummary(data)).toBe('Over the range: average 75 ms, p50 61 ms, p95 399 ms, p99 512 ms; highest hourly p95 400 ms.');
    expect(chartSummary(rt([point(0, none)]))).toBe('No timed responses in this range.');
  });
});

describe('the chart by location', () => {
  const at = (start: string, avg: number | null) => ({ start, avg, p95: null, checks: 1, failures: avg === null ? 1 : 0 });
  const checks = {
    ...rt([0, 1, 2].map(() => point(1, none))).valueOf(),
    grain: 'check',
    points: ['2027-03-01T09:00:00.000Z', '2027-03-01T09:00:20.000Z', '2027-03-01T09:00:40.000Z'].map((start) => ({
      ...point(1, none),
      start,
    })),
    locations: [
      { slug: 'eu-west', name: 'Frankfurt', points: [at('2027-03-01T09:00:00.000Z', 20), at('2027-03-01T09:00:40.000Z', 30)] },
      { slug: 'us-east', name: 'Virginia', points: [at('2027-03-01T09:00:20.000Z', null)] },
    ],
  } as ResponseTimes;
  it('puts each location on the total time axis, null where another location checked', () => {
    expect(locationLines(checks)).toEqual([
      [20, null, 30],
      [null, null, null],
    ]);
  });
  it('says each location average in words, and which had no timed answer', () => {
    expect(locationSummary(checks)).toBe('Average by location: Frankfurt 25 ms, Virginia no timed responses.');
  });
});

describe('the time axis', () => {
  it("puts a monitor's only check in the middle of two periods, not on an axis of years", () => {
    const t = Date.UTC(2026, 10, 29, 19, 16) / 1000;
    expect(timeRange(t, t, 60)).toEqual([t - 60, t + 60]);
    expect(timeRange(t, t + 3600, 60)).toEqual([t, t + 3600]);
  });
});
