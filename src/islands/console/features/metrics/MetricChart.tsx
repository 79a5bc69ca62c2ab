// One chart of the metrics screen: a figure over the window's buckets as lines, with the same
// figure of the previous window drawn dashed on the same time axis (shifted by the window's
// length), for comparison. uPlot is imported on first draw, as on the monitor page (its layout
// rules are in monitors.css), so only the screens with charts load it.
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { formatUtcMinute } from '../../../../lib/dates.ts';
import { t } from '../../i18n.ts';
import { fmtNumber } from '../../ui/format.ts';
import type { MetricPoint } from './store.ts';

const HEIGHT = 200;

export interface Line {
  label: string;
  pick: (p: MetricPoint) => number | null;
  colour: string;
  /** Dots at each bucket: for figures with gaps (no requests), where a lone bucket draws no line */
  dots?: boolean;
}

export interface MetricChartProps {
  title: string;
  unit: string;
  lines: Line[];
  current: MetricPoint[];
  previous: MetricPoint[];
  /** How far the previous window is shifted to sit under the current one */
  shiftMs: number;
  /** The chart in words (screen readers and the caption) */
  summary: string;
  testId: string;
}

/** uPlot's columns: time in seconds, each line now, then each line in the previous window. */
export function chartColumns(p: Pick<MetricChartProps, 'lines' | 'current' | 'previous' | 'shiftMs'>): uPlot.AlignedData {
  const byTime = new Map(p.previous.map((x) => [x.t + p.shiftMs, x]));
  return [
    p.current.map((x) => x.t / 1000),
    ...p.lines.map((l) => p.current.map(l.pick)),
    ...p.lines.map((l) =>
      p.current.map((x) => {
        const before = byTime.get(x.t);
        return before ? l.pick(before) : null;
      }),
    ),
  ];
}

/** Tick labels in the console's format, shortened to fit a phone: '14:00', with the day ('11-29') under the first tick of each day. */
function timeTicks(_u: uPlot, ticks: number[]): string[] {
  let lastDay = '';
  return ticks.map((t) => {
    const [day, time] = formatUtcMinute(t * 1000).split(' ');
    const label = day === lastDay ? time : `${time}\n${day.slice(5)}`;
    lastDay = day;
    return label;
  });
}

export function MetricChart(props: MetricChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const { lines, current, previous, shiftMs, unit } = props;

  useEffect(() => {
    let plot: uPlot | null = null;
    let gone = false;
    const el = box.current;
    const resize = () => plot?.setSize({ width: el?.clientWidth ?? 300, height: HEIGHT });
    // the box, not the window: a scroll bar that comes once the page grows narrows the cards too
    const watch = new ResizeObserver(resize);
    const value = (_u: uPlot, v: number | null) => (v == null ? '—' : `${fmtNumber(v, 2)} ${unit}`);
    void import('uplot')
      .then(({ default: UPlot }) => {
        if (gone || !el) return;
        plot = new UPlot(
          {
            width: el.clientWidth || 300,
            height: HEIGHT,
            // time in UTC, as every date of the console
            tzDate: (ts) => UPlot.tzDate(new Date(ts * 1e3), 'Etc/UTC'),
            legend: { show: false },
            scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
            axes: [
              { values: timeTicks, size: 48 },
              { values: (_u, ticks) => ticks.map((t) => fmtNumber(t, t !== 0 && t < 1 ? 2 : t < 10 ? 1 : 0)), size: 56 },
            ],
            series: [
              {},
              ...lines.map((l) => ({
                label: l.label,
                stroke: l.colour,
                width: 2,
                points: { show: !!l.dots, size: 5, fill: l.colour },
                value,
              })),
              ...lines.map((l) => ({
                label: t('metrics.chart.previousLine', { label: l.label }),
                stroke: l.colour,
                width: 1,
                dash: [5, 4],
                alpha: 0.6,
                points: { show: !!l.dots, size: 3, fill: '#fff' },
                value,
              })),
            ],
          },
          chartColumns({ lines, current, previous, shiftMs }),
          el,
        );
        watch.observe(el);
      })
      .catch((e: unknown) => {
        console.error('metric chart', e);
        setFailed(true);
      });
    return () => {
      gone = true;
      watch.disconnect();
      plot?.destroy();
    };
  }, [lines, current, previous, shiftMs, unit]);

  return (
    <figure className="sw-card sw-mx-chart" data-testid={props.testId}>
      <h3 className="sw-mx-chart-title">
        {props.title} <span className="sw-muted sw-small">({unit})</span>
      </h3>
      <div ref={box} role="img" aria-label={`${props.title}. ${props.summary}`} className="sw-mx-canvas" />
      <figcaption className="sw-muted sw-small">
        {lines.map((l) => (
          <span key={l.label} className="sw-mx-key" style={{ borderColor: l.colour }}>
            {l.label}
          </span>
        ))}
        <span className="sw-mx-key sw-mx-key-prev">{t('metrics.chart.previousKey')}</span>{' '}
        {failed ? t('metrics.chart.failed') : props.summary}
      </figcaption>
    </figure>
  );
}
