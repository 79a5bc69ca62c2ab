// /forgotpassword (an email field, 'Type email to recover password', RESET PASSWORD sends the
// reset link) and /reset-password (the link's target: a new password).
import { useState, type FormEvent } from 'react';
import { boot } from '../../boot.ts';
import { requestPasswordReset, resetPassword } from './passwords.ts';
import { t, tr } from '../../i18n.ts';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(await requestPasswordReset(email));
    setBusy(false);
  }
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        <p className="sw-auth-company">{boot().productName}</p>
        <h1>{t('auth.passwordPages.forgotPassword')}</h1>
        <p>{t('auth.passwordPages.typeEmailToRecoverPassword')}</p>
        <form className="sw-form" onSubmit={submit}>
          {result && (
            <p className={result.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
              {result.message}
            </p>
          )}
          <label>
            {t('auth.loginPage.email')}
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy}>
            {t('auth.passwordPages.rESETPASSWORD')}
          </button>
          <div className="sw-auth-links">
            <a href="/login">{t('auth.passwordPages.backToSignIn')}</a>
          </div>
        </form>
      </div>
    </main>
  );
}

export function ResetPasswordPage() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== confirm) return setResult({ ok: false, message: t('auth.invitePage.theTwoPasswordsDoNot') });
    setBusy(true);
    setResult(await resetPassword(token, password));
    setBusy(false);
  }
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        <p className="sw-auth-company">{boot().productName}</p>
        <h1>{t('auth.passwordPages.chooseANewPassword')}</h1>
        {!token ? (
          <p className="sw-banner sw-banner-error" role="alert">
            {tr('auth.passwordPages.resetLinkInvalid', { link: (chunks) => <a href="/forgotpassword">{chunks}</a> })}
          </p>
        ) : (
          <form className="sw-form" onSubmit={submit}>
            {result && (
              <p className={result.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
                {result.message}
              </p>
            )}
            <label>
              {t('auth.passwordPages.newPassword')}
              <input
                type="password"
                name="password"
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            <label>
              {t('auth.invitePage.confirmPassword')}
              <input
                type="password"
                name="confirm"
                autoComplete="new-password"
                required
                value={confirm}
                onChange={(e) => setConfirm(e.target.value)}
              />
            </label>
            <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy || result?.ok}>
              {t('auth.passwordPages.setNewPassword')}
            </button>
            {result?.ok && (
              <div className="sw-auth-links">
                <a href="/login">{t('auth.invitePage.signIn')}</a>
              </div>
            )}
          </form>
        )}
      </div>
    </main>
  );
}
