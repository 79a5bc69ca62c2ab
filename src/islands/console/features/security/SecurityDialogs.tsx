// The Security screen's dialogs: registering an asset, and accepting a finding's risk (a reason
// is required and kept with the finding).
import { useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { FormAlert, ModalActions, Options, useModalForm } from '../../ui/ModalForm.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { t, tr } from '../../i18n.ts';
import { createAsset, setFindingStatus, validateAsset, type AssetKind, type Finding, type FindingFilters } from './store.ts';

export function AddAssetDialog(props: { tenant: string | null; onClose: () => void }) {
  const form = useModalForm<{ hostname: string; kind: AssetKind }>({ hostname: '', kind: 'domain' });
  const { f, errors, busy, edit } = form;
  const [refusal, setRefusal] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setRefusal(null);
    const o = await form.send(validateAsset(f.hostname), () => createAsset(f.hostname, f.kind, props.tenant));
    if (!o) return;
    if (o.ok) return props.onClose();
    setRefusal(o.text);
    form.setErrors(o.fields);
  }
  return (
    <Modal title={t('security.add.title')} onClose={props.onClose}>
      <form className="sw-form sw-form-grid" onSubmit={(e) => void submit(e)} noValidate>
        <FormAlert text={refusal} />
        <Field
          id="asset-hostname"
          label={t('security.add.hostname')}
          required
          error={errors.hostname}
          hint={t('security.add.hostnameHint')}
        >
          <input
            id="asset-hostname"
            value={f.hostname}
            maxLength={253}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={errors.hostname ? true : undefined}
            onChange={(e) => edit({ hostname: e.target.value }, 'hostname')}
          />
        </Field>
        <Field id="asset-kind" label={t('security.add.kind')} required error={errors.kind} hint={t('security.add.kindHint')}>
          <select id="asset-kind" value={f.kind} onChange={(e) => edit({ kind: e.target.value as AssetKind }, 'kind')}>
            <Options
              items={[
                ['domain', t('security.add.kindDomain')],
                ['host', t('security.add.kindHost')],
              ]}
            />
          </select>
        </Field>
        <ModalActions onClose={props.onClose} busy={busy} submitLabel={t('security.add.submit')} />
      </form>
    </Modal>
  );
}

export function AcceptRiskDialog(props: { finding: Finding; tenant: string | null; filters: FindingFilters; onClose: () => void }) {
  const form = useModalForm({ reason: '' });
  const { f, errors, busy, edit } = form;
  const [refusal, setRefusal] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setRefusal(null);
    const check: Record<string, string> = f.reason.trim() ? {} : { reason: t('security.accept.reasonRequired') };
    const o = await form.send(check, () => setFindingStatus(props.finding, 'accepted', f.reason.trim(), props.tenant, props.filters));
    if (!o) return;
    if (o.ok) return props.onClose();
    setRefusal(o.text);
    form.setErrors(o.fields);
  }
  return (
    <Modal title={t('security.accept.title')} onClose={props.onClose}>
      <form className="sw-form" onSubmit={(e) => void submit(e)} noValidate>
        <FormAlert text={refusal} />
        <p>
          {tr('security.accept.intro', {
            title: props.finding.title,
            host: props.finding.hostname,
            strong: (chunks) => <strong>{chunks}</strong>,
          })}
        </p>
        <Field id="risk-reason" label={t('security.accept.reason')} required error={errors.reason}>
          <textarea
            id="risk-reason"
            rows={3}
            maxLength={1000}
            value={f.reason}
            aria-invalid={errors.reason ? true : undefined}
            onChange={(e) => edit({ reason: e.target.value }, 'reason')}
          />
        </Field>
        <ModalActions onClose={props.onClose} busy={busy} submitLabel={t('security.accept.submit')} />
      </form>
    </Modal>
  );
}
