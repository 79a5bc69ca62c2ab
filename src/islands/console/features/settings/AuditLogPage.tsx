// /settings/audit (super admins): the audit log, newest first, filtered by event, user, company
// and time, a page of 50 at a time.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { AUDIT_EVENTS } from '../../../../lib/audit-events.ts';
import { AUDIT_EVENT_LABELS, FLAG_LABELS, ROLE_LABELS, humanize } from '../../../../lib/labels.ts';
import { consoleLabel } from '../../labels.ts';
import { $tenantOptions, loadTenantOptions } from '../../stores/tenant.ts';
import { t } from '../../i18n.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { fmtTime } from '../../ui/format.ts';
import {
  $audit,
  $auditUsers,
  AUDIT_PAGE_SIZE,
  EMPTY_AUDIT_FILTERS,
  loadAudit,
  loadAuditUsers,
  type AuditEventName,
  type AuditFilters,
} from './store.ts';
import { Pager } from '../../ui/Pager.tsx';
import { Table } from '../../ui/Table.tsx';
import './settings.css';

export function AuditLogPage({ title }: { title: string }) {
  const page = useStore($audit);
  const users = useStore($auditUsers);
  const tenants = useStore($tenantOptions);
  const [draft, setDraft] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [applied, setApplied] = useState<AuditFilters>(EMPTY_AUDIT_FILTERS);
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    void loadAuditUsers();
    if (!$tenantOptions.get().loaded) void loadTenantOptions();
  }, []);
  useEffect(() => void loadAudit(applied, offset), [applied, offset]);
  const companyName = (id: string | null) => (id ? (tenants.list.find((c) => c.id === id)?.name ?? id) : '—');
  const userName = (id: string | null) => (id ? (users.find((u) => u.id === id)?.email ?? id) : '—');
  const set = (k: keyof AuditFilters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  function apply(e: FormEvent) {
    e.preventDefault();
    setOffset(0);
    setApplied(draft);
  }
  const total = page.status === 'ready' ? page.data.total : 0;
  return (
    <div className="sw-admin sw-settings">
      <nav aria-label={t('settings.breadcrumb')} className="sw-breadcrumb">
        <a href="/settings">{t('settings.settings')}</a> / <span aria-current="page">{t('settings.audit.crumb')}</span>
      </nav>
      <h2 className="sw-page-title">{title}</h2>
      <form className="sw-filters" onSubmit={apply} aria-label={t('settings.audit.filterLabel')}>
        <div className="sw-filter">
          <label htmlFor="audit-event">{t('settings.audit.event')}</label>
          <select
            id="audit-event"
            value={draft.event}
            onChange={(e) => setDraft({ ...draft, event: e.target.value as AuditEventName | '' })}
          >
            <option value="">{t('settings.audit.anyEvent')}</option>
            {AUDIT_EVENTS.map((n) => (
              <option key={n} value={n}>
                {consoleLabel('auditEvent', AUDIT_EVENT_LABELS, n)}
              </option>
            ))}
          </select>
        </div>
        <div className="sw-filter">
          <label htmlFor="audit-user">{t('settings.audit.user')}</label>
          <select id="audit-user" value={draft.userId} onChange={set('userId')}>
            <option value="">{t('settings.audit.anyUser')}</option>
            {users.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </div>
        <div className="sw-filter">
          <label htmlFor="audit-company">{t('settings.audit.company')}</label>
          <select id="audit-company" value={draft.tenantId} onChange={set('tenantId')}>
            <option value="">{t('settings.audit.anyCompany')}</option>
            {tenants.list.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div className="sw-filter">
          <label htmlFor="audit-from">{t('settings.audit.from')}</label>
          <input id="audit-from" type="datetime-local" value={draft.from} onChange={set('from')} />
        </div>
        <div className="sw-filter">
          <label htmlFor="audit-to">{t('settings.audit.to')}</label>
          <input id="audit-to" type="datetime-local" value={draft.to} onChange={set('to')} />
        </div>
        <div className="sw-filter-actions">
          <button type="submit" className="sw-btn sw-btn-primary">
            {t('settings.audit.apply')}
          </button>{' '}
          <button
            type="button"
            className="sw-btn"
            onClick={() => {
              setDraft(EMPTY_AUDIT_FILTERS);
              setApplied(EMPTY_AUDIT_FILTERS);
              setOffset(0);
            }}
          >
            {t('settings.audit.clear')}
          </button>
        </div>
      </form>
      {page.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {page.message}
        </div>
      )}
      <section className="sw-card" aria-labelledby="audit-events">
        <header className="sw-card-head">
          <h3 id="audit-events">{t('settings.audit.events', { count: total })}</h3>
        </header>
        {page.status === 'loading' && <Skeleton rows={5} />}
        {page.status === 'ready' && (
          <Table
            testId="audit-table"
            rows={page.data.items}
            rowKey={(e) => e.id}
            empty={t('settings.audit.empty')}
            columns={[
              { label: t('settings.audit.time'), cell: (e) => fmtTime(e.timestamp, '—') },
              {
                label: t('settings.audit.event'),
                className: 'sw-audit-event',
                cell: (e) => consoleLabel('auditEvent', AUDIT_EVENT_LABELS, e.event),
              },
              {
                label: t('settings.audit.user'),
                cell: (e) => (
                  <>
                    {userName(e.userId)}
                    {e.userRole && <div className="sw-muted sw-small">{consoleLabel('role', ROLE_LABELS, e.userRole)}</div>}
                  </>
                ),
              },
              { label: t('settings.audit.company'), cell: (e) => companyName(e.tenantId) },
              { label: t('settings.audit.details'), className: 'sw-audit-details', cell: (e) => <Details details={e.details} /> },
            ]}
          />
        )}
        {total > AUDIT_PAGE_SIZE && (
          <Pager
            label={t('settings.audit.pages')}
            hasNewer={offset > 0}
            hasOlder={offset + AUDIT_PAGE_SIZE < total}
            onNewer={() => setOffset(Math.max(0, offset - AUDIT_PAGE_SIZE))}
            onOlder={() => setOffset(offset + AUDIT_PAGE_SIZE)}
            range={t('settings.audit.range', { first: offset + 1, last: Math.min(total, offset + AUDIT_PAGE_SIZE), total })}
          />
        )}
      </section>
    </div>
  );
}

/** A detail's key in words (a flag by its label). */
const keyText = (k: string) => consoleLabel('flag', FLAG_LABELS, k);
/** A code among the values ('smtp_test', 'custom_domain') is read as words too; other text stays as is. */
const CODE = /^[a-z0-9]+(?:_[a-z0-9]+)+$/;

/** A value as a line reads it: text as is, lists joined, nested objects as key: value pairs. */
function valueText(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? t('settings.audit.yes') : t('settings.audit.no');
  if (Array.isArray(v)) return v.length ? v.map(valueText).join(', ') : t('settings.audit.none');
  if (typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${keyText(k)}: ${valueText(x)}`)
      .join('; ');
  const text = String(v);
  return CODE.test(text) ? humanize(text) : text;
}

/** An event's details as "Key: value" lines, not a JSON blob. */
function Details({ details }: { details: unknown }) {
  if (details === null || details === undefined) return <>—</>;
  if (typeof details !== 'object' || Array.isArray(details)) return <>{valueText(details)}</>;
  const entries = Object.entries(details as Record<string, unknown>);
  if (entries.length === 0) return <>—</>;
  return (
    <dl className="sw-audit-lines">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{keyText(k)}:</dt> <dd>{valueText(v)}</dd>
        </div>
      ))}
    </dl>
  );
}
