// The password card of /settings/account: the current password and the new one twice.
import { useState, type FormEvent } from 'react';
import { Card } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { changePassword } from './store.ts';
import { Banner } from './Banner.tsx';

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
    if (!current) missing.current_password = 'Current Password is required.';
    if (!next) missing.new_password = 'New Password is required.';
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    const r = await changePassword(current, next);
    setBusy(false);
    if (r.ok) {
      setCurrent('');
      setNext('');
      setAlert({ ok: true, text: r.data.message ?? 'Your password has been changed. Other sessions were signed out.' });
    } else {
      setErrors(r.fields);
      setAlert({ ok: false, text: r.text });
    }
  }
  return (
    <Card title="Password">
      <form className="sw-form sw-form-grid" onSubmit={submit} noValidate aria-label="Change password">
        <div className="sw-span-2">
          <Banner ok={alert?.ok ?? false} text={alert?.text ?? null} />
        </div>
        <Field id="pw-current" label="Current Password" required error={errors.current_password}>
          <input
            id="pw-current"
            type="password"
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.target.value)}
          />
        </Field>
        <Field id="pw-new" label="New Password" required error={errors.new_password} hint="Changing it signs out your other sessions.">
          <input id="pw-new" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        </Field>
        <div className="sw-span-2">
          <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
            Change password
          </button>
        </div>
      </form>
    </Card>
  );
}
