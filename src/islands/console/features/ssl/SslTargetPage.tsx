// /ssl-monitoring/{id}: one TLS target in full: the certificate, the chain's trust, the host
// name, protocols, weak cipher families accepted, OCSP stapling, HSTS, the grade with the caps
// that set it, and each problem with its evidence.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { fmtTime } from '../../ui/format.ts';
import { Expiry, GradeBadge } from './badges.tsx';
import { t } from '../../i18n.ts';
import { $sslAlert, $sslTarget, checkSslNow, keyText, loadSslTarget, protocolText, type SslTarget } from './store.ts';

const WEAK = new Set(['null', 'anonymous', 'rsa_kx', 'cbc_sha1']);
/** A weak cipher family's name in the reader's language; an unknown one as the server names it. */
const weakName = (w: string) => (WEAK.has(w) ? t(`ssl.weak.${w as 'null'}`) : w);

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

export function SslTargetPage({ params }: ScreenProps) {
  const id = params.id ?? '';
  const load = useStore($sslTarget);
  useEffect(() => {
    $sslAlert.set(null);
    void loadSslTarget(id);
  }, [id]);
  return (
    <div className="sw-admin">
      <nav aria-label={t('ssl.breadcrumb')} className="sw-breadcrumb">
        <a href="/dashboard">{t('ssl.dashboard')}</a> / <a href="/ssl-monitoring">{t('ssl.crumb')}</a> /{' '}
        <span aria-current="page">{t('ssl.certificate')}</span>
      </nav>
      {load.status === 'loading' && <Skeleton rows={4} />}
      {load.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {load.httpStatus === 404 ? t('ssl.notFound') : load.message}
        </div>
      )}
      {load.status === 'ready' && load.data.id === id && <Target target={load.data} />}
    </div>
  );
}

function Target({ target }: { target: SslTarget }) {
  const role = useStore($role);
  const alert = useStore($sslAlert);
  const a = target.analysis;
  return (
    <>
      <div className="sw-page-head sw-row-between">
        <h2 className="sw-page-title sw-wrap-anywhere">
          {target.name} <GradeBadge grade={target.grade} />
        </h2>
        {can(role, 'update', 'ssl_monitoring') && (
          <button
            type="button"
            className="sw-btn sw-btn-primary"
            onClick={() => void checkSslNow(target.id, () => loadSslTarget(target.id))}
          >
            {t('ssl.analyseNow')}
          </button>
        )}
      </div>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {!a && <p className="sw-muted">{t('ssl.notAnalysed')}</p>}
      {a && (
        <>
          <section className="sw-card" aria-labelledby="ssl-cert">
            <header className="sw-card-head">
              <h3 id="ssl-cert">{t('ssl.certificate')}</h3>
            </header>
            {a.error && (
              <div className="sw-banner sw-banner-error" role="alert">
                {a.error}
              </div>
            )}
            <dl className="sw-dl sw-dl-stack">
              <dt>{t('ssl.endpoint')}</dt>
              <dd>{t('ssl.endpointValue', { endpoint: `${target.host}:${target.port}`, kind: target.kind })}</dd>
              <dt>{t('ssl.expires')}</dt>
              <dd>
                <Expiry daysLeft={target.days_left} /> {fmtTime(iso(a.cert_expires_at), '')}
              </dd>
              <dt>{t('ssl.subject')}</dt>
              <dd>{a.subject ?? '—'}</dd>
              <dt>{t('ssl.issuer')}</dt>
              <dd>{a.issuer ?? '—'}</dd>
              <dt>{t('ssl.namesCovered')}</dt>
              <dd>{a.names.join(', ') || '—'}</dd>
              <dt>{t('ssl.chain')}</dt>
              <dd>
                {a.trusted
                  ? t('ssl.trusted')
                  : t(a.self_signed ? 'ssl.notTrustedSelfSigned' : 'ssl.notTrusted', { reason: a.trust_error ?? t('ssl.unknownReason') })}
              </dd>
              <dt>{t('ssl.hostName')}</dt>
              <dd>{a.hostname_match ? t('ssl.matches', { host: target.host }) : t('ssl.doesNotCover', { host: target.host })}</dd>
              <dt>{t('ssl.key')}</dt>
              <dd>{keyText(target)}</dd>
              <dt>{t('ssl.signature')}</dt>
              <dd>{a.signature_algorithm ?? '—'}</dd>
              <dt>{t('ssl.fingerprint')}</dt>
              <dd className="sw-wrap-anywhere">{a.fingerprint256 ?? '—'}</dd>
            </dl>
          </section>
          <section className="sw-card" aria-labelledby="ssl-config">
            <header className="sw-card-head">
              <h3 id="ssl-config">{t('ssl.configuration')}</h3>
            </header>
            <dl className="sw-dl sw-dl-stack">
              <dt>{t('ssl.grade')}</dt>
              <dd>
                {target.grade === 'T'
                  ? t('ssl.gradeScoreTrusted', { grade: target.grade, score: a.score, ifTrusted: a.grade_if_trusted ?? '—' })
                  : t('ssl.gradeScore', { grade: target.grade ?? '—', score: a.score })}
              </dd>
              <dt>{t('ssl.limitedBy')}</dt>
              <dd>{a.caps.length ? a.caps.join('; ') : t('ssl.nothing')}</dd>
              <dt>{t('ssl.protocols')}</dt>
              <dd>{protocolText(a.protocols)}</dd>
              <dt>{t('ssl.weakCiphers')}</dt>
              <dd>{a.weak_ciphers.length ? a.weak_ciphers.map(weakName).join(', ') : t('ssl.noneTried')}</dd>
              <dt>{t('ssl.suites')}</dt>
              <dd className="sw-wrap-anywhere">{a.ciphers.join(', ') || '—'}</dd>
              <dt>{t('ssl.ocsp')}</dt>
              <dd>{a.ocsp_stapled ? t('ssl.yes') : t('ssl.no')}</dd>
              <dt>{t('ssl.hsts')}</dt>
              <dd className="sw-wrap-anywhere">{a.hsts ?? t('ssl.notSent')}</dd>
              <dt>{t('ssl.analysed')}</dt>
              <dd>{fmtTime(iso(target.checked_at), '—')}</dd>
            </dl>
          </section>
          <section className="sw-card" aria-labelledby="ssl-problems">
            <header className="sw-card-head">
              <h3 id="ssl-problems">{t('ssl.problemsTitle', { count: target.problems.length })}</h3>
            </header>
            {target.problems.length === 0 ? (
              <p className="sw-muted">{t('ssl.noProblems')}</p>
            ) : (
              <ul className="sw-list">
                {target.problems.map((p) => (
                  <li key={p.key} className="sw-list-row">
                    <div>
                      <span
                        className={`sw-pill ${p.severity === 'critical' || p.severity === 'high' ? 'sw-red' : p.severity === 'medium' ? 'sw-amber' : 'sw-grey'}`}
                      >
                        {t(`ssl.severity.${p.severity}`)}
                      </span>{' '}
                      <strong>{p.title}</strong>
                      {p.status === 'accepted' && <span className="sw-muted">{t('ssl.acceptedRisk')}</span>}
                      <div className="sw-muted sw-wrap-anywhere">
                        {p.evidence} · {t('ssl.since', { time: fmtTime(iso(p.first_seen_at), '—') })} · <code>{p.key}</code>
                      </div>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </>
  );
}
