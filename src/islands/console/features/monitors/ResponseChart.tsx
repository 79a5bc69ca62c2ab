// The monitor page's response-time chart: average and p95 per hour or day, drawn by uPlot
// (about 50 KB, canvas, fast with thousands of points, kept up to date, no dependencies). The
// library is imported here on first draw, so only the monitor page ever loads it. Its layout
// rules live in monitors.css: a stylesheet imported on demand is not served by the built app.
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { fmtNumber } from '../../ui/format.ts';
import type { ResponseTimes } from './monitor-page-store.ts';

const HEIGHT = 240;

function chartData(rt: ResponseTimes): uPlot.AlignedData {
  return [rt.points.map((p) => Date.parse(p.start) / 1000), rt.points.map((p) => p.avg), rt.points.map((p) => p.p95)];
}

/** The figures the canvas shows, in words, for screen readers and as the chart's caption. */
export function chartSummary(rt: ResponseTimes): string {
  const timed = rt.points.filter((p) => p.avg !== null);
  if (timed.length === 0) return 'No timed responses in this range.';
  const avg =
    timed.reduce((a, p) => a + (p.avg ?? 0) * p.checks, 0) /
    Math.max(
      1,
      timed.reduce((a, p) => a + p.checks, 0),
    );
  const worst = Math.max(...timed.map((p) => p.p95 ?? 0));
  return `Average about ${fmtNumber(avg)} ms; highest ${rt.grain === 'hour' ? 'hourly' : 'daily'} p95 ${fmtNumber(worst)} ms.`;
}

export function ResponseChart({ data, label }: { data: ResponseTimes; label: string }) {
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
            scales: { x: { time: true } },
            axes: [{}, { values: (_u, ticks) => ticks.map((t) => `${t} ms`), size: 64 }],
            series: [
              {},
              {
                label: 'Average',
                stroke: avgColour,
                width: 2,
                points: { show: true, size: 5, fill: avgColour },
                value: (_u, v) => (v == null ? '—' : `${fmtNumber(v)} ms`),
              },
              {
                label: 'p95',
                stroke: '#b45309',
                width: 1.5,
                dash: [6, 4],
                points: { show: true, size: 4, fill: '#b45309' },
                value: (_u, v) => (v == null ? '—' : `${fmtNumber(v)} ms`),
              },
            ],
          },
          chartData(data),
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
  }, [data]);

  return (
    <figure className="sw-mp-chart">
      <div ref={box} role="img" aria-label={`${label}. ${chartSummary(data)}`} data-testid="response-chart" />
      <figcaption className="sw-muted sw-small">
        <span className="sw-mp-key sw-mp-key-avg">Average</span> <span className="sw-mp-key sw-mp-key-p95">p95</span>{' '}
        {failed ? 'The chart could not be drawn.' : chartSummary(data)}
      </figcaption>
    </figure>
  );
}
