// /forgotpassword (an email field, 'Type email to recover password', RESET PASSWORD sends the
// reset link) and /reset-password (the link's target: a new password).
import { useState, type FormEvent } from 'react';
import { boot } from '../../boot.ts';
import { requestPasswordReset, resetPassword } from './passwords.ts';

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
        <h1>Forgot password</h1>
        <p>Type email to recover password</p>
        <form className="sw-form" onSubmit={submit}>
          {result && (
            <p className={result.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
              {result.message}
            </p>
          )}
          <label>
            Email
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy}>
            RESET PASSWORD
          </button>
          <div className="sw-auth-links">
            <a href="/login">Back to sign in</a>
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
    if (password !== confirm) return setResult({ ok: false, message: 'The two passwords do not match.' });
    setBusy(true);
    setResult(await resetPassword(token, password));
    setBusy(false);
  }
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        <p className="sw-auth-company">{boot().productName}</p>
        <h1>Choose a new password</h1>
        {!token ? (
          <p className="sw-banner sw-banner-error" role="alert">
            This reset link is invalid. Ask for a new one on the <a href="/forgotpassword">forgot password</a> page.
          </p>
        ) : (
          <form className="sw-form" onSubmit={submit}>
            {result && (
              <p className={result.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
                {result.message}
              </p>
            )}
            <label>
              New Password
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
              Confirm Password
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
              Set new password
            </button>
            {result?.ok && (
              <div className="sw-auth-links">
                <a href="/login">Sign in</a>
              </div>
            )}
          </form>
        )}
      </div>
    </main>
  );
}
