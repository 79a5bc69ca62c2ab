// What an unverified asset's owner publishes to prove control, with copy buttons: the TXT record
// (on the name, or on _statuswatch.<name> when the name is a CNAME) or the well-known file; for
// an asset whose name now points elsewhere, why its proof needs renewing.
import { fmtTime } from '../../ui/format.ts';
import type { Asset } from './store.ts';

function Copyable(props: { label: string; value: string; what: string }) {
  return (
    <div className="sw-sec-copy">
      <span className="sw-sec-copy-label">{props.label}</span>
      <code className="sw-wrap-anywhere">{props.value}</code>
      <button
        type="button"
        className="sw-btn sw-btn-small"
        aria-label={`Copy ${props.what}`}
        onClick={() => void navigator.clipboard?.writeText(props.value).catch(() => undefined)}
      >
        Copy
      </button>
    </div>
  );
}

export function ProofPanel(props: { asset: Asset; mayVerify: boolean; busy: boolean; onVerify: () => void }) {
  const { asset: a } = props;
  const p = a.proof;
  return (
    <article className="sw-sec-proof" id={`proof-${a.id}`} aria-labelledby={`proof-${a.id}-title`}>
      <h4 id={`proof-${a.id}-title`}>{a.hostname}</h4>
      {a.renewal_reason && (
        <p className="sw-sec-proof-error">
          Proof needs renewing since {fmtTime(a.renewal_needed_at, '')}: {a.renewal_reason}
        </p>
      )}
      {a.last_verification_error && (
        <p className="sw-sec-proof-error">
          Last checked {fmtTime(a.last_verification_at, '')}: {a.last_verification_error}
        </p>
      )}
      <div className="sw-sec-proof-ways">
        <div>
          <h5>DNS TXT record</h5>
          <Copyable label="Name" value={p.txt_name} what={`the TXT record name for ${a.hostname}`} />
          <Copyable label="Value" value={p.txt_value} what={`the TXT record value for ${a.hostname}`} />
          <p className="sw-muted">
            If {p.txt_name} is a CNAME, put the record on {p.txt_alt_name} instead.
          </p>
        </div>
        <div>
          <h5>Or a file on the host</h5>
          <Copyable label="URL" value={p.file_url} what={`the file URL for ${a.hostname}`} />
          <Copyable label="Contents" value={p.file_body} what={`the file contents for ${a.hostname}`} />
          <p className="sw-muted">
            Served over https (or http) by {a.hostname} itself, at every address it points to; redirects to other hosts are not followed.
          </p>
        </div>
      </div>
      {props.mayVerify && (
        <button type="button" className="sw-btn sw-btn-primary" disabled={props.busy} onClick={props.onVerify}>
          {props.busy ? 'Verifying…' : `Verify ${a.hostname} now`}
        </button>
      )}
    </article>
  );
}
