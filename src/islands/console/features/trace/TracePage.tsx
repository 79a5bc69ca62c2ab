// /traces/{traceId}: one trace as a waterfall of its spans, with each span's details on demand.
import { useStore } from '@nanostores/react';
import { Fragment, useEffect, useState } from 'react';
import { t } from '../../i18n.ts';
import { fmtNumber, fmtTime } from '../../ui/format.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { $trace, loadTrace, waterfall, type TraceSpan } from './store.ts';

export function TracePage({ params }: ScreenProps) {
  const traceId = params.traceId ?? '';
  const trace = useStore($trace);
  const [open, setOpen] = useState<string | null>(null);
  useEffect(() => {
    void loadTrace(traceId);
  }, [traceId]);
  return (
    <div className="sw-trace-page">
      <nav aria-label={t('trace.breadcrumb')} className="sw-breadcrumb">
        <a href="/traces">{t('trace.traces')}</a> / <span aria-current="page">{traceId}</span>
      </nav>
      {trace.status === 'loading' && <Skeleton rows={6} />}
      {trace.status === 'error' &&
        (trace.httpStatus === 404 ? (
          <div className="sw-panel sw-center-text">
            <h2>{t('trace.notFound')}</h2>
            <p>{t('trace.notFoundText', { traceId })}</p>
          </div>
        ) : (
          <ErrorPanel message={trace.message} />
        ))}
      {trace.status === 'ready' && (
        <>
          <div className="sw-page-head">
            <h2 className="sw-page-title">
              {trace.data.service} · {trace.data.operation}
            </h2>
            <p className="sw-muted" data-testid="trace-summary">
              {t('trace.summary', {
                start: fmtTime(trace.data.start, ''),
                duration: fmtNumber(trace.data.duration, 1),
                spans: trace.data.spanCount,
                errors: trace.data.errorCount,
              })}
            </p>
          </div>
          <section className="sw-card" aria-label={t('trace.spans')}>
            <ul className="sw-waterfall">
              {waterfall(trace.data.spans).map(({ span, depth }) => (
                <SpanRow
                  key={span.spanId}
                  span={span}
                  depth={depth}
                  total={trace.data.duration}
                  open={open === span.spanId}
                  onToggle={() => setOpen(open === span.spanId ? null : span.spanId)}
                />
              ))}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}

function SpanRow(props: { span: TraceSpan; depth: number; total: number; open: boolean; onToggle: () => void }) {
  const { span, depth, total } = props;
  const left = total > 0 ? (span.startOffset / total) * 100 : 0;
  const width = total > 0 ? Math.max((span.duration / total) * 100, 0.5) : 100;
  return (
    <li className={span.status === 'error' ? 'sw-span sw-span-error' : 'sw-span'} data-testid="span-row">
      <button type="button" className="sw-span-head" aria-expanded={props.open} onClick={props.onToggle}>
        <span className="sw-span-name" style={{ paddingLeft: `${depth * 1}rem` }}>
          <strong>{span.service}</strong> {span.name}
        </span>
        <span className="sw-span-track" aria-hidden="true">
          <span className="sw-span-bar" style={{ marginLeft: `${left}%`, width: `${width}%` }} />
        </span>
        <span className="sw-span-ms">{t('trace.ms', { value: fmtNumber(span.duration, 1) })}</span>
      </button>
      {props.open && (
        <div className="sw-span-details">
          <dl className="sw-dl">
            <dt>{t('trace.span.kind')}</dt>
            <dd>{span.kind}</dd>
            <dt>{t('trace.span.status')}</dt>
            <dd>
              {span.status}
              {span.httpStatus ? ` ${t('trace.span.http', { status: span.httpStatus })}` : ''}
            </dd>
            {span.errorMessage && (
              <>
                <dt>{t('trace.span.error')}</dt>
                <dd className="sw-trace-error">{span.errorMessage}</dd>
              </>
            )}
            <dt>{t('trace.span.start')}</dt>
            <dd>{t('trace.span.startAt', { time: fmtTime(span.start, ''), offset: fmtNumber(span.startOffset, 1) })}</dd>
            {Object.entries(span.attributes).map(([k, v]) => (
              <Fragment key={k}>
                <dt>{k}</dt>
                <dd>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
              </Fragment>
            ))}
          </dl>
          {span.events.length > 0 && (
            <ul className="sw-list">
              {span.events.map((e, i) => (
                <li key={i}>
                  {fmtTime(e.timestamp, '')} · {e.name}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}
