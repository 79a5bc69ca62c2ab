// /traces and /my-traces: search requests by service, operation, status, minimum duration, time
// range and one attribute; newest first, older pages on demand; each row opens the waterfall.
// A super admin searches every company, or the one chosen in the header's tenant selector.
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ErrorPanel, NoData, Skeleton } from '../../ui/Card.tsx';
import { fmtNumber, fmtTime } from '../../ui/format.ts';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { $traces, EMPTY_FILTER, loadOlder, searchTraces, type TraceFilter } from './store.ts';
import { Table } from '../../ui/Table.tsx';
import '../../ui/filters.css';
import './traces.css';

export function TracesPage({ title }: ScreenProps) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const traces = useStore($traces);
  const [draft, setDraft] = useState(EMPTY_FILTER);
  const [applied, setApplied] = useState(EMPTY_FILTER);
  const filter: TraceFilter = useMemo(() => ({ ...applied, tenant: role === 'super_admin' ? tenant : null }), [applied, tenant, role]);
  useEffect(() => void searchTraces(filter), [filter]);

  const field = (name: keyof typeof EMPTY_FILTER) => ({
    value: draft[name],
    onChange: (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [name]: e.currentTarget.value }),
  });

  return (
    <div className="sw-tr-page">
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/dashboard">Dashboard</a> / <span aria-current="page">{title}</span>
      </nav>
      <div className="sw-page-head">
        <h2 className="sw-page-title">{title}</h2>
        <p className="sw-muted">Requests your services sent as spans, newest first; failed ones are marked Error.</p>
      </div>
      <form
        className="sw-mx-filters"
        aria-label="Trace search"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...draft });
        }}
      >
        <label>
          Service
          <input type="text" maxLength={200} {...field('service')} data-testid="traces-service" />
        </label>
        <label>
          Operation
          <input type="text" maxLength={500} {...field('operation')} />
        </label>
        <label>
          Status
          <select {...field('status')} data-testid="traces-status">
            <option value="">Any</option>
            <option value="ok">OK</option>
            <option value="error">Error</option>
          </select>
        </label>
        <label>
          Min duration (ms)
          <input type="number" min={0} step="any" inputMode="decimal" {...field('minDurationMs')} data-testid="traces-min-duration" />
        </label>
        <label>
          From (UTC)
          <input type="datetime-local" {...field('from')} />
        </label>
        <label>
          To (UTC)
          <input type="datetime-local" {...field('to')} />
        </label>
        <label>
          Attribute (key=value)
          <input type="text" maxLength={400} placeholder="http.route=/cart" {...field('attr')} data-testid="traces-attr" />
        </label>
        <button type="submit" className="sw-btn sw-btn-primary" data-testid="traces-search">
          Search
        </button>
      </form>
      {traces.status === 'loading' && <Skeleton rows={6} />}
      {traces.status === 'error' && <ErrorPanel message={traces.message} />}
      {traces.status === 'ready' &&
        (traces.data.rows.length === 0 ? (
          <NoData text={applied.from || applied.to ? 'No traces match in this time range.' : 'No traces match in the last 24 hours.'} />
        ) : (
          <section className="sw-card" aria-label="Traces">
            <Table
              compact
              className="sw-tr-table"
              testId="traces-table"
              rows={traces.data.rows}
              rowKey={(t) => `${t.traceId}/${t.id}`}
              rowProps={(t) => ({ className: t.status === 'error' ? 'sw-tr-error' : undefined, 'data-testid': 'trace-row' })}
              columns={[
                {
                  label: 'Time',
                  cell: (t) => (
                    <a href={`/traces/${t.traceId}`} data-testid="trace-link">
                      {fmtTime(t.timestamp, '—')}
                    </a>
                  ),
                },
                { label: 'Service', cell: (t) => t.service },
                { label: 'Operation', className: 'sw-tr-op', cell: (t) => t.operation },
                { label: 'Duration', cell: (t) => `${fmtNumber(t.duration, 1)} ms` },
                {
                  label: 'Status',
                  cell: (t) => (
                    <span className={t.status === 'error' ? 'sw-badge sw-tr-status-error' : 'sw-badge sw-tr-status-ok'}>
                      <span aria-hidden="true">{t.status === 'error' ? '✕ ' : '✓ '}</span>
                      {t.status === 'error' ? 'Error' : 'OK'}
                    </span>
                  ),
                },
                { label: 'Spans', cell: (t) => t.spanCount },
              ]}
            />
            {traces.data.nextCursor && (
              <button
                type="button"
                className="sw-btn sw-tr-more"
                disabled={traces.data.loadingMore}
                onClick={() => void loadOlder(filter)}
                data-testid="traces-older"
              >
                {traces.data.loadingMore ? 'Loading…' : 'Load older'}
              </button>
            )}
          </section>
        ))}
    </div>
  );
}
