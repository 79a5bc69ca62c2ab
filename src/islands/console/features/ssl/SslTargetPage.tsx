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
import { $sslAlert, $sslTarget, checkSslNow, keyText, loadSslTarget, protocolText, type SslTarget } from './store.ts';

const WEAK_NAMES: Record<string, string> = {
  null: 'NULL (no encryption)',
  anonymous: 'Anonymous (no authentication)',
  rsa_kx: 'RSA key exchange (no forward secrecy)',
  cbc_sha1: 'CBC with SHA-1',
};

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
      <nav aria-label="Breadcrumb" className="sw-breadcrumb">
        <a href="/dashboard">Dashboard</a> / <a href="/ssl-monitoring">SSL monitoring</a> / <span aria-current="page">Certificate</span>
      </nav>
      {load.status === 'loading' && <Skeleton rows={4} />}
      {load.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {load.httpStatus === 404 ? 'This target does not exist or is not yours to see.' : load.message}
        </div>
      )}
      {load.status === 'ready' && load.data.id === id && <Target t={load.data} />}
    </div>
  );
}

function Target({ t }: { t: SslTarget }) {
  const role = useStore($role);
  const alert = useStore($sslAlert);
  const a = t.analysis;
  return (
    <>
      <div className="sw-page-head sw-row-between">
        <h2 className="sw-page-title sw-wrap-anywhere">
          {t.name} <GradeBadge grade={t.grade} />
        </h2>
        {can(role, 'update', 'ssl_monitoring') && (
          <button type="button" className="sw-btn sw-btn-primary" onClick={() => void checkSslNow(t.id, () => loadSslTarget(t.id))}>
            Analyse now
          </button>
        )}
      </div>
      {alert && (
        <div className={alert.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
          {alert.text}
        </div>
      )}
      {!a && <p className="sw-muted">Not analysed yet: the daily analysis reaches it within a day, or analyse it now.</p>}
      {a && (
        <>
          <section className="sw-card" aria-labelledby="ssl-cert">
            <header className="sw-card-head">
              <h3 id="ssl-cert">Certificate</h3>
            </header>
            {a.error && (
              <div className="sw-banner sw-banner-error" role="alert">
                {a.error}
              </div>
            )}
            <dl className="sw-dl sw-dl-stack">
              <dt>Endpoint</dt>
              <dd>
                {t.host}:{t.port} ({t.kind === 'asset' ? 'verified host' : 'https monitor'})
              </dd>
              <dt>Expires</dt>
              <dd>
                <Expiry daysLeft={t.days_left} /> {fmtTime(iso(a.cert_expires_at), '')}
              </dd>
              <dt>Subject</dt>
              <dd>{a.subject ?? '—'}</dd>
              <dt>Issuer</dt>
              <dd>{a.issuer ?? '—'}</dd>
              <dt>Names covered</dt>
              <dd>{a.names.join(', ') || '—'}</dd>
              <dt>Chain</dt>
              <dd>{a.trusted ? 'Trusted' : `Not trusted (${a.trust_error ?? 'unknown reason'})${a.self_signed ? ', self-signed' : ''}`}</dd>
              <dt>Host name</dt>
              <dd>{a.hostname_match ? `Matches ${t.host}` : `Does not cover ${t.host}`}</dd>
              <dt>Key</dt>
              <dd>{keyText(t)}</dd>
              <dt>Signature</dt>
              <dd>{a.signature_algorithm ?? '—'}</dd>
              <dt>SHA-256 fingerprint</dt>
              <dd className="sw-wrap-anywhere">{a.fingerprint256 ?? '—'}</dd>
            </dl>
          </section>
          <section className="sw-card" aria-labelledby="ssl-config">
            <header className="sw-card-head">
              <h3 id="ssl-config">Configuration</h3>
            </header>
            <dl className="sw-dl sw-dl-stack">
              <dt>Grade</dt>
              <dd>
                {t.grade ?? '—'} (score {a.score}/100{t.grade === 'T' ? `; ${a.grade_if_trusted ?? '—'} if trusted` : ''})
              </dd>
              <dt>Limited by</dt>
              <dd>{a.caps.length ? a.caps.join('; ') : 'Nothing'}</dd>
              <dt>Protocols</dt>
              <dd>{protocolText(a.protocols)}</dd>
              <dt>Weak ciphers accepted</dt>
              <dd>{a.weak_ciphers.length ? a.weak_ciphers.map((w) => WEAK_NAMES[w] ?? w).join(', ') : 'None of those tried'}</dd>
              <dt>Suites chosen</dt>
              <dd className="sw-wrap-anywhere">{a.ciphers.join(', ') || '—'}</dd>
              <dt>OCSP stapling</dt>
              <dd>{a.ocsp_stapled ? 'Yes' : 'No'}</dd>
              <dt>HSTS</dt>
              <dd className="sw-wrap-anywhere">{a.hsts ?? 'Not sent'}</dd>
              <dt>Analysed</dt>
              <dd>{fmtTime(iso(t.checked_at), '—')}</dd>
            </dl>
          </section>
          <section className="sw-card" aria-labelledby="ssl-problems">
            <header className="sw-card-head">
              <h3 id="ssl-problems">Problems ({t.problems.length})</h3>
            </header>
            {t.problems.length === 0 ? (
              <p className="sw-muted">No problems found.</p>
            ) : (
              <ul className="sw-list">
                {t.problems.map((p) => (
                  <li key={p.key} className="sw-list-row">
                    <div>
                      <span
                        className={`sw-pill ${p.severity === 'critical' || p.severity === 'high' ? 'sw-red' : p.severity === 'medium' ? 'sw-amber' : 'sw-grey'}`}
                      >
                        {p.severity}
                      </span>{' '}
                      <strong>{p.title}</strong>
                      {p.status === 'accepted' && <span className="sw-muted"> (accepted risk)</span>}
                      <div className="sw-muted sw-wrap-anywhere">
                        {p.evidence} · since {fmtTime(iso(p.first_seen_at), '—')} · <code>{p.key}</code>
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
