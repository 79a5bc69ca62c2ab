// The passkeys card of /settings/account: the person's passkeys (name, added, last used), adding
// one (a name and the password, then the device's own prompt), renaming, and removing one with
// the password. The first passkey of an account without an authenticator app brings recovery
// codes, shown once.
import { useStore } from '@nanostores/react';
import { useState, type FormEvent } from 'react';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { Card, LoadView } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { Table } from '../../ui/Table.tsx';
import { fmtTime } from '../../ui/format.ts';
import { $passkeys, $twoFactor, addPasskey, removePasskey, renamePasskey, type Passkey } from './store.ts';
import { Banner } from './Banner.tsx';
import { RecoveryCodes } from './TwoFactorForms.tsx';

const RECOVERY_INTRO =
  'Your passkey is added. Save these recovery codes somewhere safe: each signs you in once if you lose the device with your passkey. They are shown only now.';

export function PasskeysCard() {
  const list = useStore($passkeys);
  const twoFactor = useStore($twoFactor);
  const hasPasskeys = list.status === 'ready' && list.data.length > 0;
  const [adding, setAdding] = useState(false);
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [editing, setEditing] = useState<{ passkey: Passkey; mode: 'rename' | 'remove' } | null>(null);
  const supported = browserSupportsWebAuthn();
  return (
    <Card
      title="Passkeys"
      testId="passkeys"
      action={
        supported &&
        !adding &&
        !recovery && (
          <button type="button" className="sw-btn sw-btn-small sw-btn-primary" onClick={() => setAdding(true)}>
            Add a passkey
          </button>
        )
      }
    >
      <p>
        A passkey signs you in with your device's screen lock (fingerprint, face or PIN) or a security key, without a password. After the
        password, it also works as the second step of signing in.
      </p>
      {hasPasskeys && twoFactor.status === 'ready' && (
        <p data-testid="passkey-recovery-left">
          {twoFactor.data.recovery_codes_left} of 10 recovery codes left
          {twoFactor.data.enabled ? ' (shared with your authenticator app)' : ''}.
        </p>
      )}
      {!supported && <Banner ok={false} text="This browser cannot use passkeys." />}
      <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
      {recovery && <RecoveryCodes codes={recovery} intro={RECOVERY_INTRO} onDone={() => setRecovery(null)} />}
      {adding && (
        <AddForm
          onCancel={() => setAdding(false)}
          onAdded={(name, codes) => {
            setAdding(false);
            setAlert({ ok: true, text: `Passkey “${name}” added.` });
            if (codes) setRecovery(codes);
          }}
        />
      )}
      <LoadView load={list} isEmpty={(d) => d.length === 0} empty="No passkeys yet." rows={1}>
        {(rows) => (
          <Table
            stack
            scrollLabel="Passkeys list"
            aria-label="Passkeys"
            rows={rows}
            rowKey={(p) => p.id}
            columns={[
              { label: 'Name', cell: (p) => p.name },
              { label: 'Added', cell: (p) => fmtTime(p.created_at, '') },
              { label: 'Last used', cell: (p) => fmtTime(p.last_used_at, 'Never') },
              {
                label: 'Actions',
                cell: (p) =>
                  !editing && (
                    <span className="sw-row-actions">
                      <button
                        type="button"
                        className="sw-btn sw-btn-small"
                        aria-label={`Rename ${p.name}`}
                        onClick={() => setEditing({ passkey: p, mode: 'rename' })}
                      >
                        Rename
                      </button>
                      <button
                        type="button"
                        className="sw-btn sw-btn-small sw-btn-danger"
                        aria-label={`Remove ${p.name}`}
                        onClick={() => setEditing({ passkey: p, mode: 'remove' })}
                      >
                        Remove
                      </button>
                    </span>
                  ),
              },
            ]}
          />
        )}
      </LoadView>
      {editing && (
        <EditForm
          // the form under the list, not in a cell: a narrow screen keeps its full width; it holds
          // its passkey itself, since the list reloads without a removed one before it closes
          passkey={editing.passkey}
          mode={editing.mode}
          onClose={(text) => {
            setEditing(null);
            if (text) setAlert({ ok: true, text });
          }}
        />
      )}
    </Card>
  );
}

function AddForm(props: { onCancel: () => void; onAdded: (name: string, codes?: string[]) => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const missing: Record<string, string> = {};
    if (!name.trim()) missing.name = 'Give the passkey a name, such as “Work laptop”.';
    if (!password) missing.password = 'Enter your password to confirm.';
    setErrors(missing);
    setError(null);
    if (Object.keys(missing).length) return;
    setBusy(true);
    const r = await addPasskey(name, password);
    setBusy(false);
    if (r.ok) props.onAdded(name.trim(), r.data.recovery_codes);
    else {
      setErrors(r.fields);
      setError(r.fields.password || r.fields.name ? null : r.text);
    }
  }
  return (
    <form className="sw-form sw-passkey-form" onSubmit={submit} noValidate>
      <Banner ok={false} text={error} />
      <Field id="passkey-name" label="Name" required error={errors.name}>
        <input id="passkey-name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} placeholder="Work laptop" />
      </Field>
      <Field id="passkey-password" label="Your password" required error={errors.password}>
        <input
          id="passkey-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <div className="sw-modal-actions">
        <button type="button" className="sw-btn" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {busy ? 'Waiting for your device…' : 'Continue'}
        </button>
      </div>
    </form>
  );
}

function EditForm(props: { passkey: Passkey; mode: 'rename' | 'remove'; onClose: (done?: string) => void }) {
  const [value, setValue] = useState(props.mode === 'rename' ? props.passkey.name : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rename = props.mode === 'rename';
  const id = `passkey-${props.mode}-${props.passkey.id}`;
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!value.trim()) return setError(rename ? 'Give the passkey a name.' : 'Enter your password to confirm.');
    setBusy(true);
    const r = rename ? await renamePasskey(props.passkey.id, value) : await removePasskey(props.passkey.id, value);
    setBusy(false);
    if (r.ok) props.onClose(rename ? 'Passkey renamed.' : `Passkey “${props.passkey.name}” removed. It no longer signs you in.`);
    else setError(r.fields.name ?? r.fields.password ?? r.text);
  }
  return (
    <form className="sw-form sw-passkey-edit" onSubmit={submit} noValidate>
      <Field id={id} label={rename ? 'New name' : `Your password, to remove “${props.passkey.name}”`} required error={error ?? undefined}>
        <input
          id={id}
          type={rename ? 'text' : 'password'}
          autoComplete={rename ? 'off' : 'current-password'}
          maxLength={rename ? 100 : 1024}
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setError(null);
          }}
        />
      </Field>
      <div className="sw-row-actions">
        <button type="button" className="sw-btn sw-btn-small" onClick={() => props.onClose()}>
          Cancel
        </button>
        <button type="submit" className={`sw-btn sw-btn-small ${rename ? 'sw-btn-primary' : 'sw-btn-danger'}`} disabled={busy}>
          {rename ? 'Save' : 'Remove passkey'}
        </button>
      </div>
    </form>
  );
}
