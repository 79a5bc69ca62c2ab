// The OTLP ingest keys of a company: list (never their secrets), create (the secret is shown
// once), set the browser origins a key accepts, revoke.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
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
        <h3 id="settings-keys">OTLP ingest keys ({keys.status === 'ready' ? keys.data.length : 0})</h3>
        <button type="button" className="sw-btn sw-btn-primary" onClick={() => setCreating(true)}>
          Create key
        </button>
      </header>
      <div className="sw-card-body">
        <p className="sw-muted sw-small">
          Exporters send spans to <code>/v1/traces</code> with <code>Authorization: Bearer &lt;key&gt;</code>. Browser pages may export only
          from the origins a key allows.
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
        {keys.status === 'ready' && keys.data.length === 0 && (
          <p className="sw-empty">No ingest keys yet. Create one for your first exporter.</p>
        )}
        {keys.status === 'ready' && keys.data.length > 0 && (
          <Table
            aria-labelledby="settings-keys"
            rows={keys.data}
            rowKey={(k) => k.id}
            columns={[
              { label: 'Name', cell: (k) => <strong>{k.name}</strong> },
              { label: 'Key', cell: (k) => <code>{k.prefix}…</code> },
              {
                label: 'Allowed browser origins',
                cell: (k) =>
                  k.allowed_origins.length ? k.allowed_origins.join(', ') : <span className="sw-muted">None (servers only)</span>,
              },
              { label: 'Last used', cell: (k) => fmtTime(k.last_used_at, 'Never') },
              {
                label: 'Actions',
                className: 'sw-actions',
                cell: (k) => (
                  <>
                    <button type="button" className="sw-btn sw-btn-small" aria-label={`Origins of ${k.name}`} onClick={() => setEditing(k)}>
                      Origins
                    </button>
                    <button
                      type="button"
                      className="sw-btn sw-btn-small sw-btn-danger"
                      aria-label={`Revoke ${k.name}`}
                      onClick={() => setRevoking(k)}
                    >
                      Revoke
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
          title="Revoke key"
          danger
          confirmLabel="Revoke"
          text={`Revoke ${revoking.name}? Exporters that send it are refused at once. This cannot be undone.`}
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
    if (!name.trim()) return setNameError('Name is required.');
    setBusy(true);
    const r = await createKey(companyId, superAdmin, name, originsOf(origins));
    setBusy(false);
    if ('key' in r) setSecret(r.key);
    else setError(r.error);
  }
  if (secret)
    return (
      <Modal title="Key created" onClose={onClose}>
        <div className="sw-form">
          <p>Copy the key now: it is shown only this once (only its first characters are kept to recognise it).</p>
          <code className="sw-secret sw-secret-wrap" data-testid="new-key">
            {secret}
          </code>
          <div className="sw-modal-actions">
            <button type="button" className="sw-btn" onClick={() => void navigator.clipboard?.writeText(secret).catch(() => undefined)}>
              Copy
            </button>
            <button type="button" className="sw-btn sw-btn-primary" onClick={onClose}>
              Done
            </button>
          </div>
        </div>
      </Modal>
    );
  return (
    <Modal title="Create ingest key" onClose={onClose}>
      <form className="sw-form sw-settings" onSubmit={submit} noValidate>
        <FormAlert text={error} />
        <Field id="k-name" label="Name" required error={nameError}>
          <input
            id="k-name"
            type="text"
            value={name}
            maxLength={100}
            onChange={(e) => (setName(e.target.value), setNameError(undefined))}
          />
        </Field>
        <Field
          id="k-origins"
          label="Allowed browser origins"
          hint="One a line, such as https://app.example.com; leave empty for servers only."
        >
          <textarea
            id="k-origins"
            rows={3}
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            aria-describedby="k-origins-hint"
          />
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel="Create key" />
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
    <Modal title={`Allowed origins of ${apiKey.name}`} onClose={onClose}>
      <form className="sw-form sw-settings" onSubmit={submit} noValidate>
        <FormAlert text={alert && !alert.ok ? alert.text : null} />
        <Field
          id="o-origins"
          label="Allowed browser origins"
          hint="One a line, such as https://app.example.com; empty: browsers are refused."
        >
          <textarea
            id="o-origins"
            rows={4}
            value={origins}
            onChange={(e) => setOrigins(e.target.value)}
            aria-describedby="o-origins-hint"
          />
        </Field>
        <ModalActions onClose={onClose} busy={busy} submitLabel="Save origins" />
      </form>
    </Modal>
  );
}
