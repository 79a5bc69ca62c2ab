// Parts of a domain's card on /domain-checks: e-mail authentication and the findings list.
import { fmtTime } from '../../ui/format.ts';
import type { DomainFinding, DomainResult } from './store.ts';
import { t } from '../../i18n.ts';

const SPF_LIMIT = 10;
const ALL_QUALIFIERS = new Set(['-', '~', '?', '+']);
/** What SPF's `all` says about other senders, in the reader's language; an unknown qualifier as it stands. */
const allText = (q: string) => (ALL_QUALIFIERS.has(q) ? t(`domainChecks.all.${q as '-'}`) : q);
const SEVERITY_TONE: Record<DomainFinding['severity'], string> = {
  critical: 'sw-red',
  high: 'sw-red',
  medium: 'sw-amber',
  low: 'sw-grey',
  info: 'sw-grey',
};
const DKIM_TONE = { present: 'sw-green', revoked: 'sw-amber', missing: 'sw-red' } as const;

export function EmailAuth({ r }: { r: DomainResult }) {
  return (
    <div>
      <h4>{t('domainChecks.emailAuth')}</h4>
      <dl className="sw-dl">
        <dt>{t('domainChecks.spf')}</dt>
        <dd>
          {!r.spf ? (
            t('domainChecks.noAnswer')
          ) : r.spf.record ? (
            <>
              <div className="sw-wrap-anywhere">{r.spf.record}</div>
              <div>
                <span className={`sw-pill ${r.spf.lookups > SPF_LIMIT ? 'sw-red' : 'sw-green'}`}>
                  {t('domainChecks.spfLookups', { lookups: r.spf.lookups, limit: SPF_LIMIT })}
                </span>{' '}
                {r.spf.all ? allText(r.spf.all) : t('domainChecks.noAll')}
              </div>
            </>
          ) : (
            <span className="sw-pill sw-red">{t('domainChecks.missing')}</span>
          )}
        </dd>
        <dt>{t('domainChecks.dmarc')}</dt>
        <dd>
          {!r.dmarc ? (
            t('domainChecks.noAnswer')
          ) : r.dmarc.record ? (
            <>
              <span className={`sw-pill ${r.dmarc.policy === 'reject' || r.dmarc.policy === 'quarantine' ? 'sw-green' : 'sw-amber'}`}>
                p={r.dmarc.policy ?? '—'}
              </span>
              {r.dmarc.subdomain_policy && ` sp=${r.dmarc.subdomain_policy}`} pct={r.dmarc.pct}
              {r.dmarc.rua.length > 0 && (
                <div className="sw-wrap-anywhere">{t('domainChecks.reportsTo', { addresses: r.dmarc.rua.join(', ') })}</div>
              )}
            </>
          ) : (
            <span className="sw-pill sw-red">{t('domainChecks.missing')}</span>
          )}
        </dd>
        <dt>{t('domainChecks.dkim')}</dt>
        <dd>
          {r.dkim.length === 0
            ? t('domainChecks.noSelectors')
            : r.dkim.map((k) => (
                <div key={k.selector}>
                  {k.selector} <span className={`sw-pill ${DKIM_TONE[k.status]}`}>{t(`domainChecks.dkim.${k.status}`)}</span>
                  {k.key_type && ` ${k.key_type}`}
                </div>
              ))}
        </dd>
        <dt>{t('domainChecks.mtaSts')}</dt>
        <dd>
          {!r.mta_sts ? (
            t('domainChecks.notPublished')
          ) : r.mta_sts.error ? (
            <span className="sw-pill sw-red">{r.mta_sts.error}</span>
          ) : (
            <span className={`sw-pill ${r.mta_sts.mode === 'enforce' ? 'sw-green' : 'sw-amber'}`}>
              {t('domainChecks.mode', { mode: r.mta_sts.mode })}
            </span>
          )}
        </dd>
      </dl>
    </div>
  );
}

export function Findings({ findings }: { findings: DomainFinding[] }) {
  return (
    <>
      <h4>{t('domainChecks.findings')}</h4>
      {findings.length === 0 ? (
        <p className="sw-muted">{t('domainChecks.noFindings')}</p>
      ) : (
        <ul className="sw-list-plain" aria-label={t('domainChecks.findings')}>
          {findings.map((f) => (
            <li key={f.id} className="sw-finding">
              <span className={`sw-pill ${SEVERITY_TONE[f.severity]}`}>{t(`domainChecks.severity.${f.severity}`)}</span>{' '}
              <strong>{f.title}</strong>
              {f.status === 'accepted' && <span className="sw-muted">{t('domainChecks.accepted', { reason: f.status_reason })}</span>}
              <div className="sw-muted sw-wrap-anywhere">
                {t('domainChecks.firstSeen', { evidence: f.evidence, time: fmtTime(f.first_seen_at, '—') })}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
