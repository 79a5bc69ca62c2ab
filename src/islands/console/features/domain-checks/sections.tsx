// Parts of a domain's card on /domain-checks: e-mail authentication and the findings list.
import { fmtTime } from '../../ui/format.ts';
import type { DomainFinding, DomainResult } from './store.ts';

const SPF_LIMIT = 10;
const ALL_TEXT: Record<string, string> = {
  '-': 'others fail (-all)',
  '~': 'others soft-fail (~all)',
  '?': 'others neutral (?all)',
  '+': 'anyone passes (+all)',
};
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
      <h4>E-mail authentication</h4>
      <dl className="sw-dl">
        <dt>SPF</dt>
        <dd>
          {!r.spf ? (
            'No answer'
          ) : r.spf.record ? (
            <>
              <div className="sw-wrap-anywhere">{r.spf.record}</div>
              <div>
                <span className={`sw-pill ${r.spf.lookups > SPF_LIMIT ? 'sw-red' : 'sw-green'}`}>
                  {r.spf.lookups} of {SPF_LIMIT} DNS lookups
                </span>{' '}
                {r.spf.all ? ALL_TEXT[r.spf.all] : 'no all: others neutral'}
              </div>
            </>
          ) : (
            <span className="sw-pill sw-red">missing</span>
          )}
        </dd>
        <dt>DMARC</dt>
        <dd>
          {!r.dmarc ? (
            'No answer'
          ) : r.dmarc.record ? (
            <>
              <span className={`sw-pill ${r.dmarc.policy === 'reject' || r.dmarc.policy === 'quarantine' ? 'sw-green' : 'sw-amber'}`}>
                p={r.dmarc.policy ?? '—'}
              </span>
              {r.dmarc.subdomain_policy && ` sp=${r.dmarc.subdomain_policy}`} pct={r.dmarc.pct}
              {r.dmarc.rua.length > 0 && <div className="sw-wrap-anywhere">Reports to {r.dmarc.rua.join(', ')}</div>}
            </>
          ) : (
            <span className="sw-pill sw-red">missing</span>
          )}
        </dd>
        <dt>DKIM</dt>
        <dd>
          {r.dkim.length === 0
            ? 'No selectors named'
            : r.dkim.map((k) => (
                <div key={k.selector}>
                  {k.selector} <span className={`sw-pill ${DKIM_TONE[k.status]}`}>{k.status}</span>
                  {k.key_type && ` ${k.key_type}`}
                </div>
              ))}
        </dd>
        <dt>MTA-STS</dt>
        <dd>
          {!r.mta_sts ? (
            'Not published'
          ) : r.mta_sts.error ? (
            <span className="sw-pill sw-red">{r.mta_sts.error}</span>
          ) : (
            <span className={`sw-pill ${r.mta_sts.mode === 'enforce' ? 'sw-green' : 'sw-amber'}`}>mode {r.mta_sts.mode}</span>
          )}
        </dd>
      </dl>
    </div>
  );
}

export function Findings({ findings }: { findings: DomainFinding[] }) {
  return (
    <>
      <h4>Findings</h4>
      {findings.length === 0 ? (
        <p className="sw-muted">No open findings.</p>
      ) : (
        <ul className="sw-list-plain" aria-label="Findings">
          {findings.map((f) => (
            <li key={f.id} className="sw-finding">
              <span className={`sw-pill ${SEVERITY_TONE[f.severity]}`}>{f.severity}</span> <strong>{f.title}</strong>
              {f.status === 'accepted' && <span className="sw-muted"> (accepted: {f.status_reason})</span>}
              <div className="sw-muted sw-wrap-anywhere">
                {f.evidence} · first seen {fmtTime(f.first_seen_at, '—')}
              </div>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
