// /domain-checks: each domain with its registrar and registration expiry (RDAP), name servers,
// DNS records and when each set last changed, e-mail authentication (SPF with its lookup count,
// DMARC, DKIM, MTA-STS), DNSSEC, the CNAMEs of the names under it, and its open findings.
// Viewers read; company admins also name DKIM selectors and watched names and check at once.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { fmtDate, fmtTime } from '../../ui/format.ts';
import { Modal } from '../../ui/Modal.tsx';
import { FormAlert, ModalActions, useModalForm } from '../../ui/ModalForm.tsx';
import {
  $domains,
  $domainsAlert,
  checkNow,
  daysUntil,
  loadDomains,
  saveSettings,
  splitList,
  type DomainCheck,
  type DomainResult,
} from './store.ts';
import { EmailAuth, Findings } from './sections.tsx';
import { Table } from '../../ui/Table.tsx';
import { t } from '../../i18n.ts';

export function DomainChecksPage({ title }: { title: string }) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const domains = useStore($domains);
  const alert = useStore($domainsAlert);
  const scope = role === 'super_admin' ? tenant : null;
  const mayChange = can(role, 'update', 'domain_checks');
  const [editing, setEditing] = useState<DomainCheck | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => {
    $domainsAlert.set(null);
    void loadDomains(scope);
  }, [scope]);
  return (
    <div className="sw-admin">
      <h2 className="sw-page-title">{title}</h2>
      <p className="sw-muted">{t('domainChecks.intro')}</p>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role={alert.ok ? 'status' : 'alert'}>
          {alert.text}
        </div>
      )}
      {domains.status === 'loading' && <Skeleton rows={4} />}
      {domains.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {domains.message}
        </div>
      )}
      {domains.status === 'ready' && domains.data.length === 0 && <p className="sw-banner">{t('domainChecks.empty')}</p>}
      {domains.status === 'ready' &&
        domains.data.map((d) => (
          <DomainCard
            key={d.id}
            d={d}
            mayChange={mayChange}
            busy={busy === d.id}
            onCheck={async () => {
              setBusy(d.id);
              await checkNow(d, scope);
              setBusy(null);
            }}
            onSettings={() => setEditing(d)}
          />
        ))}
      {editing && <SettingsModal d={editing} tenant={scope} onClose={() => setEditing(null)} />}
    </div>
  );
}

function DomainCard(props: { d: DomainCheck; mayChange: boolean; busy: boolean; onCheck: () => void; onSettings: () => void }) {
  const { d } = props;
  const id = `domain-${d.id}`;
  return (
    <section className="sw-card" aria-labelledby={id} data-testid="domain-card">
      <header className="sw-card-head sw-row-between">
        <div>
          <h3 id={id}>{d.hostname}</h3>
          <span className="sw-muted">
            {d.result
              ? t('domainChecks.checkedAt', { time: fmtTime(d.result.checked_at, '—') })
              : d.verified
                ? t('domainChecks.notChecked')
                : t('domainChecks.notVerified')}
          </span>
        </div>
        {props.mayChange && (
          <div className="sw-row">
            <button
              type="button"
              className="sw-btn sw-btn-small"
              onClick={props.onSettings}
              aria-label={t('domainChecks.settingsAria', { host: d.hostname })}
            >
              {t('domainChecks.settings')}
            </button>
            {d.verified && (
              <button
                type="button"
                className="sw-btn sw-btn-small sw-btn-primary"
                disabled={props.busy}
                onClick={props.onCheck}
                aria-label={t('domainChecks.checkNowAria', { host: d.hostname })}
              >
                {props.busy ? t('domainChecks.checking') : t('domainChecks.checkNow')}
              </button>
            )}
          </div>
        )}
      </header>
      {!d.verified && <p className="sw-banner">{t('domainChecks.notVerifiedBanner', { host: d.hostname })}</p>}
      {d.result && <ResultView r={d.result} />}
      <Findings findings={d.findings} />
    </section>
  );
}

function ResultView({ r }: { r: DomainResult }) {
  const days = r.registration_expires_at ? daysUntil(r.registration_expires_at) : null;
  return (
    <div className="sw-grid">
      <div>
        <h4>{t('domainChecks.registration')}</h4>
        {r.rdap_error && <p className="sw-muted">{r.rdap_error}</p>}
        <dl className="sw-dl">
          <dt>{t('domainChecks.registrar')}</dt>
          <dd>{r.registrar ?? '—'}</dd>
          <dt>{t('domainChecks.expires')}</dt>
          <dd>
            {fmtDate(r.registration_expires_at)}
            {days !== null && (
              <>
                {' '}
                <span className={`sw-pill ${days < 0 ? 'sw-red' : days <= 30 ? 'sw-amber' : 'sw-green'}`}>
                  {days < 0 ? t('domainChecks.expired') : t('domainChecks.daysLeft', { days })}
                </span>
              </>
            )}
          </dd>
          <dt>{t('domainChecks.nameServers')}</dt>
          <dd>{r.registry_nameservers.join(', ') || '—'}</dd>
          <dt>{t('domainChecks.dnssec')}</dt>
          <dd>
            <span
              className={`sw-pill ${r.dnssec.status === 'signed' ? 'sw-green' : r.dnssec.status === 'unsigned' ? 'sw-amber' : 'sw-grey'}`}
            >
              {t(`domainChecks.dnssec.${r.dnssec.status}`)}
            </span>
            {r.dnssec.validated && t('domainChecks.dnssecValidated')}
          </dd>
        </dl>
      </div>
      <EmailAuth r={r} />
      <div className="sw-span-2">
        <h4>{t('domainChecks.records')}</h4>
        <Table
          stack={false}
          compact
          className="sw-records"
          rows={r.records}
          rowKey={(set) => set.type}
          columns={[
            { label: t('domainChecks.col.type'), rowHeader: true, cell: (set) => set.type },
            {
              label: t('domainChecks.col.values'),
              className: 'sw-wrap-anywhere',
              cell: (set) => (set.values === null ? t('domainChecks.noAnswer') : set.values.length ? set.values.join('\n') : '—'),
            },
            {
              label: t('domainChecks.col.lastChange'),
              cell: (set) => (set.changed_at ? fmtTime(set.changed_at, '—') : t('domainChecks.noChangeSeen')),
            },
          ]}
        />
        {r.last_changes && (
          <p className="sw-muted">
            {t('domainChecks.lastChange', {
              time: fmtTime(r.last_changes.at, '—'),
              changes: r.last_changes.changes
                .map((c) => `${c.type} ${[...c.added.map((a) => `+${a}`), ...c.removed.map((x) => `−${x}`)].join(' ')}`)
                .join('; '),
            })}
          </p>
        )}
        <h4>{t('domainChecks.cnames')}</h4>
        {r.cnames.length === 0 ? (
          <p className="sw-muted">{t('domainChecks.noCnames')}</p>
        ) : (
          <ul className="sw-list-plain">
            {r.cnames.map((c) => (
              <li key={c.name}>
                {c.name} → {c.target}{' '}
                <span className={`sw-pill ${c.dangling ? 'sw-red' : 'sw-green'}`}>
                  {c.dangling ? t('domainChecks.dangling') : t('domainChecks.resolves')}
                </span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

function SettingsModal({ d, tenant, onClose }: { d: DomainCheck; tenant: string | null; onClose: () => void }) {
  const { f, errors, busy, edit, send } = useModalForm({ selectors: d.dkim_selectors.join('\n'), names: d.watched_names.join('\n') });
  const alert = useStore($domainsAlert);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await send({}, () => saveSettings(d, splitList(f.selectors), splitList(f.names), tenant));
    if (ok) onClose();
  }
  return (
    <Modal title={t('domainChecks.settingsTitle', { host: d.hostname })} onClose={onClose}>
      <form className="sw-form" onSubmit={submit} noValidate>
        <FormAlert text={alert && !alert.ok ? alert.text : null} />
        <Field id="dc-selectors" label={t('domainChecks.selectors')} error={errors.selectors} hint={t('domainChecks.selectorsHint')}>
          <textarea id="dc-selectors" rows={3} value={f.selectors} onChange={(e) => edit({ selectors: e.target.value }, 'selectors')} />
        </Field>
        <Field
          id="dc-names"
          label={t('domainChecks.watchedNames')}
          error={errors.names}
          hint={t('domainChecks.watchedNamesHint', { host: d.hostname })}
        >
          <textarea id="dc-names" rows={3} value={f.names} onChange={(e) => edit({ names: e.target.value }, 'names')} />
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel={t('domainChecks.save')} />
      </form>
    </Modal>
  );
}
