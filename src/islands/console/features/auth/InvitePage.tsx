// /invite?token=…: the link of an invitation e-mail. Shows who it is for, lets the invitee choose
// a password (the same rules as everywhere: 8+ characters, not a common one), then sends them
// to sign in. A used, expired, revoked or replaced link gets the server's clear reason instead.
import { useEffect, useState, type FormEvent } from 'react';
import { boot, onTenantHost } from '../../boot.ts';
import { signInPath } from '../../access.ts';
import { acceptInvitation, lookupInvitation, type InvitationLookup } from './store.ts';

type State =
  | { kind: 'loading' }
  | { kind: 'refused'; message: string }
  | { kind: 'open'; invitation: InvitationLookup }
  | { kind: 'done'; message: string };

const INVALID = 'This invitation link is not valid. Ask your administrator for a new invitation.';

export function InvitePage() {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const [state, setState] = useState<State>(token ? { kind: 'loading' } : { kind: 'refused', message: INVALID });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!token) return;
    void lookupInvitation(token, INVALID).then((r) =>
      setState('invitation' in r ? { kind: 'open', invitation: r.invitation } : { kind: 'refused', message: r.refused }),
    );
  }, [token]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (password !== confirm) return setError('The two passwords do not match.');
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
        <h1>Accept your invitation</h1>
        {state.kind === 'loading' && <p aria-live="polite">Checking your invitation…</p>}
        {state.kind === 'refused' && (
          <>
            <p className="sw-banner sw-banner-error" role="alert">
              {state.message}
            </p>
            <div className="sw-auth-links">
              <a href={signIn}>Go to sign in</a>
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
                Sign in
              </a>
            </div>
          </>
        )}
        {state.kind === 'open' && (
          <form className="sw-form" onSubmit={submit}>
            <p>
              Welcome, {state.invitation.full_name}. Choose a password for{' '}
              <strong style={{ overflowWrap: 'anywhere' }}>{state.invitation.email}</strong>
              {state.invitation.company_name ? ` at ${state.invitation.company_name}` : ''}.
            </p>
            {error && (
              <p className="sw-banner sw-banner-error" role="alert">
                {error}
              </p>
            )}
            <input type="email" name="username" autoComplete="username" value={state.invitation.email} readOnly hidden />
            <label>
              Password (at least 8 characters)
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
            <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy}>
              Set password
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
