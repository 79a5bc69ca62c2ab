// The password card of /settings/account: the current password and the new one twice.
import { useState, type FormEvent } from 'react';
import { Card } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { changePassword } from './store.ts';
import { Banner } from './Banner.tsx';
import { t } from '../../i18n.ts';

export function PasswordCard() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setAlert(null);
    const missing: Record<string, string> = {};
    if (!current) missing.current_password = t('account.passwordCard.currentPasswordIsRequired');
    if (!next) missing.new_password = t('account.passwordCard.newPasswordIsRequired');
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    const r = await changePassword(current, next);
    setBusy(false);
    if (r.ok) {
      setCurrent('');
      setNext('');
      setAlert({ ok: true, text: r.data.message ?? t('account.passwordCard.yourPasswordHasBeenChanged') });
    } else {
      setErrors(r.fields);
      setAlert({ ok: false, text: r.text });
    }
  }
  return (
    <Card title={t('account.passwordCard.password')}>
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate aria-label={t('account.passwordCard.changePassword')}>
        <div className="sw-span-2">
          <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
        </div>
        <Field id="pw-current" label={t('account.passwordCard.currentPassword')} required error={errors.current_password}>
          <input
            id="pw-current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </Field>
        <Field
          id="pw-new"
          label={t('account.passwordCard.newPassword')}
          required
          error={errors.new_password}
          hint={t('account.passwordCard.changingItSignsOutYour')}
        >
          <input id="pw-new" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        </Field>
        <div className="sw-span-2">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            {t('account.passwordCard.changePassword')}
          </button>
        </div>
      </form>
    </Card>
  );
}
