// /metrics and /my-metrics: request rate, error rate and p50/p95/p99 latency over 1 h to 30 d,
// per service and operation, beside the previous period. A super admin sees every company, or
// the one chosen in the header's tenant selector; the CSV export is theirs while the global
// export flag is on.
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { METRIC_RANGES, RANGE_LENGTH_MS, type MetricRange } from '../../../../lib/metric-buckets.ts';
import { $consoleLocale, t } from '../../i18n.ts';
import { $role } from '../../stores/auth.ts';
import { $flags } from '../../stores/flags.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, NoData, Skeleton } from '../../ui/Card.tsx';
import { fmtNumber, fmtRate } from '../../ui/format.ts';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { MetricChart, type Line } from './MetricChart.tsx';
import { $series, exportCsv, loadSeries, totals, type MetricFilter, type MetricPoint, type MetricSeries } from './store.ts';
import '../../ui/uplot.css';
import '../../ui/filters.css';
import './metrics.css';

function rangeLabel(r: MetricRange): string {
  return { '1h': t('metrics.range.1h'), '24h': t('metrics.range.24h'), '7d': t('metrics.range.7d'), '30d': t('metrics.range.30d') }[r];
}

// the lines' names in the language of the moment (made again when it changes)
const rateLines = (): Line[] => [{ label: t('metrics.line.rate'), pick: (p) => p.rate, colour: '#1d4ed8' }];
const errorLines = (): Line[] => [{ label: t('metrics.line.errorRate'), pick: (p) => p.errorRate, colour: '#b91c1c', dots: true }];
const LATENCY: Line[] = [
  { label: 'p50', pick: (p) => p.p50, dots: true, colour: '#15803d' },
  { label: 'p95', pick: (p) => p.p95, dots: true, colour: '#b45309' },
  { label: 'p99', pick: (p) => p.p99, dots: true, colour: '#7c3aed' },
];

const highest = (points: MetricPoint[], pick: (p: MetricPoint) => number | null) =>
  points.reduce<number | null>((m, p) => {
    const v = pick(p);
    return v === null ? m : Math.max(m ?? v, v);
  }, null);

function change(now: number | null, before: number | null): string {
  if (now === null || before === null || before === 0) return '';
  const pct = ((now - before) / before) * 100;
  return ` ${t('metrics.change', { pct: `${pct >= 0 ? '+' : ''}${fmtNumber(pct, 0)}` })}`;
}

export function MetricsPage({ title }: ScreenProps) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const flags = useStore($flags);
  const series = useStore($series);
  const superAdmin = role === 'super_admin';
  const [filter, setFilter] = useState<Omit<MetricFilter, 'tenant'>>({ range: '24h', service: '', operation: '' });
  const [exportError, setExportError] = useState<string | null>(null);
  const full: MetricFilter = useMemo(() => ({ ...filter, tenant: superAdmin ? tenant : null }), [filter, tenant, superAdmin]);
  useEffect(() => void loadSeries(full), [full]);

  const canExport = !!role && can(role, 'export', 'metrics') && flags.ENABLE_GLOBAL_EXPORT === true;
  const endpoints = series.status === 'ready' ? series.data.endpoints : [];
  const services = [...new Set(endpoints.map((e) => e.service))];
  if (filter.service && !services.includes(filter.service)) services.push(filter.service);
  const operations = endpoints.filter((e) => !filter.service || e.service === filter.service).map((e) => e.operation);
  const ops = [...new Set(filter.operation && !operations.includes(filter.operation) ? [...operations, filter.operation] : operations)];

  return (
    <div className="sw-mx-page">
      <nav aria-label={t('metrics.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('metrics.dashboard')}</a> / <span aria-current="page">{title}</span>
      </nav>
      <div className="sw-page-head">
        <h2 className="sw-page-title">{title}</h2>
        <p className="sw-muted">
          {t(superAdmin && !tenant ? 'metrics.intro.all' : 'metrics.intro.own', {
            bucket: series.status === 'ready' ? bucketWords(series.data.bucketMs) : t('metrics.bucket.unknown'),
          })}
        </p>
      </div>
      <form className="sw-mx-filters" aria-label={t('metrics.filters')} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('metrics.filter.range')}
          <select
            value={filter.range}
            onChange={(e) => setFilter({ ...filter, range: e.currentTarget.value as MetricRange })}
            data-testid="metrics-range"
          >
            {METRIC_RANGES.map((r) => (
              <option key={r} value={r}>
                {rangeLabel(r)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('metrics.filter.service')}
          <select
            value={filter.service}
            onChange={(e) => setFilter({ ...filter, service: e.currentTarget.value, operation: '' })}
            data-testid="metrics-service"
          >
            <option value="">{t('metrics.filter.allServices')}</option>
            {services.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('metrics.filter.operation')}
          <select
            value={filter.operation}
            onChange={(e) => setFilter({ ...filter, operation: e.currentTarget.value })}
            data-testid="metrics-operation"
          >
            <option value="">{t('metrics.filter.allOperations')}</option>
            {ops.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        {canExport && (
          <button type="button" className="sw-btn" data-testid="metrics-export" onClick={() => void exportCsv(full).then(setExportError)}>
            {t('metrics.export')}
          </button>
        )}
      </form>
      {exportError && (
        <p role="alert" className="sw-alert sw-alert-error">
          {exportError}
        </p>
      )}
      {series.status === 'loading' && <Skeleton rows={6} />}
      {series.status === 'error' && <ErrorPanel message={series.message} />}
      {series.status === 'ready' && <Charts data={series.data} />}
    </div>
  );
}

function bucketWords(ms: number): string {
  return ms < 3_600_000 ? t('metrics.bucket.minutes', { count: ms / 60_000 }) : t('metrics.bucket.hours', { count: ms / 3_600_000 });
}

function Charts({ data }: { data: MetricSeries }) {
  const locale = useStore($consoleLocale);
  // made again when the language changes, so the charts draw their lines' names anew
  const [rate, errors] = useMemo(() => [rateLines(), errorLines()], [locale]);
  const now = totals(data.current);
  const before = totals(data.previous);
  if (now.requests === 0 && before.requests === 0) return <NoData text={t('metrics.noRequests')} />;
  const shiftMs = RANGE_LENGTH_MS[data.range];
  const seconds = (data.to - data.from) / 1000;
  const worstP95 = highest(data.current, (p) => p.p95);
  return (
    <>
      <dl className="sw-mx-totals" data-testid="metrics-totals">
        <div>
          <dt>{t('metrics.total.requests')}</dt>
          <dd>
            {fmtNumber(now.requests)}
            <span className="sw-muted sw-small">{change(now.requests, before.requests)}</span>
          </dd>
        </div>
        <div>
          <dt>{t('metrics.total.errors')}</dt>
          <dd>
            {now.errorRate === null ? '—' : `${fmtNumber(now.errorRate, 2)} %`}
            <span className="sw-muted sw-small">{change(now.errorRate, before.errorRate)}</span>
          </dd>
        </div>
        <div>
          <dt>{t('metrics.total.highestP95')}</dt>
          <dd>{worstP95 === null ? '—' : t('metrics.ms', { value: fmtNumber(worstP95, 1) })}</dd>
        </div>
      </dl>
      <div className="sw-mx-grid">
        <MetricChart
          title={t('metrics.chart.rate')}
          unit={t('metrics.unit.rate')}
          lines={rate}
          current={data.current}
          previous={data.previous}
          shiftMs={shiftMs}
          summary={t('metrics.chart.rateSummary', { now: fmtRate(now.requests / seconds), before: fmtRate(before.requests / seconds) })}
          testId="chart-rate"
        />
        <MetricChart
          title={t('metrics.chart.errorRate')}
          unit="%"
          lines={errors}
          current={data.current}
          previous={data.previous}
          shiftMs={shiftMs}
          summary={t('metrics.chart.errorSummary', {
            now:
              now.errorRate === null
                ? t('metrics.chart.noRequestsNow')
                : t('metrics.chart.failedShare', { pct: fmtNumber(now.errorRate, 2) }),
            before: before.errorRate === null ? t('metrics.chart.noRequestsBefore') : `${fmtNumber(before.errorRate, 2)} %`,
          })}
          testId="chart-errors"
        />
        <MetricChart
          title={t('metrics.chart.latency')}
          unit="ms"
          lines={LATENCY}
          current={data.current}
          previous={data.previous}
          shiftMs={shiftMs}
          summary={t('metrics.chart.latencySummary', {
            p95: worstP95 === null ? '—' : t('metrics.ms', { value: fmtNumber(worstP95, 1) }),
            p99: fmtNumber(
              highest(data.current, (p) => p.p99),
              1,
            ),
          })}
          testId="chart-latency"
        />
      </div>
    </>
  );
}
