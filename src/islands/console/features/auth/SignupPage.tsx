// /signup: name, email, password; 'Signup successful!' with no redirect. The social buttons are
// decorative, as the spec has them.
import { useState, type FormEvent } from 'react';
import { boot } from '../../boot.ts';
import { signUp } from './store.ts';

export function SignupPage() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(await signUp(name, email, password));
    setBusy(false);
  }
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        <p className="sw-auth-company">{boot().productName}</p>
        <h1>Create your account</h1>
        <div className="sw-social" aria-label="Social sign-up (not available)">
          <button type="button" className="sw-btn sw-btn-block" aria-disabled="true">Sign up with Google</button>
          <button type="button" className="sw-btn sw-btn-block" aria-disabled="true">Sign up with GitHub</button>
        </div>
        <form className="sw-form" onSubmit={submit}>
          {result && <p className={result.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">{result.message}</p>}
          <label>Name<input name="name" autoComplete="name" required value={name} onChange={(e) => setName(e.target.value)} /></label>
          <label>Email<input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} /></label>
          <label>Password<input type="password" name="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} /></label>
          <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy}>Sign up</button>
          <div className="sw-auth-links"><a href="/login">Already have an account? Sign in</a></div>
        </form>
      </div>
    </main>
  );
}
