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
import { t } from '../../i18n.ts';

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
      title={t('account.passkeysCard.passkeys')}
      testId="passkeys"
      action={
        supported &&
        !adding &&
        !recovery && (
          <button type="button" className="sw-btn sw-btn-small sw-btn-primary" onClick={() => setAdding(true)}>
            {t('account.passkeysCard.addAPasskey')}
          </button>
        )
      }
    >
      <p>{t('account.passkeysCard.aPasskeySignsYouIn')}</p>
      {hasPasskeys && twoFactor.status === 'ready' && (
        <p data-testid="passkey-recovery-left">
          {t(twoFactor.data.enabled ? 'account.passkeysCard.recoveryLeftShared' : 'account.passkeysCard.recoveryLeft', {
            count: twoFactor.data.recovery_codes_left,
          })}
        </p>
      )}
      {!supported && <Banner ok={false} text={t('account.passkeysCard.thisBrowserCannotUsePasskeys')} />}
      <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
      {recovery && <RecoveryCodes codes={recovery} intro={t('account.passkeysCard.recoveryIntro')} onDone={() => setRecovery(null)} />}
      {adding && (
        <AddForm
          onCancel={() => setAdding(false)}
          onAdded={(name, codes) => {
            setAdding(false);
            setAlert({ ok: true, text: t('account.passkeysCard.passkeyAdded', { name: name }) });
            if (codes) setRecovery(codes);
          }}
        />
      )}
      <LoadView load={list} isEmpty={(d) => d.length === 0} empty={t('account.passkeysCard.noPasskeysYet')} rows={1}>
        {(rows) => (
          <Table
            stack
            scrollLabel={t('account.passkeysCard.passkeysList')}
            aria-label={t('account.passkeysCard.passkeys')}
            rows={rows}
            rowKey={(p) => p.id}
            columns={[
              { label: t('account.passkeysCard.name'), cell: (p) => p.name },
              { label: t('account.passkeysCard.added'), cell: (p) => fmtTime(p.created_at, '') },
              { label: t('account.passkeysCard.lastUsed'), cell: (p) => fmtTime(p.last_used_at, 'Never') },
              {
                label: t('account.passkeysCard.actions'),
                cell: (p) =>
                  !editing && (
                    <span className="sw-row-actions">
                      <button
                        type="button"
                        className="sw-btn sw-btn-small"
                        aria-label={t('account.passkeysCard.rename2', { name: p.name })}
                        onClick={() => setEditing({ passkey: p, mode: 'rename' })}
                      >
                        {t('account.passkeysCard.rename')}
                      </button>
                      <button
                        type="button"
                        className="sw-btn sw-btn-small sw-btn-danger"
                        aria-label={t('account.passkeysCard.remove2', { name: p.name })}
                        onClick={() => setEditing({ passkey: p, mode: 'remove' })}
                      >
                        {t('account.passkeysCard.remove')}
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
    if (!name.trim()) missing.name = t('account.passkeysCard.giveThePasskeyAName2');
    if (!password) missing.password = t('account.passkeysCard.enterYourPasswordToConfirm');
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
      <Field id="passkey-name" label={t('account.passkeysCard.name')} required error={errors.name}>
        <input
          id="passkey-name"
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={t('account.passkeysCard.workLaptop')}
        />
      </Field>
      <Field id="passkey-password" label={t('account.passkeysCard.yourPassword')} required error={errors.password}>
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
          {t('account.passkeysCard.cancel')}
        </button>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {busy ? t('account.passkeysCard.waitingForYourDevice') : t('account.passkeysCard.continue')}
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
    if (!value.trim())
      return setError(rename ? t('account.passkeysCard.giveThePasskeyAName') : t('account.passkeysCard.enterYourPasswordToConfirm'));
    setBusy(true);
    const r = rename ? await renamePasskey(props.passkey.id, value) : await removePasskey(props.passkey.id, value);
    setBusy(false);
    if (r.ok)
      props.onClose(
        rename
          ? t('account.passkeysCard.passkeyRenamed')
          : t('account.passkeysCard.passkeyRemovedItNoLonger', { name: props.passkey.name }),
      );
    else setError(r.fields.name ?? r.fields.password ?? r.text);
  }
  return (
    <form className="sw-form sw-passkey-edit" onSubmit={submit} noValidate>
      <Field
        id={id}
        label={rename ? t('account.passkeysCard.newName') : t('account.passkeysCard.yourPasswordToRemove', { name: props.passkey.name })}
        required
        error={error ?? undefined}
      >
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
          {t('account.passkeysCard.cancel')}
        </button>
        <button type="submit" className={`sw-btn sw-btn-small ${rename ? 'sw-btn-primary' : 'sw-btn-danger'}`} disabled={busy}>
          {rename ? t('account.passkeysCard.save') : t('account.passkeysCard.removePasskey')}
        </button>
      </div>
    </form>
  );
}
