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
import { $inventory, loadInventory, sorted, type ApiInventory, type Endpoint, type SortKey } from './store.ts';
import '../../ui/filters.css';
import './api-intelligence.css';

const RANGE_LABEL: Record<MetricRange, string> = { '1h': 'Last hour', '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days' };
const COLUMNS: Array<{ label: string; key: SortKey | null }> = [
  { label: 'Endpoint', key: 'endpoint' },
  { label: 'Requests', key: 'requests' },
  { label: 'Errors', key: 'errorRate' },
  { label: 'p50', key: 'p50' },
  { label: 'p95', key: 'p95' },
  { label: 'p99', key: 'p99' },
  { label: 'Change', key: 'p95ChangePct' },
  { label: 'Status codes', key: null },
  { label: 'First seen', key: 'firstSeen' },
];
const ms = (v: number) => `${fmtNumber(v, v < 10 ? 1 : 0)} ms`;

export function ApiIntelligencePage({ title }: ScreenProps) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const inventory = useStore($inventory);
  const superAdmin = role === 'super_admin';
  const [range, setRange] = useState<MetricRange>('24h');
  useEffect(() => void loadInventory(range, superAdmin ? tenant : null), [range, tenant, superAdmin]);

  return (
    <div className="sw-ai-page">
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/dashboard">Dashboard</a> / <span aria-current="page">{title}</span>
      </nav>
      <div className="sw-page-head">
        <h2 className="sw-page-title">{title}</h2>
        <p className="sw-muted">
          {superAdmin && !tenant ? 'Every company\u2019s' : 'Your'} HTTP endpoints, learned from server spans, compared with the previous
          period of the same length.
        </p>
      </div>
      <form className="sw-mx-filters" aria-label="API intelligence filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Range
          <select value={range} onChange={(e) => setRange(e.currentTarget.value as MetricRange)} data-testid="ai-range">
            {METRIC_RANGES.map((r) => (
              <option key={r} value={r}>
                {RANGE_LABEL[r]}
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

function Empty() {
  const origin = typeof location === 'undefined' ? '' : location.origin;
  return (
    <div className="sw-nodata" data-testid="ai-empty">
      <strong>No HTTP endpoints in this period</strong>
      <p>
        Endpoints appear here once your services send server spans over OTLP/HTTP. With an ingest key (a company admin creates one under
        Settings), point any OpenTelemetry SDK at this server:
      </p>
      <pre className="sw-ai-snippet">
        {`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${origin}/v1/traces\nOTEL_EXPORTER_OTLP_TRACES_HEADERS="Authorization=Bearer sw_live_…"`}
      </pre>
      <p>
        Each endpoint is named by the span&rsquo;s <code>http.route</code>, else <code>url.template</code>, else its path with ids replaced
        by <code>{'{id}'}</code>.
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
          <dt>Endpoints</dt>
          <dd>{fmtNumber(data.endpoints.length)}</dd>
        </div>
        <div>
          <dt>Requests</dt>
          <dd>{fmtNumber(requests)}</dd>
        </div>
        <div>
          <dt>New in this range</dt>
          <dd>{fmtNumber(data.newEndpoints.length)}</dd>
        </div>
      </dl>
      <div className="sw-ai-lists">
        <Highlights
          title="New in this range"
          testId="ai-new"
          rows={data.newEndpoints.slice(0, 5)}
          empty="No endpoint was seen for the first time in this range."
          figure={(e) => `first seen ${fmtTime(e.firstSeen, '—')}`}
          showTenant={showTenant}
        />
        <Highlights
          title="Slowest (p95)"
          testId="ai-slowest"
          rows={data.slowest}
          empty="No requests."
          figure={(e) => `p95 ${ms(e.p95)}`}
          showTenant={showTenant}
        />
        <Highlights
          title="Most failing"
          testId="ai-failing"
          rows={data.mostFailing}
          empty="No failed requests in this range."
          figure={(e) => `${fmtNumber(e.errorRate, 1)} % errors (${fmtNumber(e.errors)})`}
          showTenant={showTenant}
        />
      </div>
      <EndpointTable rows={data.endpoints} showTenant={showTenant} />
      {data.truncated && <p className="sw-muted sw-small">Only the busiest {fmtNumber(data.endpoints.length)} endpoints are listed.</p>}
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
function Change({ value, unit, worse, better }: { value: number | null; unit: string; worse: string; better: string }) {
  if (value === null) return <span className="sw-muted sw-small">no previous data</span>;
  if (value === 0) return <span className="sw-ai-change">= unchanged</span>;
  const up = value > 0;
  return (
    <span className={`sw-ai-change ${up ? 'sw-ai-worse' : 'sw-ai-better'}`}>
      <span aria-hidden="true">{up ? '▲' : '▼'} </span>
      {fmtNumber(Math.abs(value), 1)}
      {unit} {up ? worse : better}
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
          ? 'no status codes'
          : CLASSES.filter((c) => e.statusClasses[c] > 0)
              .map((c) => `${c} ${fmtNumber(e.statusClasses[c])}`)
              .join(' · ')}
      </span>
      {e.topCodes.length > 0 && (
        <span className="sw-muted sw-small">top: {e.topCodes.map((c) => `${c.code} × ${fmtNumber(c.count)}`).join(', ')}</span>
      )}
    </span>
  );
}

function EndpointTable({ rows, showTenant }: { rows: Endpoint[]; showTenant: boolean }) {
  const [sort, setSort] = useState<{ key: SortKey; order: 'asc' | 'desc' }>({ key: 'requests', order: 'desc' });
  const list = sorted(rows, sort.key, sort.order);
  const cells: Record<string, Pick<Column<Endpoint>, 'cell' | 'className'>> = {
    Endpoint: {
      className: 'sw-ai-name',
      cell: (e) => (
        <span>
          <EndpointName e={e} showTenant={showTenant} />
          {e.isNew && <span className="sw-badge sw-ai-new">New</span>}
        </span>
      ),
    },
    Requests: {
      cell: (e) => (
        <span>
          {fmtNumber(e.requests)}
          <span className="sw-muted sw-small"> ({fmtRate(e.rate)}/s)</span>
        </span>
      ),
    },
    Errors: { cell: (e) => `${fmtNumber(e.errorRate, 1)} %` },
    p50: { cell: (e) => ms(e.p50) },
    p95: { cell: (e) => ms(e.p95) },
    p99: { cell: (e) => ms(e.p99) },
    Change: {
      cell: (e) => (
        <span className="sw-ai-changes">
          <Change value={e.p95ChangePct} unit=" %" worse="slower" better="faster" />
          {e.errorRateChange !== null && <Change value={e.errorRateChange} unit=" pts" worse="more errors" better="fewer errors" />}
        </span>
      ),
    },
    'Status codes': { className: 'sw-ai-codes', cell: (e) => <StatusBar e={e} /> },
    'First seen': { className: 'sw-small', cell: (e) => fmtTime(e.firstSeen, '—') },
  };
  return (
    <section className="sw-card" aria-label="Endpoints">
      <label className="sw-ai-sort">
        Sort by{' '}
        <select
          value={sort.key}
          onChange={(ev) => {
            const key = ev.currentTarget.value as SortKey;
            setSort({ key, order: key === 'endpoint' ? 'asc' : 'desc' });
          }}
          data-testid="ai-sort"
        >
          {COLUMNS.filter((c) => c.key).map((c) => (
            <option key={c.label} value={c.key!}>
              {c.label === 'Change' ? 'p95 change' : c.label}
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
        columns={COLUMNS.map(({ label, key }) => {
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
          return { label, ...cells[label], ...sortable };
        })}
      />
    </section>
  );
}
