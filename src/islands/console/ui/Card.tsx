// A dashboard card with its header link, body states (skeleton, error panel, 'No Data') and footer.
import type { ReactNode } from 'react';
import type { Load } from './load.ts';
import { t } from '../i18n.ts';

export function Card(props: { title: string; action?: ReactNode; footer?: ReactNode; children: ReactNode; testId?: string }) {
  const id = 'card-' + props.title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return (
    <section className="sw-card" aria-labelledby={id} data-testid={props.testId}>
      <header className="sw-card-head">
        <h2 id={id}>{props.title}</h2>
        {props.action}
      </header>
      <div className="sw-card-body">{props.children}</div>
      {props.footer && <footer className="sw-card-foot">{props.footer}</footer>}
    </section>
  );
}

export function Skeleton({ rows = 3 }: { rows?: number }) {
  return (
    <div className="sw-skeleton" role="status" aria-busy="true" aria-label={t('ui.card.loading')}>
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="sw-skeleton-row" />
      ))}
    </div>
  );
}

export function ErrorPanel({ message }: { message: string }) {
  return (
    <div className="sw-error-panel" role="alert">
      <strong>{t('ui.card.error')}</strong>
      <p>{message || t('ui.card.failedToLoadData')}</p>
    </div>
  );
}

export function NoData({ text }: { text: string }) {
  return (
    <div className="sw-nodata">
      <strong>{t('ui.card.noData')}</strong>
      <p>{text}</p>
    </div>
  );
}

/** Renders a Load<T>: skeleton while loading, the error panel, 'No Data' when empty, else the content. */
export function LoadView<T>(props: {
  load: Load<T>;
  isEmpty: (d: T) => boolean;
  empty: string;
  children: (d: T) => ReactNode;
  rows?: number;
}) {
  const { load } = props;
  if (load.status === 'loading') return <Skeleton rows={props.rows} />;
  if (load.status === 'error') return <ErrorPanel message={load.message} />;
  if (props.isEmpty(load.data)) return <NoData text={props.empty} />;
  return <>{props.children(load.data)}</>;
}
