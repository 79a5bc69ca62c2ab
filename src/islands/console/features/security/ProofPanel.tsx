// What an unverified asset's owner publishes to prove control, with copy buttons: the TXT record
// (on the name, or on _statuswatch.<name> when the name is a CNAME) or the well-known file; for
// an asset whose name now points elsewhere, why its proof needs renewing.
import { fmtTime } from '../../ui/format.ts';
import type { Asset } from './store.ts';
import { t } from '../../i18n.ts';

function Copyable(props: { label: string; value: string; what: string }) {
  return (
    <div className="sw-sec-copy">
      <span className="sw-sec-copy-label">{props.label}</span>
      <code className="sw-wrap-anywhere">{props.value}</code>
      <button
        type="button"
        className="sw-btn sw-btn-small"
        aria-label={t('security.proof.copyAria', { what: props.what })}
        onClick={() => void navigator.clipboard?.writeText(props.value).catch(() => undefined)}
      >
        {t('security.proof.copy')}
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
          {t('security.proof.renewal', { time: fmtTime(a.renewal_needed_at, ''), reason: a.renewal_reason })}
        </p>
      )}
      {a.last_verification_error && (
        <p className="sw-sec-proof-error">
          {t('security.proof.lastChecked', { time: fmtTime(a.last_verification_at, ''), error: a.last_verification_error })}
        </p>
      )}
      <div className="sw-sec-proof-ways">
        <div>
          <h5>{t('security.proof.dnsTitle')}</h5>
          <Copyable label={t('security.proof.name')} value={p.txt_name} what={t('security.proof.txtNameWhat', { host: a.hostname })} />
          <Copyable label={t('security.proof.value')} value={p.txt_value} what={t('security.proof.txtValueWhat', { host: a.hostname })} />
          <p className="sw-muted">{t('security.proof.cname', { name: p.txt_name, alt: p.txt_alt_name })}</p>
        </div>
        <div>
          <h5>{t('security.proof.fileTitle')}</h5>
          <Copyable label={t('security.proof.url')} value={p.file_url} what={t('security.proof.fileUrlWhat', { host: a.hostname })} />
          <Copyable
            label={t('security.proof.contents')}
            value={p.file_body}
            what={t('security.proof.fileBodyWhat', { host: a.hostname })}
          />
          <p className="sw-muted">{t('security.proof.fileNote', { host: a.hostname })}</p>
        </div>
      </div>
      {props.mayVerify && (
        <button type="button" className="sw-btn sw-btn-primary" disabled={props.busy} onClick={props.onVerify}>
          {props.busy ? t('security.proof.verifying') : t('security.proof.verifyHost', { host: a.hostname })}
        </button>
      )}
    </article>
  );
}
