// The OTLP ingest keys of a company: list (never their secrets), create (the secret is shown
// once), set the browser origins a key accepts, revoke.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { t, tr } from '../../i18n.ts';
import { FormAlert, ModalActions } from '../../ui/ModalForm.tsx';
import { Confirm, Modal } from '../../ui/Modal.tsx';
import { Skeleton } from '../../ui/Card.tsx';
import { fmtTime } from '../../ui/format.ts';
import { $keys, $keysAlert, createKey, originsOf, revokeKey, setKeyOrigins, type ApiKey } from './store.ts';
import { Table } from '../../ui/Table.tsx';

interface Props {
  companyId: string;
  superAdmin: boolean;
}

export function IngestKeys({ companyId, superAdmin }: Props) {
  const keys = useStore($keys);
  const alert = useStore($keysAlert);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  useEffect(() => $keysAlert.set(null), [companyId]);
  return (
    <section className="sw-card sw-settings" aria-labelledby="settings-keys">
      <header className="sw-card-head sw-row-between">
        <h3 id="settings-keys">{t('settings.keys.title', { count: keys.status === 'ready' ? keys.data.length : 0 })}</h3>
        <button type="button" className="sw-btn sw-btn-primary" onClick={() => setCreating(true)}>
          {t('settings.keys.create')}
        </button>
      </header>
      <div className="sw-card-body">
        <p className="sw-muted sw-small">
          {tr('settings.keys.intro', {
            path: (chunks) => <code>{chunks}</code>,
            header: (chunks) => <code>{chunks}</code>,
          })}
        </p>
        {alert && (
          <div className={`sw-banner ${alert.ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role="alert">
            {alert.text}
          </div>
        )}
        {keys.status === 'loading' && <Skeleton rows={2} />}
        {keys.status === 'error' && (
          <div className="sw-banner sw-banner-error" role="alert">
            {keys.message}
          </div>
        )}
        {keys.status === 'ready' && keys.data.length === 0 && <p className="sw-empty">{t('settings.keys.empty')}</p>}
        {keys.status === 'ready' && keys.data.length > 0 && (
          <Table
            aria-labelledby="settings-keys"
            rows={keys.data}
            rowKey={(k) => k.id}
            columns={[
              { label: t('settings.keys.name'), cell: (k) => <strong>{k.name}</strong> },
              { label: t('settings.keys.key'), cell: (k) => <code>{k.prefix}…</code> },
              {
                label: t('settings.keys.allowedOrigins'),
                cell: (k) =>
                  k.allowed_origins.length ? (
                    k.allowed_origins.join(', ')
                  ) : (
                    <span className="sw-muted">{t('settings.keys.serversOnly')}</span>
                  ),
              },
              { label: t('settings.keys.lastUsed'), cell: (k) => fmtTime(k.last_used_at, t('settings.keys.never')) },
              {
                label: t('settings.keys.actions'),
                className: 'sw-actions',
                cell: (k) => (
                  <>
                    <button
                      type="button"
                      className="sw-btn sw-btn-small"
                      aria-label={t('settings.keys.originsOf', { name: k.name })}
                      onClick={() => setEditing(k)}
                    >
                      {t('settings.keys.origins')}
                    </button>
                    <button
                      type="button"
                      className="sw-btn sw-btn-small sw-btn-danger"
                      aria-label={t('settings.keys.revokeNamed', { name: k.name })}
                      onClick={() => setRevoking(k)}
                    >
                      {t('settings.keys.revoke')}
                    </button>
                  </>
                ),
              },
            ]}
          />
        )}
      </div>
      {creating && <CreateKey companyId={companyId} superAdmin={superAdmin} onClose={() => setCreating(false)} />}
      {editing && <OriginsDialog apiKey={editing} companyId={companyId} superAdmin={superAdmin} onClose={() => setEditing(null)} />}
      {revoking && (
        <Confirm
          title={t('settings.keys.revokeTitle')}
          danger
          confirmLabel={t('settings.keys.revoke')}
          text={t('settings.keys.revokeText', { name: revoking.name })}
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const k = revoking;
            setRevoking(null);
            void revokeKey(companyId, superAdmin, k);
          }}
        />
      )}
    </section>
  );
}

function CreateKey({ companyId, superAdmin, onClose }: Props & { onClose: () => void }) {
  const [name, setName] = useState('');
  const [origins, setOrigins] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setNameError(t('settings.keys.nameRequired'));
    setBusy(true);
    const r = await createKey(companyId, superAdmin, name, originsOf(origins));
    setBusy(false);
    if ('key' in r) setSecret(r.key);
    else setError(r.error);
  }
  if (secret)
    return (
      <Modal title={t('settings.keys.created')} onClose={onClose}>
        <div className="sw-form">
          <p>{t('settings.keys.copyNow')}</p>
          <code className="sw-secret sw-secret-wrap" data-testid="new-key">
            {secret}
          </code>
          <div className="sw-modal-actions">
            <button type="button" className="sw-btn" onClick={() => void navigator.clipboard?.writeText(secret).catch(() => undefined)}>
              {t('settings.keys.copy')}
            </button>
            <button type="button" className="sw-btn sw-btn-primary" onClick={onClose}>
              {t('settings.keys.done')}
            </button>
          </div>
        </div>
      </Modal>
    );
  return (
    <Modal title={t('settings.keys.createTitle')} onClose={onClose}>
      <form className="sw-form sw-settings" onSubmit={submit} noValidate>
        <FormAlert text={error} />
        <Field id="k-name" label={t('settings.keys.name')} required error={nameError}>
          <input
            id="k-name"
            type="text"
            value={name}
            maxLength={100}
            onChange={(e) => (setName(e.target.value), setNameError(undefined))}
          />
        </Field>
        <Field id="k-origins" label={t('settings.keys.allowedOrigins')} hint={t('settings.keys.createOriginsHint')}>
          <textarea
            id="k-origins"
            rows={3}
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            aria-describedby="k-origins-hint"
          />
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel={t('settings.keys.create')} />
      </form>
    </Modal>
  );
}

function OriginsDialog({ apiKey, companyId, superAdmin, onClose }: Props & { apiKey: ApiKey; onClose: () => void }) {
  const [origins, setOrigins] = useState(apiKey.allowed_origins.join('\n'));
  const [busy, setBusy] = useState(false);
  const alert = useStore($keysAlert);
  async function submit(e: FormEvent) {
    e.preventDefault();
    $keysAlert.set(null);
    setBusy(true);
    const ok = await setKeyOrigins(companyId, superAdmin, apiKey, originsOf(origins));
    setBusy(false);
    if (ok) onClose();
  }
  return (
    <Modal title={t('settings.keys.originsTitle', { name: apiKey.name })} onClose={onClose}>
      <form className="sw-form sw-settings" onSubmit={submit} noValidate>
        <FormAlert text={alert && !alert.ok ? alert.text : null} />
        <Field id="o-origins" label={t('settings.keys.allowedOrigins')} hint={t('settings.keys.editOriginsHint')}>
          <textarea
            id="o-origins"
            rows={4}
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            aria-describedby="o-origins-hint"
          />
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel={t('settings.keys.saveOrigins')} />
      </form>
    </Modal>
  );
}
