// The two-factor card's steps: the enrolment form (QR code, key, first code), the recovery codes
// shown once, and the form that turns two-factor sign-in off.
import { useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { confirmEnrolment, disableTwoFactor, type Enrolment } from './store.ts';
import { CopyValue } from '../../ui/CopyValue.tsx';
import { Banner } from './Banner.tsx';

export function EnrolForm(props: { enrolment: Enrolment; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return setError('Enter the 6-digit code your app shows.');
    setBusy(true);
    const r = await confirmEnrolment(code);
    setBusy(false);
    if (r.ok) props.onEnabled(r.data);
    else setError(r.fields.code ?? r.text);
  }
  return (
    <form className="sw-form sw-enrol" onSubmit={submit} noValidate>
      <ol className="sw-steps">
        <li>
          Scan this QR code with your authenticator app.
          {/* an image, not markup: the SVG from the server cannot add anything to the page */}
          <img
            className="sw-qr"
            alt="QR code of your authenticator key"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(props.enrolment.qr_svg)}`}
          />
        </li>
        <li>
          <CopyValue id="totp-secret" label="Or type this key into the app" value={props.enrolment.secret} />
        </li>
        <li>
          <Field id="totp-confirm" label="Code from the app" required error={error ?? undefined}>
            <input
              id="totp-confirm"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={8}
              value={code}
              onChange={(e) => {
                setCode(e.target.value);
                setError(null);
              }}
            />
          </Field>
        </li>
      </ol>
      <div className="sw-modal-actions">
        <button type="button" className="sw-btn" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          Turn on
        </button>
      </div>
    </form>
  );
}

export function RecoveryCodes({ codes, onDone, intro }: { codes: string[]; onDone: () => void; intro?: string }) {
  return (
    <div className="sw-recovery" data-testid="recovery-codes">
      <p className="sw-banner sw-banner-ok" role="status">
        {intro ??
          'Two-factor sign-in is on. Save these recovery codes somewhere safe: each signs you in once if you lose your phone. They are shown only now.'}
      </p>
      <ul className="sw-recovery-list sw-mono">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <CopyValue id="recovery-all" label="All codes" value={codes.join(' ')} />
      <button type="button" className="sw-btn sw-btn-primary" onClick={onDone}>
        I have saved them
      </button>
    </div>
  );
}

export function DisableForm() {
  const [open, setOpen] = useState(false);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!open)
    return (
      <button type="button" className="sw-btn sw-btn-danger" onClick={() => setOpen(true)}>
        Turn off two-factor sign-in
      </button>
    );
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim() && !password) return setError('Enter a current code or your password.');
    setBusy(true);
    const r = await disableTwoFactor(code.trim() ? { code: code.trim() } : { password });
    setBusy(false);
    if (!r.ok) setError(r.text);
  }
  return (
    <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
      <Banner ok={false} text={error} />
      <p className="sw-span-2 sw-muted">Confirm with a current code from your app, or with your password.</p>
      <Field id="off-code" label="Code from the app">
        <input
          id="off-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <Field id="off-password" label="Or your password">
        <input
          id="off-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
      <div className="sw-modal-actions sw-span-2">
        <button type="button" className="sw-btn" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button type="submit" className="sw-btn sw-btn-danger" disabled={busy}>
          Turn off
        </button>
      </div>
    </form>
  );
}
