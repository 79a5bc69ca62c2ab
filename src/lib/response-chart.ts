// The response-time charts of the public status page (issue 32): the figures the server keeps
// with the page's snapshot, and the pure geometry that turns them into inline SVG (no script
// draws anything). A chart holds the mean response time per period (hour for 24 h and 7 d, day
// for 30 d) of the component's total and, when its company shows locations, of each location.
// Pure; imports nothing of ours.

export const CHART_RANGES = ['24h', '7d', '30d'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];

/** Periods and their length per range: hourly rollups for 24 h and 7 d, daily ones for 30 d. */
export const RANGE_PERIODS: Record<ChartRange, { periods: number; grain: 'hour' | 'day' }> = {
  '24h': { periods: 24, grain: 'hour' },
  '7d': { periods: 7 * 24, grain: 'hour' },
  '30d': { periods: 30, grain: 'day' },
};

/** One line: the component's total, or one location's. */
export interface ChartSeries {
  /** the component's total (the monitor's own rollups), or one location's line */
  total: boolean;
  /** a location's public name; null for the total and for a location no longer known */
  name: string | null;
  /** mean response time (ms) of each period, oldest first; null: no timed check in it */
  points: Array<number | null>;
}

export interface ChartRangeView {
  range: ChartRange;
  /** start (ms) of the first period */
  first: number;
  /** the total first, then each location in location order */
  series: ChartSeries[];
}

export interface ResponseChartView {
  monitorId: string;
  /** the component's public name */
  name: string;
  ranges: ChartRangeView[];
}

/** Drawing box of a chart (viewBox units; the SVG scales to its container's width). */
export const CHART_WIDTH = 600;
export const CHART_HEIGHT = 120;

/** Line colours: the total first, then locations (each distinct on light and dark cards). */
export const SERIES_COLOURS = ['#2563eb', '#d97706', '#16a34a', '#9333ea', '#dc2626', '#0891b2', '#65a30d', '#db2777'] as const;

export const seriesColour = (i: number): string => SERIES_COLOURS[i % SERIES_COLOURS.length];

/** The top of the y axis: the largest value rounded up to 1, 2, 2.5 or 5 times a power of ten (0 without data). */
export function niceMax(values: Iterable<number | null>): number {
  let max = 0;
  for (const v of values) if (v !== null && v > max) max = v;
  if (max <= 0) return 0;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= max) return m * power;
  return 10 * power;
}

const one = (v: number): string => {
  const r = Math.round(v * 10) / 10;
  return Object.is(r, -0) ? '0' : String(r);
};

/**
 * The SVG path of one series: x spread over `width` (one step per period, the first at 0),
 * y from `height` (0 ms) up to 0 (`max`). A period without data breaks the line; a period alone
 * between gaps is a dot (a zero-length segment, drawn by round caps). Absolute moves, relative
 * lines with one decimal: the shortest text for a long series.
 */
export function seriesPath(points: ReadonlyArray<number | null>, max: number, width = CHART_WIDTH, height = CHART_HEIGHT): string {
  if (max <= 0) return '';
  const step = points.length > 1 ? width / (points.length - 1) : 0;
  const yOf = (v: number) => Math.round((height - (Math.min(v, max) / max) * height) * 10) / 10;
  let d = '';
  let prev: { x: number; y: number } | null = null;
  for (let i = 0; i < points.length; i++) {
    const v = points[i];
    if (v === null) {
      prev = null;
      continue;
    }
    const x = Math.round(i * step * 10) / 10;
    const y = yOf(v);
    if (prev === null) {
      d += `M${one(x)} ${one(y)}`;
      const next = points[i + 1];
      if (next === null || next === undefined) d += 'h0';
    } else d += `l${one(x - prev.x)} ${one(y - prev.y)}`;
    prev = { x, y };
  }
  return d;
}

/**
 * Reads a path of seriesPath back into values (for tests and checks): one per point drawn,
 * in ms, with the period index each stands at.
 */
export function readPath(
  d: string,
  max: number,
  periods: number,
  width = CHART_WIDTH,
  height = CHART_HEIGHT,
): Array<{ index: number; ms: number }> {
  const step = periods > 1 ? width / (periods - 1) : 0;
  const out: Array<{ index: number; ms: number }> = [];
  let x = 0;
  let y = 0;
  const push = () => out.push({ index: step ? Math.round(x / step) : 0, ms: ((height - y) / height) * max });
  for (const m of d.matchAll(/([Mlh])(-?[\d.]+)(?:\s(-?[\d.]+))?/g)) {
    if (m[1] === 'M') {
      x = Number(m[2]);
      y = Number(m[3]);
      push();
    } else if (m[1] === 'l') {
      x += Number(m[2]);
      y += Number(m[3]);
      push();
    }
  }
  return out;
}

/** Mean, lowest and highest of a series' periods with data (null without any). */
export function seriesSummary(points: ReadonlyArray<number | null>): { mean: number; min: number; max: number } | null {
  let n = 0;
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  for (const v of points) {
    if (v === null) continue;
    n += 1;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return n === 0 ? null : { mean: sum / n, min, max };
}

/** Whether a range has any data to draw. */
export const hasData = (r: ChartRangeView): boolean => r.series.some((s) => s.points.some((v) => v !== null));
