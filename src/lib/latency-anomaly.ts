// Latency anomalies against a seasonal baseline (issue 33, item 2): the maths, pure (no I/O, `now`
// is an argument). One series is one monitor, one monitor's location or one API endpoint, as a
// value per hourly window (the median latency of the hour, from its stored sketch).
//
// A window is compared with the same hour of the day on earlier days (daily seasonality) and, once
// three weeks of it exist, with the same hour of the same weekday (weekly seasonality): the level
// is the median of those, the spread their median absolute deviation (MAD), both robust to the
// odd bad hour in the history. A window is anomalous when it is both many spreads and a good part
// above its level; an episode needs a run of consecutive anomalous windows, and ends after a run
// of normal ones, so one slow hour never raises anything (quiet by default). Only slower counts:
// a faster service is not an incident. Hours are UTC: a day-of-week profile shifts by an hour
// across a daylight-saving change, which the spread absorbs.

export const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;
/** 1.4826 × MAD estimates the standard deviation of normally distributed values */
const MAD_TO_SIGMA = 1.4826;

export type Sensitivity = 'low' | 'normal' | 'high';
export const SENSITIVITIES: readonly Sensitivity[] = ['low', 'normal', 'high'];

export interface DetectorOptions {
  /** Length of one window (ms) */
  windowMs: number;
  /** How many robust standard deviations above the level make a window anomalous */
  threshold: number;
  /** …and by how much above the level at least (0.5: 50 % slower), so a very steady series does not alert on noise */
  minRatio: number;
  /** Consecutive anomalous windows before an episode starts */
  run: number;
  /** Consecutive normal windows that end an episode */
  clearRun: number;
  /** Earlier same-hour windows needed before a window is judged at all (the minimum history) */
  minSamples: number;
  /** How far back the baseline looks (ms) */
  lookbackMs: number;
}

/**
 * The defaults per sensitivity, tuned on the generated series of bench/anomalies/run.ts so that
 * `normal` raises nothing on a clean week: a tripled noise still stays below 5 spreads and 40 %.
 */
export const SENSITIVITY_OPTIONS: Record<Sensitivity, DetectorOptions> = {
  low: { windowMs: HOUR_MS, threshold: 7, minRatio: 0.6, run: 4, clearRun: 2, minSamples: 7, lookbackMs: 4 * WEEK_MS },
  normal: { windowMs: HOUR_MS, threshold: 5, minRatio: 0.4, run: 3, clearRun: 2, minSamples: 7, lookbackMs: 4 * WEEK_MS },
  high: { windowMs: HOUR_MS, threshold: 3.5, minRatio: 0.25, run: 2, clearRun: 2, minSamples: 7, lookbackMs: 4 * WEEK_MS },
};

export interface LatencyPoint {
  /** Start of the window (ms, aligned to windowMs) */
  start: number;
  /** Its latency (ms), e.g. the median of the hour */
  value: number;
}

export interface Baseline {
  /** The expected latency of the window (ms) */
  level: number;
  /** Robust standard deviation around it (ms), never below a floor (see spreadFloor) */
  spread: number;
  /** How many earlier windows it was computed from */
  samples: number;
  /** Which seasonality the level comes from */
  season: 'hour_of_week' | 'hour_of_day';
}

export interface JudgedWindow extends LatencyPoint {
  baseline: Baseline | null;
  /** (value − level) / spread; null without a baseline */
  deviation: number | null;
  anomalous: boolean;
}

export interface Episode {
  /** Start of its first anomalous window */
  start: number;
  /** End of its last anomalous window; null while it goes on */
  end: number | null;
  /** The windows of the run that raised it, then every anomalous one after */
  windows: JudgedWindow[];
  /** The most deviating of them: what the notification reports */
  worst: JudgedWindow;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function mad(values: readonly number[], centre = median(values)): number {
  return median(values.map((v) => Math.abs(v - centre)));
}

/** Below this spread the series is steadier than its measurement: 5 % of the level or half a millisecond. */
function spreadFloor(level: number): number {
  return Math.max(0.05 * level, 0.5);
}

/**
 * The baseline of the window starting at `start` from `history` (any order; only windows that
 * ended a day or more before `start` count, so a running anomaly never feeds its own baseline
 * during its first day), or null below the minimum history.
 */
export function baselineAt(history: readonly LatencyPoint[], start: number, o: DetectorOptions): Baseline | null {
  const sameHour: number[] = [];
  const sameWeekHour: number[] = [];
  const from = start - o.lookbackMs;
  for (const p of history) {
    if (p.start < from || p.start > start - DAY_MS) continue;
    const ago = start - p.start;
    if (ago % DAY_MS !== 0 || !Number.isFinite(p.value)) continue;
    sameHour.push(p.value);
    if (ago % WEEK_MS === 0) sameWeekHour.push(p.value);
  }
  if (sameHour.length < o.minSamples) return null;
  const daily = median(sameHour);
  const weekly = sameWeekHour.length >= 3 ? median(sameWeekHour) : null;
  const level = weekly ?? daily;
  const spreads = [MAD_TO_SIGMA * mad(sameHour, daily), spreadFloor(level)];
  if (weekly !== null) spreads.push(MAD_TO_SIGMA * mad(sameWeekHour, weekly));
  return {
    level,
    spread: Math.max(...spreads),
    samples: weekly !== null ? sameWeekHour.length : sameHour.length,
    season: weekly !== null ? 'hour_of_week' : 'hour_of_day',
  };
}

export function judge(history: readonly LatencyPoint[], p: LatencyPoint, o: DetectorOptions): JudgedWindow {
  const baseline = baselineAt(history, p.start, o);
  if (!baseline) return { ...p, baseline, deviation: null, anomalous: false };
  const deviation = (p.value - baseline.level) / baseline.spread;
  const anomalous = deviation >= o.threshold && p.value >= baseline.level * (1 + o.minRatio);
  return { ...p, baseline, deviation, anomalous };
}

/**
 * The episodes among the windows of `series` that started at or after `from` and ended by `now`
 * (the whole series is the history). A missing window breaks a run either way: no evidence is
 * neither slow nor fast. The last episode has `end: null` while its clearing run is not complete.
 */
export function findEpisodes(series: readonly LatencyPoint[], from: number, now: number, o: DetectorOptions): Episode[] {
  const sorted = [...series].sort((a, b) => a.start - b.start);
  const episodes: Episode[] = [];
  let run: JudgedWindow[] = [];
  let open: Episode | null = null;
  let normal = 0;
  let lastStart = Number.NEGATIVE_INFINITY;
  for (const p of sorted) {
    if (p.start < from || p.start + o.windowMs > now) continue;
    const w = judge(sorted, p, o);
    const contiguous = p.start - lastStart === o.windowMs;
    lastStart = p.start;
    if (!contiguous) {
      run = [];
      if (open) {
        if (normal === 0) open.end = endOf(open, o);
        normal = o.clearRun;
      }
    }
    if (open && normal >= o.clearRun) {
      episodes.push(open);
      open = null;
    }
    if (w.anomalous) {
      normal = 0;
      if (open) {
        open.windows.push(w);
        open.end = null;
        if ((w.deviation ?? 0) > (open.worst.deviation ?? 0)) open.worst = w;
        continue;
      }
      run.push(w);
      if (run.length >= o.run) {
        const worst = run.reduce((a, b) => ((b.deviation ?? 0) > (a.deviation ?? 0) ? b : a));
        open = { start: run[0].start, end: null, windows: run, worst };
        run = [];
      }
      continue;
    }
    run = [];
    if (open) {
      if (normal === 0) open.end = endOf(open, o);
      normal += 1;
    }
  }
  if (open) {
    if (normal < o.clearRun) open.end = null;
    episodes.push(open);
  }
  return episodes;
}

const endOf = (e: Episode, o: DetectorOptions) => e.windows[e.windows.length - 1].start + o.windowMs;

/**
 * The episode going on at `now` (its last windows are anomalous, or not yet enough normal ones),
 * or null. A series that stopped (a paused monitor, an endpoint no longer called) ends its
 * episode once the clearing run's time has passed without windows.
 */
export function currentEpisode(series: readonly LatencyPoint[], from: number, now: number, o: DetectorOptions): Episode | null {
  const last = findEpisodes(series, from, now, o).at(-1);
  if (!last || last.end !== null) return null;
  return endOf(last, o) + (o.clearRun + 1) * o.windowMs <= now ? null : last;
}
