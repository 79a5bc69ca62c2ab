// "Custom domain" on the status page settings: a company's own host name (status.example.com)
// for its public page. Shows the two DNS records to create (CNAME to the platform, TXT with the
// token), the state and what the last check found, Verify now, and Remove for super admins.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { customDomainProblem, normalizeCustomDomain } from '../../../../lib/custom-domains.ts';
import { can, type Role } from '../../../../lib/permissions.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { fmtTime } from '../../ui/format.ts';
import {
  $domainAlert,
  $domainBusy,
  $domains,
  addDomain,
  type CustomDomain,
  loadDomains,
  removeDomain,
  verifyDomain,
} from './domains-store.ts';
import { Table } from '../../ui/Table.tsx';
import { t } from '../../i18n.ts';

export function CustomDomainCard(p: { role: Role | null; tenant: string | null; productDomain: string }) {
  const domains = useStore($domains);
  const alert = useStore($domainAlert);
  const busy = useStore($domainBusy);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mayAdd = can(p.role, 'create', 'settings');
  useEffect(() => {
    $domainAlert.set(null);
    void loadDomains(p.tenant);
  }, [p.tenant]);
  const add = async (e: FormEvent) => {
    e.preventDefault();
    const domain = normalizeCustomDomain(name);
    const problem = customDomainProblem(domain, p.productDomain) ?? (await addDomain(p.tenant, domain));
    setError(problem);
    if (!problem) setName('');
  };
  return (
    <section className="sw-card sw-sp-domains" aria-labelledby="sp-domains-title">
      <header className="sw-card-head">
        <h3 id="sp-domains-title">{t('statusPage.domain.title')}</h3>
      </header>
      <div className="sw-card-body">
        <p className="sw-muted">{t('statusPage.domain.intro')}</p>
        {alert && (
          <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
            {alert.text}
          </div>
        )}
        {domains.status === 'loading' && <Skeleton rows={2} />}
        {domains.status === 'error' && (
          <div className="sw-banner sw-banner-error" role="alert">
            {domains.message}
            <button type="button" className="sw-btn sw-btn-small" onClick={() => void loadDomains(p.tenant)}>
              {t('statusPage.domain.retry')}
            </button>
          </div>
        )}
        {domains.status === 'ready' && domains.data.length === 0 && <p className="sw-empty">{t('statusPage.domain.empty')}</p>}
        {domains.status === 'ready' &&
          domains.data.map((d) => (
            <DomainRow key={d.id} domain={d} busy={busy === d.id} mayRemove={can(p.role, 'delete', 'settings')} tenant={p.tenant} />
          ))}
        {mayAdd && (
          <form className="sw-sp-add" onSubmit={(e) => void add(e)} noValidate>
            <label htmlFor="sp-domain">{t('statusPage.domain.label')}</label>
            <input
              id="sp-domain"
              value={name}
              maxLength={253}
              placeholder="status.example.com"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'sp-domain-error' : undefined}
              onChange={(e) => setName(e.target.value)}
            />
            <button type="submit" className="sw-btn" disabled={busy === 'new'}>
              {busy === 'new' ? t('statusPage.domain.adding') : t('statusPage.domain.add')}
            </button>
            {error && (
              <p id="sp-domain-error" className="sw-field-error">
                {error}
              </p>
            )}
          </form>
        )}
      </div>
    </section>
  );
}

function DomainRow(p: { domain: CustomDomain; busy: boolean; mayRemove: boolean; tenant: string | null }) {
  const d = p.domain;
  const headId = `sp-domain-${d.id}`;
  return (
    <article className="sw-sp-domain" aria-labelledby={headId} data-domain={d.domain}>
      <div className="sw-row-between">
        <h4 id={headId} className="sw-wrap-anywhere">
          {d.domain} <span className={`sw-badge sw-badge-domain-${d.state}`}>{t(`statusPage.domain.state.${d.state}`)}</span>
        </h4>
        <span className="sw-actions">
          <button type="button" className="sw-btn sw-btn-small" disabled={p.busy} onClick={() => void verifyDomain(p.tenant, d)}>
            {p.busy ? t('statusPage.domain.checking') : t('statusPage.domain.verify')}
            <span className="sw-visually-hidden"> {d.domain}</span>
          </button>
          {p.mayRemove && (
            <button
              type="button"
              className="sw-btn sw-btn-small sw-btn-danger"
              disabled={p.busy}
              onClick={() => void removeDomain(p.tenant, d)}
            >
              {t('statusPage.domain.remove')}
              <span className="sw-visually-hidden"> {d.domain}</span>
            </button>
          )}
        </span>
      </div>
      <p className="sw-muted">
        {d.state === 'verified'
          ? t('statusPage.domain.verified', {
              verified: fmtTime(d.verified_at, ''),
              checked: fmtTime(d.checked_at, t('statusPage.domain.never')),
            })
          : d.state === 'failed'
            ? t('statusPage.domain.failed', { checked: fmtTime(d.checked_at, '') })
            : t('statusPage.domain.pendingNote')}
      </p>
      {d.last_error && <p className="sw-sp-warn sw-wrap-anywhere">{d.last_error}</p>}
      <Table
        className="sw-sp-records"
        caption={t('statusPage.domain.recordsCaption', { domain: d.domain })}
        rows={d.records}
        rowKey={(r) => r.type}
        columns={[
          { label: t('statusPage.domain.col.type'), cell: (r) => r.type },
          { label: t('statusPage.domain.col.name'), cell: (r) => <code className="sw-wrap-anywhere">{r.name}</code> },
          { label: t('statusPage.domain.col.value'), cell: (r) => <code className="sw-wrap-anywhere">{r.value}</code> },
        ]}
      />
    </article>
  );
}
