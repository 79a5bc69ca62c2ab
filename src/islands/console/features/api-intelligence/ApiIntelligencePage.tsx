// /api-intelligence: the company's HTTP endpoints learned from server spans, with requests,
// rate, error rate, p50/p95/p99, status codes and first sighting; the endpoints new in the
// range, the slowest and the most failing; each endpoint's change against the previous period.
// A super admin sees every company, or the one chosen in the header's tenant selector.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { METRIC_RANGES, type MetricRange } from '../../../../lib/metric-buckets.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, Skeleton } from '../../ui/Card.tsx';
import { fmtNumber, fmtRate, fmtTime } from '../../ui/format.ts';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { SortButton, sortOf, Table, type Column } from '../../ui/Table.tsx';
import { t, tr } from '../../i18n.ts';
import { $inventory, loadInventory, sorted, type ApiInventory, type Endpoint, type SortKey } from './store.ts';
import '../../ui/filters.css';
import './api-intelligence.css';

const RANGE_LABEL: Record<MetricRange, () => string> = {
  '1h': () => t('apiIntelligence.range.1h'),
  '24h': () => t('apiIntelligence.range.24h'),
  '7d': () => t('apiIntelligence.range.7d'),
  '30d': () => t('apiIntelligence.range.30d'),
};
type ColumnId = 'endpoint' | 'requests' | 'errors' | 'p50' | 'p95' | 'p99' | 'change' | 'codes' | 'firstSeen';
const COLUMNS: Array<{ id: ColumnId; key: SortKey | null }> = [
  { id: 'endpoint', key: 'endpoint' },
  { id: 'requests', key: 'requests' },
  { id: 'errors', key: 'errorRate' },
  { id: 'p50', key: 'p50' },
  { id: 'p95', key: 'p95' },
  { id: 'p99', key: 'p99' },
  { id: 'change', key: 'p95ChangePct' },
  { id: 'codes', key: null },
  { id: 'firstSeen', key: 'firstSeen' },
];
const columnLabel = (id: ColumnId) => t(`apiIntelligence.col.${id}` as const);
const ms = (v: number) => t('apiIntelligence.ms', { value: fmtNumber(v, v < 10 ? 1 : 0) });

export function ApiIntelligencePage({ title }: ScreenProps) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const inventory = useStore($inventory);
  const superAdmin = role === 'super_admin';
  const [range, setRange] = useState<MetricRange>('24h');
  useEffect(() => void loadInventory(range, superAdmin ? tenant : null), [range, tenant, superAdmin]);

  return (
    <div className="sw-ai-page">
      <nav aria-label={t('apiIntelligence.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('apiIntelligence.dashboard')}</a> / <span aria-current="page">{title}</span>
      </nav>
      <div className="sw-page-head">
        <h2 className="sw-page-title">{title}</h2>
        <p className="sw-muted">{superAdmin && !tenant ? t('apiIntelligence.introAll') : t('apiIntelligence.introOwn')}</p>
      </div>
      <form className="sw-mx-filters" aria-label={t('apiIntelligence.filters')} onSubmit={(e) => e.preventDefault()}>
        <label>
          {t('apiIntelligence.range')}
          <select value={range} onChange={(e) => setRange(e.currentTarget.value as MetricRange)} data-testid="ai-range">
            {METRIC_RANGES.map((r) => (
              <option key={r} value={r}>
                {RANGE_LABEL[r]()}
              </option>
            ))}
          </select>
        </label>
      </form>
      {inventory.status === 'loading' && <Skeleton rows={6} />}
      {inventory.status === 'error' && <ErrorPanel message={inventory.message} />}
      {inventory.status === 'ready' && <Inventory data={inventory.data} showTenant={superAdmin && !tenant} />}
    </div>
  );
}

// The exporter's settings are code (variable names and a header), the same in every language.
const otelSnippet = (origin: string) =>
  `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${origin}/v1/traces\nOTEL_EXPORTER_OTLP_TRACES_HEADERS="Authorization=Bearer sw_live_…"`;

function Empty() {
  const origin = typeof location === 'undefined' ? '' : location.origin;
  return (
    <div className="sw-nodata" data-testid="ai-empty">
      <strong>{t('apiIntelligence.empty.title')}</strong>
      <p>{t('apiIntelligence.empty.intro')}</p>
      <pre className="sw-ai-snippet">{otelSnippet(origin)}</pre>
      <p>
        {tr('apiIntelligence.empty.naming', {
          route: <code>http.route</code>,
          template: <code>url.template</code>,
          id: <code>{'{id}'}</code>,
        })}
      </p>
    </div>
  );
}

function Inventory({ data, showTenant }: { data: ApiInventory; showTenant: boolean }) {
  if (data.endpoints.length === 0) return <Empty />;
  const requests = data.endpoints.reduce((n, e) => n + e.requests, 0);
  return (
    <>
      <dl className="sw-mx-totals" data-testid="ai-totals">
        <div>
          <dt>{t('apiIntelligence.totals.endpoints')}</dt>
          <dd>{fmtNumber(data.endpoints.length)}</dd>
        </div>
        <div>
          <dt>{t('apiIntelligence.totals.requests')}</dt>
          <dd>{fmtNumber(requests)}</dd>
        </div>
        <div>
          <dt>{t('apiIntelligence.totals.new')}</dt>
          <dd>{fmtNumber(data.newEndpoints.length)}</dd>
        </div>
      </dl>
      <div className="sw-ai-lists">
        <Highlights
          title={t('apiIntelligence.new.title')}
          testId="ai-new"
          rows={data.newEndpoints.slice(0, 5)}
          empty={t('apiIntelligence.new.empty')}
          figure={(e) => t('apiIntelligence.new.figure', { time: fmtTime(e.firstSeen, '—') })}
          showTenant={showTenant}
        />
        <Highlights
          title={t('apiIntelligence.slowest.title')}
          testId="ai-slowest"
          rows={data.slowest}
          empty={t('apiIntelligence.slowest.empty')}
          figure={(e) => t('apiIntelligence.slowest.figure', { value: ms(e.p95) })}
          showTenant={showTenant}
        />
        <Highlights
          title={t('apiIntelligence.failing.title')}
          testId="ai-failing"
          rows={data.mostFailing}
          empty={t('apiIntelligence.failing.empty')}
          figure={(e) => t('apiIntelligence.failing.figure', { rate: fmtNumber(e.errorRate, 1), errors: fmtNumber(e.errors) })}
          showTenant={showTenant}
        />
      </div>
      <EndpointTable rows={data.endpoints} showTenant={showTenant} />
      {data.truncated && <p className="sw-muted sw-small">{t('apiIntelligence.truncated', { count: fmtNumber(data.endpoints.length) })}</p>}
    </>
  );
}

function EndpointName({ e, showTenant }: { e: Endpoint; showTenant: boolean }) {
  return (
    <span className="sw-ai-endpoint">
      <span className="sw-ai-method">{e.method}</span> <span className="sw-ai-route">{e.route}</span>
      <span className="sw-muted sw-small sw-ai-service">
        {e.service}
        {showTenant ? ` · ${e.tenantName ?? e.tenantId}` : ''}
      </span>
    </span>
  );
}

function Highlights(props: {
  title: string;
  testId: string;
  rows: Endpoint[];
  empty: string;
  figure: (e: Endpoint) => string;
  showTenant: boolean;
}) {
  const id = `${props.testId}-title`;
  return (
    <section className="sw-card sw-ai-card" aria-labelledby={id} data-testid={props.testId}>
      <h2 id={id} className="sw-ai-card-title">
        {props.title}
      </h2>
      {props.rows.length === 0 ? (
        <p className="sw-muted sw-small">{props.empty}</p>
      ) : (
        <ol className="sw-ai-top">
          {props.rows.map((e) => (
            <li key={`${e.tenantId} ${e.service} ${e.method} ${e.route}`}>
              <EndpointName e={e} showTenant={props.showTenant} />
              <span className="sw-ai-figure">{props.figure(e)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** A change against the previous period, in words and an arrow; red when worse, green when better. */
function Change({ value, unit, worse, better }: { value: number | null; unit: 'pct' | 'pts'; worse: string; better: string }) {
  if (value === null) return <span className="sw-muted sw-small">{t('apiIntelligence.change.noPrevious')}</span>;
  if (value === 0) return <span className="sw-ai-change">{t('apiIntelligence.change.unchanged')}</span>;
  const up = value > 0;
  return (
    <span className={`sw-ai-change ${up ? 'sw-ai-worse' : 'sw-ai-better'}`}>
      <span aria-hidden="true">{up ? '▲' : '▼'} </span>
      {t(unit === 'pct' ? 'apiIntelligence.change.pct' : 'apiIntelligence.change.pts', {
        value: fmtNumber(Math.abs(value), 1),
        direction: up ? worse : better,
      })}
    </span>
  );
}

const CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;

function StatusBar({ e }: { e: Endpoint }) {
  const total = CLASSES.reduce((n, c) => n + e.statusClasses[c], 0);
  return (
    <span className="sw-ai-status">
      {total > 0 && (
        <span className="sw-ai-bar" aria-hidden="true">
          {CLASSES.map((c) =>
            e.statusClasses[c] > 0 ? (
              <span key={c} className={`sw-ai-c${c}`} style={{ width: `${(e.statusClasses[c] / total) * 100}%` }} />
            ) : null,
          )}
        </span>
      )}
      <span className="sw-small">
        {total === 0
          ? t('apiIntelligence.codes.none')
          : CLASSES.filter((c) => e.statusClasses[c] > 0)
              .map((c) => `${c} ${fmtNumber(e.statusClasses[c])}`)
              .join(' · ')}
      </span>
      {e.topCodes.length > 0 && (
        <span className="sw-muted sw-small">
          {t('apiIntelligence.codes.top', { codes: e.topCodes.map((c) => `${c.code} × ${fmtNumber(c.count)}`).join(', ') })}
        </span>
      )}
    </span>
  );
}

function EndpointTable({ rows, showTenant }: { rows: Endpoint[]; showTenant: boolean }) {
  const [sort, setSort] = useState<{ key: SortKey; order: 'asc' | 'desc' }>({ key: 'requests', order: 'desc' });
  const list = sorted(rows, sort.key, sort.order);
  const cells: Record<ColumnId, Pick<Column<Endpoint>, 'cell' | 'className'>> = {
    endpoint: {
      className: 'sw-ai-name',
      cell: (e) => (
        <span>
          <EndpointName e={e} showTenant={showTenant} />
          {e.isNew && <span className="sw-badge sw-ai-new">{t('apiIntelligence.newBadge')}</span>}
        </span>
      ),
    },
    requests: {
      cell: (e) => (
        <span>
          {fmtNumber(e.requests)}
          <span className="sw-muted sw-small"> {t('apiIntelligence.rate', { rate: fmtRate(e.rate) })}</span>
        </span>
      ),
    },
    errors: { cell: (e) => t('apiIntelligence.percent', { value: fmtNumber(e.errorRate, 1) }) },
    p50: { cell: (e) => ms(e.p50) },
    p95: { cell: (e) => ms(e.p95) },
    p99: { cell: (e) => ms(e.p99) },
    change: {
      cell: (e) => (
        <span className="sw-ai-changes">
          <Change
            value={e.p95ChangePct}
            unit="pct"
            worse={t('apiIntelligence.change.slower')}
            better={t('apiIntelligence.change.faster')}
          />
          {e.errorRateChange !== null && (
            <Change
              value={e.errorRateChange}
              unit="pts"
              worse={t('apiIntelligence.change.moreErrors')}
              better={t('apiIntelligence.change.fewerErrors')}
            />
          )}
        </span>
      ),
    },
    codes: { className: 'sw-ai-codes', cell: (e) => <StatusBar e={e} /> },
    firstSeen: { className: 'sw-small', cell: (e) => fmtTime(e.firstSeen, '—') },
  };
  return (
    <section className="sw-card" aria-label={t('apiIntelligence.table')}>
      <label className="sw-ai-sort">
        {t('apiIntelligence.sortBy')}{' '}
        <select
          value={sort.key}
          onChange={(ev) => {
            const key = ev.currentTarget.value as SortKey;
            setSort({ key, order: key === 'endpoint' ? 'asc' : 'desc' });
          }}
          data-testid="ai-sort"
        >
          {COLUMNS.filter((c) => c.key).map((c) => (
            <option key={c.id} value={c.key!}>
              {c.id === 'change' ? t('apiIntelligence.sortP95Change') : columnLabel(c.id)}
            </option>
          ))}
        </select>
      </label>
      <Table
        compact
        className="sw-ai-table"
        testId="ai-table"
        wrapClassName="sw-ai-wrap"
        rows={list}
        rowKey={(e) => `${e.tenantId} ${e.service} ${e.method} ${e.route}`}
        rowProps={() => ({ 'data-testid': 'ai-row' })}
        columns={COLUMNS.map(({ id, key }) => {
          const label = columnLabel(id);
          const sortable = key && {
            sort: sortOf(sort.key === key, sort.order),
            head: (
              <SortButton
                label={label}
                active={sort.key === key}
                order={sort.order}
                onClick={() =>
                  setSort({ key, order: sort.key === key ? (sort.order === 'asc' ? 'desc' : 'asc') : key === 'endpoint' ? 'asc' : 'desc' })
                }
              />
            ),
          };
          return { label, ...cells[id], ...sortable };
        })}
      />
    </section>
  );
}
