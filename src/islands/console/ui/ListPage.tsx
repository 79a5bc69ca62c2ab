// The frame every management list shares (Tenants, Users; later Monitors, Incidents, Team):
// breadcrumb, title with its create button, the last action's alert, the load-error banner with
// Retry, and a card titled with the count holding a skeleton, the empty text or the table.
import type { ReactNode } from 'react';
import { Skeleton } from './Card.tsx';
import type { Load } from './load.ts';
import { Table } from './Table.tsx';
import { t } from '../i18n.ts';

export interface ListPageProps<T> {
  crumb: string;
  title: string;
  /** absent for those who may not create (a viewer sees no button that would fail) */
  createLabel?: string;
  onCreate?: () => void;
  /** the result of the last create/edit/delete, hidden while a modal shows its own */
  alert: { ok: boolean; text: string } | null;
  load: Load<T[]>;
  onRetry: () => void;
  listTitle: string;
  listId: string;
  empty: string;
  columns: string[];
  /** one cell per column, in order; the 'Actions' column holds the row's buttons */
  row: (item: T) => { key: string; cells: ReactNode[] };
  /** filters above the list */
  toolbar?: ReactNode;
  /** a line under the title (why a button is missing, say) */
  note?: string;
  /** modals and confirmations */
  children?: ReactNode;
}

export function ListPage<T>(p: ListPageProps<T>) {
  const count = p.load.status === 'ready' ? p.load.data.length : 0;
  return (
    <div className="sw-admin">
      <nav aria-label={t('ui.listPage.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('ui.listPage.dashboard')}</a> / <span aria-current="page">{p.crumb}</span>
      </nav>
      <div className="sw-page-head sw-row-between">
        <h2 className="sw-page-title">{p.title}</h2>
        {p.createLabel && p.onCreate && (
          <button type="button" className="sw-btn sw-btn-primary" onClick={p.onCreate}>
            {p.createLabel}
          </button>
        )}
      </div>
      {p.note && <p className="sw-muted">{p.note}</p>}
      {p.toolbar}
      {p.alert && (
        <div className={p.alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {p.alert.text}
        </div>
      )}
      {p.load.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {p.load.message}
          <button type="button" className="sw-btn sw-btn-small" onClick={p.onRetry}>
            {t('ui.listPage.retry')}
          </button>
        </div>
      )}
      <section className="sw-card" aria-labelledby={p.listId}>
        <header className="sw-card-head">
          <h3 id={p.listId}>
            {p.listTitle} ({count})
          </h3>
        </header>
        {p.load.status === 'loading' && <Skeleton rows={4} />}
        {p.load.status === 'ready' && (
          <Table
            rows={p.load.data.map(p.row)}
            rowKey={(r) => r.key}
            empty={p.empty}
            columns={p.columns.map((label, i) => ({
              label,
              className: label === 'Actions' ? 'sw-actions' : undefined,
              cell: (r: { cells: ReactNode[] }) => r.cells[i],
            }))}
          />
        )}
      </section>
      {p.children}
    </div>
  );
}
