// /traces and /my-traces: search requests by service, operation, status, minimum duration, time
// range and one attribute; newest first, older pages on demand; each row opens the waterfall.
// A super admin searches every company, or the one chosen in the header's tenant selector.
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { t } from '../../i18n.ts';
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
      <nav aria-label={t('traces.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('traces.dashboard')}</a> / <span aria-current="page">{title}</span>
      </nav>
      <div className="sw-page-head">
        <h2 className="sw-page-title">{title}</h2>
        <p className="sw-muted">{t('traces.intro')}</p>
      </div>
      <form
        className="sw-mx-filters"
        aria-label={t('traces.search.label')}
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...draft });
        }}
      >
        <label>
          {t('traces.filter.service')}
          <input type="text" maxLength={200} {...field('service')} data-testid="traces-service" />
        </label>
        <label>
          {t('traces.filter.operation')}
          <input type="text" maxLength={500} {...field('operation')} />
        </label>
        <label>
          {t('traces.filter.status')}
          <select {...field('status')} data-testid="traces-status">
            <option value="">{t('traces.filter.any')}</option>
            <option value="ok">{t('traces.status.ok')}</option>
            <option value="error">{t('traces.status.error')}</option>
          </select>
        </label>
        <label>
          {t('traces.filter.minDuration')}
          <input type="number" min={0} step="any" inputMode="decimal" {...field('minDurationMs')} data-testid="traces-min-duration" />
        </label>
        <label>
          {t('traces.filter.from')}
          <input type="datetime-local" {...field('from')} />
        </label>
        <label>
          {t('traces.filter.to')}
          <input type="datetime-local" {...field('to')} />
        </label>
        <label>
          {t('traces.filter.attribute')}
          <input
            type="text"
            maxLength={400}
            placeholder={t('traces.filter.attributeExample')}
            {...field('attr')}
            data-testid="traces-attr"
          />
        </label>
        <button type="submit" className="sw-btn sw-btn-primary" data-testid="traces-search">
          {t('traces.search.submit')}
        </button>
      </form>
      {traces.status === 'loading' && <Skeleton rows={6} />}
      {traces.status === 'error' && <ErrorPanel message={traces.message} />}
      {traces.status === 'ready' &&
        (traces.data.rows.length === 0 ? (
          <NoData text={applied.from || applied.to ? t('traces.empty.range') : t('traces.empty.day')} />
        ) : (
          <section className="sw-card" aria-label={t('traces.listLabel')}>
            <Table
              compact
              className="sw-tr-table"
              testId="traces-table"
              rows={traces.data.rows}
              rowKey={(r) => `${r.traceId}/${r.id}`}
              rowProps={(r) => ({ className: r.status === 'error' ? 'sw-tr-error' : undefined, 'data-testid': 'trace-row' })}
              columns={[
                {
                  label: t('traces.col.time'),
                  cell: (r) => (
                    <a href={`/traces/${r.traceId}`} data-testid="trace-link">
                      {fmtTime(r.timestamp, '—')}
                    </a>
                  ),
                },
                { label: t('traces.col.service'), cell: (r) => r.service },
                { label: t('traces.col.operation'), className: 'sw-tr-op', cell: (r) => r.operation },
                { label: t('traces.col.duration'), cell: (r) => t('traces.ms', { value: fmtNumber(r.duration, 1) }) },
                {
                  label: t('traces.col.status'),
                  cell: (r) => (
                    <span className={r.status === 'error' ? 'sw-badge sw-tr-status-error' : 'sw-badge sw-tr-status-ok'}>
                      <span aria-hidden="true">{r.status === 'error' ? '✕ ' : '✓ '}</span>
                      {r.status === 'error' ? t('traces.status.error') : t('traces.status.ok')}
                    </span>
                  ),
                },
                { label: t('traces.col.spans'), cell: (r) => r.spanCount },
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
                {traces.data.loadingMore ? t('traces.loading') : t('traces.older')}
              </button>
            )}
          </section>
        ))}
    </div>
  );
}
