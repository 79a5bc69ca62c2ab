// The monitor page's response-time chart: average and p95 per hour or day, or the mean time of
// each phase (DNS, connect, TLS, wait for the first byte) stacked per hour or day, drawn by uPlot
// (about 50 KB, canvas, fast with thousands of points, kept up to date, no dependencies). The
// library is imported here on first draw, so only the monitor page ever loads it. Its layout
// rules live in monitors.css: a stylesheet imported on demand is not served by the built app.
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { t } from '../../i18n.ts';
import { fmtNumber } from '../../ui/format.ts';
import type { ResponseTimes } from './monitor-page-store.ts';

const HEIGHT = 240;

export type ChartMode = 'latency' | 'phases' | 'locations';

/** Colours of the locations' lines, in the API's order (the total is drawn in the brand colour). */
export const LOCATION_COLOURS = ['#b45309', '#7c3aed', '#be123c', '#15803d', '#0369a1', '#a16207', '#9333ea', '#4d7c0f'];

/** The stacked phases, bottom first, with their colours (names: monitors.phase.<key>). */
export const PHASE_SERIES = [
  ['dns', '#7c3aed'],
  ['connect', '#0e7490'],
  ['tls', '#15803d'],
  ['wait', '#b45309'],
] as const;

type PhaseKey = (typeof PHASE_SERIES)[number][0];

/** Each phase's top edge: its mean plus those below it (null where the period had no timed check). */
export function stackedPhases(rt: ResponseTimes): Array<Array<number | null>> {
  const tops = rt.points.map((p) => {
    if (PHASE_SERIES.every(([k]) => p.phases[k] === null)) return PHASE_SERIES.map(() => null);
    let sum = 0;
    return PHASE_SERIES.map(([k]) => (sum += p.phases[k] ?? 0));
  });
  return PHASE_SERIES.map((_, i) => tops.map((t) => t[i]));
}

/**
 * Each location's average on the total's time axis: periods line up one to one; single checks
 * sit at their own time (null at the other locations' checks, the line spans the gaps).
 */
export function locationLines(rt: ResponseTimes): Array<Array<number | null>> {
  return rt.locations.map((l) => {
    const at = new Map(l.points.map((p) => [p.start, p.avg]));
    return rt.points.map((p) => at.get(p.start) ?? null);
  });
}

/** Each location's average over the range, in words. */
export function locationSummary(rt: ResponseTimes): string {
  const parts = rt.locations.flatMap((l) => {
    const timed = l.points.filter((p) => p.avg !== null);
    const n = timed.reduce((a, p) => a + p.checks, 0);
    if (n === 0) return [t('monitors.chart.locationUntimed', { name: l.name })];
    return [t('monitors.chart.locationMs', { name: l.name, ms: fmtNumber(timed.reduce((a, p) => a + (p.avg ?? 0) * p.checks, 0) / n) })];
  });
  return parts.length ? t('monitors.chart.byLocation', { parts: parts.join(', ') }) : t('monitors.chart.noLocation');
}

function chartData(rt: ResponseTimes, mode: ChartMode): uPlot.AlignedData {
  const x = rt.points.map((p) => Date.parse(p.start) / 1000);
  if (mode === 'phases') return [x, ...stackedPhases(rt).reverse()];
  // Check by check each point is one location's check: a "total" line would only zigzag between them.
  if (mode === 'locations')
    return rt.grain === 'check' ? [x, ...locationLines(rt)] : [x, rt.points.map((p) => p.avg), ...locationLines(rt)];
  return [x, rt.points.map((p) => p.avg), rt.points.map((p) => p.p95)];
}

/** The range's mean of each phase, weighted by each period's checks, in words. */
export function phaseSummary(rt: ResponseTimes): string {
  const parts = PHASE_SERIES.flatMap(([k]: readonly [PhaseKey, string]) => {
    const with_ = rt.points.filter((p) => p.phases[k] !== null);
    const n = with_.reduce((a, p) => a + p.checks, 0);
    if (n === 0) return [];
    return [
      t('monitors.chart.locationMs', {
        name: phaseName(k),
        ms: fmtNumber(with_.reduce((a, p) => a + (p.phases[k] ?? 0) * p.checks, 0) / n),
      }),
    ];
  });
  return parts.length ? t('monitors.chart.perCheck', { parts: parts.join(', ') }) : t('monitors.page.noPhases');
}

/** The figures the canvas shows, in words, for screen readers and as the chart's caption. */
export function chartSummary(rt: ResponseTimes): string {
  const timed = rt.points.filter((p) => p.avg !== null);
  const all = rt.summary;
  if (timed.length === 0 || all.avg === null) return t('monitors.chart.noTimed');
  const q = (v: number | null) => fmtNumber(v ?? 0);
  if (rt.grain === 'check')
    return t('monitors.chart.checksSummary', {
      timed: timed.length,
      count: rt.points.length,
      avg: q(all.avg),
      p50: q(all.p50),
      p95: q(all.p95),
      slowest: q(Math.max(...timed.map((p) => p.avg ?? 0))),
    });
  const worst = Math.max(...timed.map((p) => p.p95 ?? 0));
  return t('monitors.chart.rangeSummary', {
    avg: q(all.avg),
    p50: q(all.p50),
    p95: q(all.p95),
    p99: q(all.p99),
    grain: rt.grain,
    worst: q(worst),
  });
}

const ms = (_u: uPlot, v: number | null) => (v == null ? '—' : t('monitors.ms', { ms: fmtNumber(v) }));
const phaseName = (k: PhaseKey) => t(`monitors.phase.${k}`);

function latencySeries(avgColour: string): uPlot.Series[] {
  return [
    {},
    { label: t('monitors.chart.average'), stroke: avgColour, width: 2, points: { show: true, size: 5, fill: avgColour }, value: ms },
    { label: 'p95', stroke: '#b45309', width: 1.5, dash: [6, 4], points: { show: true, size: 4, fill: '#b45309' }, value: ms },
  ];
}

function locationSeriesOf(rt: ResponseTimes, totalColour: string): uPlot.Series[] {
  return [
    {},
    ...(rt.grain === 'check'
      ? []
      : [{ label: t('monitors.phase.total'), stroke: totalColour, width: 2.5, points: { show: false }, value: ms, spanGaps: true }]),
    ...rt.locations.map((l, i) => {
      const colour = LOCATION_COLOURS[i % LOCATION_COLOURS.length];
      return { label: l.name, stroke: colour, width: 1.5, points: { show: true, size: 4, fill: colour }, value: ms, spanGaps: true };
    }),
  ];
}

/** A bar's width in time: the period, or for single checks the mean gap between them. */
function stepSecondsOf(rt: ResponseTimes): number {
  if (rt.grain === 'hour') return 3600;
  if (rt.grain === 'day') return 86_400;
  const times = rt.points.map((p) => Date.parse(p.start) / 1000);
  return times.length > 1 ? (times[times.length - 1] - times[0]) / (times.length - 1) : 60;
}

/**
 * The time axis around the points: a single point (a monitor's first check) gets a period either
 * side, where uPlot's own range for equal ends spread one point over years.
 */
export function timeRange(min: number, max: number, stepSeconds: number): [number, number] {
  return min === max ? [min - stepSeconds, max + stepSeconds] : [min, max];
}

/**
 * The time axis as numbers, not uPlot's range callback: with one check uPlot widened equal ends
 * before calling it and spread the point over 2027-2029 (seen on a new monitor's page).
 */
function fixedTimeRange(rt: ResponseTimes): [number, number] | undefined {
  const xs = rt.points.map((p) => Date.parse(p.start) / 1000);
  return xs.length ? timeRange(Math.min(...xs), Math.max(...xs), stepSecondsOf(rt)) : undefined;
}

export function phaseScales(stepSeconds: number): uPlot.Scales {
  return {
    x: { time: true, range: (_u, min, max) => [min - stepSeconds / 2, max + stepSeconds / 2] },
    y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] },
  };
}

/** Stacked bars, one per period: each phase's bar reaches its top edge and the lower ones cover it. */
function phaseSeries(bars: uPlot.Series.PathBuilder): uPlot.Series[] {
  return stackedSeries(
    PHASE_SERIES.map(([k, colour]) => [phaseName(k), colour]),
    bars,
  );
}

/**
 * The series of stacked bars, bottom first in `layers` (drawn top first, so each lower layer covers
 * the one above it up to its own top edge); also the monitor page's per-step chart (steps/).
 */
export function stackedSeries(
  layers: ReadonlyArray<readonly [label: string, colour: string]>,
  bars: uPlot.Series.PathBuilder,
): uPlot.Series[] {
  return [
    {},
    ...[...layers]
      .reverse()
      .map(([label, colour]) => ({ label, stroke: colour, fill: colour, width: 0, paths: bars, points: { show: false }, value: ms })),
  ];
}

export function ResponseChart({ data, label, mode = 'latency' }: { data: ResponseTimes; label: string; mode?: ChartMode }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let plot: uPlot | null = null;
    let gone = false;
    const el = box.current;
    const resize = () => plot?.setSize({ width: el?.clientWidth ?? 300, height: HEIGHT });
    void import('uplot')
      .then(({ default: UPlot }) => {
        if (gone || !el) return;
        const styles = getComputedStyle(el);
        const avgColour = styles.getPropertyValue('--brand-strong').trim() || '#1d4ed8';
        plot = new UPlot(
          {
            width: el.clientWidth || 300,
            height: HEIGHT,
            legend: { show: false },
            // bars start at zero with some room above, and the first and last bars show whole
            scales: mode === 'phases' ? phaseScales(stepSecondsOf(data)) : { x: { time: true, range: fixedTimeRange(data) } },
            axes: [{}, { values: (_u, ticks) => ticks.map((tick) => t('monitors.ms', { ms: tick })), size: 64 }],
            series:
              mode === 'phases'
                ? phaseSeries(UPlot.paths.bars!({ size: [0.7, 48] }))
                : mode === 'locations'
                  ? locationSeriesOf(data, avgColour)
                  : latencySeries(avgColour),
          },
          chartData(data, mode),
          el,
        );
        window.addEventListener('resize', resize);
      })
      .catch((e: unknown) => {
        console.error('response chart', e);
        setFailed(true);
      });
    return () => {
      gone = true;
      window.removeEventListener('resize', resize);
      plot?.destroy();
    };
  }, [data, mode]);

  const summary = mode === 'phases' ? phaseSummary(data) : mode === 'locations' ? locationSummary(data) : chartSummary(data);
  return (
    <figure className="sw-mp-chart">
      <div ref={box} role="img" aria-label={`${label}. ${summary}`} data-testid="response-chart" data-mode={mode} />
      <figcaption className="sw-muted sw-small">
        {mode === 'phases' ? (
          PHASE_SERIES.map(([k]) => (
            <span key={k} className={`sw-mp-key sw-mp-key-${k}`}>
              {phaseName(k)}{' '}
            </span>
          ))
        ) : mode === 'locations' ? (
          <>
            {data.grain !== 'check' && <span className="sw-mp-key sw-mp-key-avg">{t('monitors.phase.total')}</span>}{' '}
            {data.locations.map((l, i) => (
              <span
                key={l.slug}
                className="sw-mp-key sw-mp-key-location"
                style={{ '--key': LOCATION_COLOURS[i % LOCATION_COLOURS.length] } as never}
              >
                {l.name}{' '}
              </span>
            ))}
          </>
        ) : (
          <>
            <span className="sw-mp-key sw-mp-key-avg">
              {data.grain === 'check' ? t('monitors.page.responseTime') : t('monitors.chart.average')}
            </span>{' '}
            {data.grain !== 'check' && <span className="sw-mp-key sw-mp-key-p95">p95</span>}{' '}
          </>
        )}
        {/* on a line of its own: after the keys it read as one run-on line ("Wait Mean per check") */}
        <span className="sw-mp-summary">{failed ? t('monitors.chart.failed') : summary}</span>
      </figcaption>
    </figure>
  );
}
