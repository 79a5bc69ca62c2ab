// The two-factor card's steps: the enrolment form (QR code, key, first code), the recovery codes
// shown once, and the form that turns two-factor sign-in off.
import { useState, type FormEvent } from 'react';
import { Field } from '../../ui/Field.tsx';
import { confirmEnrolment, disableTwoFactor, type Enrolment } from './store.ts';
import { CopyValue } from '../../ui/CopyValue.tsx';
import { Banner } from './Banner.tsx';
import { t } from '../../i18n.ts';

export function EnrolForm(props: { enrolment: Enrolment; onCancel: () => void; onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!/^\d{6}$/.test(code.replace(/\s/g, ''))) return setError(t('account.twoFactorForms.enterThe6DigitCode'));
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
          {t('account.twoFactorForms.scanThisQRCodeWith')}
          {/* an image, not markup: the SVG from the server cannot add anything to the page */}
          <img
            className="sw-qr"
            alt={t('account.twoFactorForms.qRCodeOfYourAuthenticator')}
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(props.enrolment.qr_svg)}`}
          />
        </li>
        <li>
          <CopyValue id="totp-secret" label={t('account.twoFactorForms.orTypeThisKeyInto')} value={props.enrolment.secret} />
        </li>
        <li>
          <Field id="totp-confirm" label={t('account.twoFactorForms.codeFromTheApp')} required error={error ?? undefined}>
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
          {t('account.passkeysCard.cancel')}
        </button>
        <button type="submit" className="sw-btn sw-btn-primary" disabled={busy}>
          {t('account.twoFactorForms.turnOn')}
        </button>
      </div>
    </form>
  );
}

export function RecoveryCodes({ codes, onDone, intro }: { codes: string[]; onDone: () => void; intro?: string }) {
  return (
    <div className="sw-recovery" data-testid="recovery-codes">
      <p className="sw-banner sw-banner-ok" role="status">
        {intro ?? t('account.twoFactorForms.twoFactorSignInIs')}
      </p>
      <ul className="sw-recovery-list sw-mono">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <CopyValue id="recovery-all" label={t('account.twoFactorForms.allCodes')} value={codes.join(' ')} />
      <button type="button" className="sw-btn sw-btn-primary" onClick={onDone}>
        {t('account.twoFactorForms.iHaveSavedThem')}
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
        {t('account.twoFactorForms.turnOffTwoFactorSign')}
      </button>
    );
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!code.trim() && !password) return setError(t('account.twoFactorForms.enterACurrentCodeOr'));
    setBusy(true);
    const r = await disableTwoFactor(code.trim() ? { code: code.trim() } : { password });
    setBusy(false);
    if (!r.ok) setError(r.text);
  }
  return (
    <form className="sw-form sw-form-grid" onSubmit={submit} noValidate>
      <Banner ok={false} text={error} />
      <p className="sw-span-2 sw-muted">{t('account.twoFactorForms.confirmWithACurrentCode')}</p>
      <Field id="off-code" label={t('account.twoFactorForms.codeFromTheApp')}>
        <input
          id="off-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={8}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <Field id="off-password" label={t('account.twoFactorForms.orYourPassword')}>
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
          {t('account.passkeysCard.cancel')}
        </button>
        <button type="submit" className="sw-btn sw-btn-danger" disabled={busy}>
          {t('account.twoFactorForms.turnOff')}
        </button>
      </div>
    </form>
  );
}
