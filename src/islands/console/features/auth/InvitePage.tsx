// /invite?token=…: the link of an invitation e-mail. Shows who it is for, lets the invitee choose
// a password (the same rules as everywhere: 8+ characters, not a common one), then sends them
// to sign in. A used, expired, revoked or replaced link gets the server's clear reason instead.
import { useEffect, useState, type FormEvent } from 'react';
import { boot, onTenantHost } from '../../boot.ts';
import { signInPath } from '../../access.ts';
import { acceptInvitation, lookupInvitation, type InvitationLookup } from './store.ts';
import { t, tr } from '../../i18n.ts';

type State =
  | { kind: 'loading' }
  | { kind: 'refused'; message: string }
  | { kind: 'open'; invitation: InvitationLookup }
  | { kind: 'done'; message: string };

export function InvitePage() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const invalid = t('auth.invitePage.invalid');
  const [state, setState] = useState<State>(token ? { kind: 'loading' } : { kind: 'refused', message: invalid });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!token) return;
    void lookupInvitation(token, invalid).then((r) =>
      setState('invitation' in r ? { kind: 'open', invitation: r.invitation } : { kind: 'refused', message: r.refused }),
    );
  }, [token]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== confirm) return setError(t('auth.invitePage.theTwoPasswordsDoNot'));
    setError(null);
    setBusy(true);
    const r = await acceptInvitation(token, password);
    if (r.ok) setState({ kind: 'done', message: r.message });
    else setError(r.message);
    setBusy(false);
  }
  const signIn = signInPath(onTenantHost());
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        <p className="sw-auth-company">{boot().productName}</p>
        <h1>{t('auth.invitePage.acceptYourInvitation')}</h1>
        {state.kind === 'loading' && <p aria-live="polite">{t('auth.invitePage.checkingYourInvitation')}</p>}
        {state.kind === 'refused' && (
          <>
            <p className="sw-banner sw-banner-error" role="alert">
              {state.message}
            </p>
            <div className="sw-auth-links">
              <a href={signIn}>{t('auth.invitePage.goToSignIn')}</a>
            </div>
          </>
        )}
        {state.kind === 'done' && (
          <>
            <p className="sw-banner sw-banner-ok" role="status">
              {state.message}
            </p>
            <div className="sw-auth-links">
              <a className="sw-btn sw-btn-primary sw-btn-block" href={signIn}>
                {t('auth.invitePage.signIn')}
              </a>
            </div>
          </>
        )}
        {state.kind === 'open' && (
          <form className="sw-form" onSubmit={submit}>
            <p>
              {tr(state.invitation.company_name ? 'auth.invitePage.choosePasswordAt' : 'auth.invitePage.choosePassword', {
                fullName: state.invitation.full_name,
                email: <strong style={{ overflowWrap: 'anywhere' }}>{state.invitation.email}</strong>,
                companyName: state.invitation.company_name,
              })}
            </p>
            {error && (
              <p className="sw-banner sw-banner-error" role="alert">
                {error}
              </p>
            )}
            <input type="email" name="username" autoComplete="username" value={state.invitation.email} readOnly hidden />
            <label>
              {t('auth.invitePage.passwordAtLeast8Characters')}
              <input
                type="password"
                name="password"
                autoComplete="new-password"
                required
                minLength={8}
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
            <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy}>
              {t('auth.invitePage.setPassword')}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
