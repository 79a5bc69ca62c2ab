// The time of each step over the monitor's recent checks, stacked like the phases chart (the same
// uPlot bars and scales as ResponseChart.tsx), with the mean of each step in words for screen
// readers and as the caption.
import { useEffect, useRef, useState } from 'react';
import type uPlot from 'uplot';
import { t } from '../../../i18n.ts';
import { fmtNumber } from '../../../ui/format.ts';
import { LOCATION_COLOURS, phaseScales, stackedSeries } from '../ResponseChart.tsx';
import { stepLayers, type TimedCheck } from './step-timings.ts';

const HEIGHT = 220;
const colourOf = (i: number) => LOCATION_COLOURS[i % LOCATION_COLOURS.length] as string;

export function StepTimingChart({ checks, names }: { checks: readonly TimedCheck[]; names: readonly string[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const layers = stepLayers(checks, names.length);
  const label = (i: number) => `${i + 1}. ${names[i] ?? t('monitors.steps.stepN', { n: i + 1 })}`;
  const summary = layers.means.some((m) => m !== null)
    ? t('monitors.chart.perCheck', {
        parts: layers.means
          .flatMap((m, i) => (m === null ? [] : [t('monitors.chart.locationMs', { name: label(i), ms: fmtNumber(m) })]))
          .join(', '),
      })
    : t('monitors.run.noStepTimings');

  useEffect(() => {
    let plot: uPlot | null = null;
    let gone = false;
    const el = box.current;
    if (!el || layers.x.length === 0) return;
    const resize = () => plot?.setSize({ width: el.clientWidth || 300, height: HEIGHT });
    const gap = layers.x.length > 1 ? (layers.x[layers.x.length - 1] - layers.x[0]) / (layers.x.length - 1) : 60;
    void import('uplot')
      .then(({ default: UPlot }) => {
        if (gone) return;
        plot = new UPlot(
          {
            width: el.clientWidth || 300,
            height: HEIGHT,
            legend: { show: false },
            // the time axis is the checks' span and half a bar either side, fixed here: with one
            // check uPlot's own range for equal ends spread it over years
            scales: {
              ...phaseScales(gap),
              x: { time: true, range: [layers.x[0] - gap / 2, layers.x[layers.x.length - 1] + gap / 2] },
            },
            axes: [{}, { values: (_u, ticks) => ticks.map((tick) => t('monitors.ms', { ms: tick })), size: 64 }],
            series: stackedSeries(
              layers.tops.map((_, i) => [label(i), colourOf(i)] as const),
              UPlot.paths.bars!({ size: [0.7, 48] }),
            ),
          },
          [layers.x, ...[...layers.tops].reverse()],
          el,
        );
        window.addEventListener('resize', resize);
      })
      .catch((e: unknown) => {
        console.error('step chart', e);
        setFailed(true);
      });
    return () => {
      gone = true;
      window.removeEventListener('resize', resize);
      plot?.destroy();
    };
    // redrawn when the checks change (a new check arrives live)
  }, [checks, names.join('\n')]);

  if (layers.x.length === 0) return <p className="sw-empty">{t('monitors.run.noTimedChecks')}</p>;
  return (
    <figure className="sw-mp-chart">
      <div ref={box} role="img" aria-label={t('monitors.run.chartLabel', { count: layers.x.length, summary })} data-testid="step-chart" />
      <figcaption className="sw-muted sw-small">
        {layers.tops.map((_, i) => (
          <span key={i} className="sw-mp-key sw-mp-key-step" style={{ '--key': colourOf(i) } as never}>
            {label(i)}{' '}
          </span>
        ))}
        <br />
        {failed ? t('monitors.chart.failed') : summary}
      </figcaption>
    </figure>
  );
}
