// /signup: the person's name, the company's name, the subdomain (prefilled from the company's
// name until edited, checked live), email and password; the answer is the same for a new and a
// taken address ("check your e-mail"). /signup?token=… is the link from that mail: it creates the account and offers
// takes the new admin to the company's dashboard on its own host, signed in (a one-time handoff
// link; the sign-in link stays as the way in if the move fails). The social buttons are
// decorative, as the spec has them.
import { useEffect, useState, type FormEvent } from 'react';
import { slugifySubdomain } from '../../../../lib/hosts.ts';
import { boot } from '../../boot.ts';
import { SubdomainField } from '../../ui/SubdomainField.tsx';
import { confirmSignup, signUp } from './store.ts';
import { t } from '../../i18n.ts';

export function SignupPage() {
  const token = new URLSearchParams(location.search).get('token');
  return token ? <ConfirmSignup token={token} /> : <SignupForm />;
}

function SignupForm() {
  const [name, setName] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [subdomain, setSubdomain] = useState('');
  // the subdomain follows the company's name until the person types their own
  const [subdomainEdited, setSubdomainEdited] = useState(false);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [result, setResult] = useState<{ ok: boolean; message: string; fields?: Record<string, string> } | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setResult(await signUp({ name, company_name: companyName, subdomain, email, password }));
    setBusy(false);
  }
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        <p className="sw-auth-company">{boot().productName}</p>
        <h1>{t('auth.signupPage.createYourAccount')}</h1>
        <div className="sw-social" aria-label={t('auth.signupPage.socialSignUpNotAvailable')}>
          <button type="button" className="sw-btn sw-btn-block" aria-disabled="true">
            {t('auth.signupPage.signUpWithGoogle')}
          </button>
          <button type="button" className="sw-btn sw-btn-block" aria-disabled="true">
            {t('auth.signupPage.signUpWithGitHub')}
          </button>
        </div>
        <form className="sw-form" onSubmit={submit}>
          {result && (
            <p className={result.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
              {result.message}
            </p>
          )}
          <label>
            {t('auth.signupPage.yourName')}
            <input name="name" autoComplete="name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            {t('auth.signupPage.companyName')}
            <input
              name="company_name"
              autoComplete="organization"
              required
              maxLength={200}
              value={companyName}
              onChange={(e) => {
                setCompanyName(e.target.value);
                if (!subdomainEdited) setSubdomain(slugifySubdomain(e.target.value));
              }}
            />
          </label>
          <SubdomainField
            id="signup-subdomain"
            required
            value={subdomain}
            error={result?.fields?.subdomain}
            onChange={(v) => {
              setSubdomainEdited(v !== '');
              setSubdomain(v);
            }}
          />
          <label>
            {t('auth.loginPage.email')}
            <input type="email" name="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label>
            {t('auth.loginPage.password')}
            <input
              type="password"
              name="password"
              autoComplete="new-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy}>
            {t('auth.signupPage.signUp')}
          </button>
          <div className="sw-auth-links">
            <a href="/login">{t('auth.signupPage.alreadyHaveAnAccountSign')}</a>
          </div>
        </form>
      </div>
    </main>
  );
}

function ConfirmSignup({ token }: { token: string }) {
  const [result, setResult] = useState<{ ok: boolean; message: string; loginUrl?: string; redirectTo?: string } | null>(null);
  useEffect(() => {
    void confirmSignup(token).then((r) => {
      setResult(r);
      if (r.redirectTo) location.assign(r.redirectTo);
    });
  }, [token]);
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        <p className="sw-auth-company">{boot().productName}</p>
        <h1>{t('auth.signupPage.createYourAccount')}</h1>
        {!result && <p>{t('auth.signupPage.creatingYourAccount')}</p>}
        {result && (
          <p className={result.ok ? 'sw-banner sw-banner-ok' : 'sw-banner sw-banner-error'} role="alert">
            {result.message}
          </p>
        )}
        {result?.ok && result.loginUrl && (
          <a className="sw-btn sw-btn-primary sw-btn-block" href={result.loginUrl} target="_self">
            {t('auth.invitePage.signIn')}
          </a>
        )}
        {result && !result.ok && (
          <div className="sw-auth-links">
            <a href="/signup">{t('auth.signupPage.signUpAgain')}</a>
            <a href="/login">{t('auth.invitePage.signIn')}</a>
          </div>
        )}
      </div>
    </main>
  );
}
