// /login and /company-login. On a company subdomain the form is branded (logo or name, the
// primary colour on the button) and lists the company's public API status. /login?unlock=… is
// the link mailed to an owner whose account is under a sign-in attack: it is redeemed first.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { boot } from '../../boot.ts';
import { afterLoginTarget, mainSiteUrl } from '../../hosts.ts';
import { returnPath } from '../../access.ts';
import { askPasskey, signIn, signInWithPasskey, type PasskeyAnswer, type SignInResult } from '../../stores/auth.ts';
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill } from '@simplewebauthn/browser';
import { STATUS_LABEL } from '../../../../lib/status.ts';
import { ssoErrorMessage } from '../../../../lib/sso-messages.ts';
import { $companyMissing, $publicMonitors, loadPublicMonitors, ownCompanySubdomain, unlockSignIn, type LoginMonitor } from './store.ts';
import { t } from '../../i18n.ts';

export function LoginPage() {
  const b = boot();
  const host = b.host;
  const here = { protocol: location.protocol, port: location.port };
  const missing = useStore($companyMissing);
  if (host.kind === 'unknown_tenant' || missing) return <CompanyMissing />;
  const tenant = host.kind === 'tenant' ? host.company : null;
  return (
    <main className="sw-auth">
      <div className="sw-auth-card">
        {tenant ? (
          <div className="sw-auth-brand">
            {tenant.logoBase64 ? (
              <img src={tenant.logoBase64} alt={tenant.name} className="sw-auth-logo" />
            ) : (
              <p className="sw-auth-company">{tenant.name}</p>
            )}
          </div>
        ) : (
          <p className="sw-auth-company">{b.productName}</p>
        )}
        <h1>{t('auth.invitePage.signIn')}</h1>
        <LoginForm tenant={!!tenant} sso={tenant?.sso === true} />
        {tenant && (
          <a className="sw-link" href={mainSiteUrl(b.productDomain, '/login', here)} target="_self">
            {t('auth.loginPage.goToMainSite')}
          </a>
        )}
      </div>
      {tenant && <PublicStatusList subdomain={tenant.subdomain} />}
    </main>
  );
}

function CompanyMissing() {
  const b = boot();
  return (
    <main className="sw-standalone">
      <div className="sw-panel sw-center-text" role="alert">
        <h1>{t('auth.loginPage.companyNotFoundOrInactive')}</h1>
        <a
          className="sw-btn sw-btn-primary"
          href={mainSiteUrl(b.productDomain, '/', { protocol: location.protocol, port: location.port })}
          target="_self"
        >
          {t('auth.loginPage.goToMainSite')}
        </a>
      </div>
    </main>
  );
}

function LoginForm({ tenant, sso }: { tenant: boolean; sso: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [rememberMe, setRememberMe] = useState(false);
  // A single sign-on that came back refused says why (the code maps to our own sentence).
  const [error, setError] = useState<string | null>(() => ssoErrorMessage(new URLSearchParams(location.search).get('sso_error')));
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // On the main host, "Sign in with SSO" asks only for the e-mail: its domain finds the company.
  const [ssoMode, setSsoMode] = useState(() => new URLSearchParams(location.search).get('sso') === '1');
  // After a right password for an account with two-factor sign-in: the second step, with what
  // the account has (an authenticator app's code, a passkey, or both); recovery codes always.
  const [step, setStep] = useState<{ code: boolean; passkey: boolean } | null>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [passkeys] = useState(() => browserSupportsWebAuthn());
  useEffect(() => {
    const unlock = new URLSearchParams(location.search).get('unlock');
    if (!unlock) return;
    void unlockSignIn(unlock).then((r) => (r.ok ? setNotice(r.message) : setError(r.message)));
  }, []);
  // Conditional UI: where the browser has it, the site's passkeys are offered among the email
  // field's suggestions; picking one signs in at once. A later ceremony (the button, the second
  // step) replaces this waiting one.
  useEffect(() => {
    let live = true;
    void browserSupportsWebAuthnAutofill().then(async (ok) => {
      if (!ok || !live) return;
      const r = await askPasskey(true);
      if (r.answer && live) await passkeySignIn(r.answer);
    });
    return () => {
      live = false;
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: started once, when the form appears
  }, []);
  const fallback = tenant ? t('auth.loginPage.anUnexpectedErrorOccurredPlease') : t('auth.loginPage.loginFailedPleaseTryAgain');

  async function proceed(r: SignInResult) {
    if (!r.user) return;
    let companySubdomain: string | null = null;
    if (!r.redirectTo && r.user.user_type !== '1' && !tenant && !r.user.company?.subdomain) companySubdomain = await ownCompanySubdomain();
    const b = boot();
    window.location.assign(
      afterLoginTarget({
        user: r.user,
        redirectTo: r.redirectTo,
        onTenantHost: tenant,
        productDomain: b.productDomain,
        companySubdomain,
        here: { protocol: location.protocol, port: location.port },
        next: returnPath(new URLSearchParams(location.search).get('next')),
      }),
    );
  }

  async function passkeySignIn(answer?: PasskeyAnswer) {
    setError(null);
    setNotice(null);
    let a = answer;
    if (!a) {
      const asked = await askPasskey();
      if (asked.error) setError(asked.error);
      if (!asked.answer) return;
      a = asked.answer;
    }
    setBusy(true);
    const r = await signInWithPasskey(a, rememberMe, fallback);
    if (r.error || !r.user) {
      setBusy(false);
      setError(r.error ?? fallback);
      return;
    }
    await proceed(r);
  }

  async function send(second: Parameters<typeof signIn>[4]) {
    setBusy(true);
    setError(null);
    setNotice(null);
    const r = await signIn(email, password, rememberMe, fallback, second);
    if (r.error || !r.user) {
      setBusy(false);
      // the first time the server asks for the second step, its request is the prompt, not an error
      if ((r.needsCode || r.needsPasskey) && !step) setStep({ code: !!r.needsCode, passkey: !!r.needsPasskey });
      else setError(r.error ?? fallback);
      return;
    }
    await proceed(r);
  }

  /**
   * Off to the identity provider (through our start, which finds the company and keeps the state),
   * as a form post: the e-mail stays out of the address, the history and access logs.
   */
  function startSso() {
    const fields: Record<string, string> = {};
    if (email.trim()) fields.email = email.trim();
    if (rememberMe) fields.remember = 'true';
    const next = returnPath(new URLSearchParams(location.search).get('next'));
    if (next) fields.return_to = next;
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/api/v1/auth/sso/start';
    form.hidden = true;
    for (const [name, value] of Object.entries(fields)) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (ssoMode) {
      setBusy(true);
      startSso();
      return;
    }
    const typed = code.trim();
    await send(step && typed ? (useRecovery ? { recovery_code: typed } : { totp_code: typed }) : {});
  }

  async function passkeyAsSecondStep() {
    setError(null);
    const asked = await askPasskey();
    if (asked.error) setError(asked.error);
    if (asked.answer) await send({ passkey: asked.answer });
  }

  const typing = step && (step.code || useRecovery);
  return (
    <form className="sw-form" onSubmit={submit}>
      {error && (
        <p className="sw-banner sw-banner-error" role="alert">
          {error}
        </p>
      )}
      {notice && (
        <p className="sw-banner sw-banner-ok" role="status">
          {notice}
        </p>
      )}
      <label>
        {t('auth.loginPage.email')}
        <input
          type="email"
          name="email"
          autoComplete="username webauthn"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </label>
      {!ssoMode && (
        <label>
          {t('auth.loginPage.password')}
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
      )}
      <label className="sw-check">
        <input type="checkbox" checked={rememberMe} onChange={(e) => setRememberMe(e.target.checked)} />
        {t('auth.loginPage.rememberMe')}
      </label>
      {step && (
        <>
          <p className="sw-banner sw-banner-ok" role="status">
            {useRecovery
              ? t('auth.loginPage.enterOneOfYourRecovery')
              : step.passkey && step.code
                ? t('auth.loginPage.useOneOfYourPasskeys')
                : step.passkey
                  ? t('auth.loginPage.useOneOfYourPasskeys2')
                  : t('auth.loginPage.enterThe6DigitCode')}
          </p>
          {step.passkey && !useRecovery && (
            <button type="button" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy} onClick={() => void passkeyAsSecondStep()}>
              {t('auth.loginPage.useAPasskey')}
            </button>
          )}
          {typing && (
            <label>
              {useRecovery ? t('auth.loginPage.recoveryCode') : t('auth.loginPage.authenticationCode')}
              <input
                name="code"
                // biome-ignore lint/a11y/noAutofocus: the field the sign-in now waits for
                autoFocus
                required
                inputMode={useRecovery ? 'text' : 'numeric'}
                autoComplete="one-time-code"
                maxLength={useRecovery ? 64 : 8}
                value={code}
                onChange={(e) => setCode(e.target.value)}
              />
            </label>
          )}
          <button
            type="button"
            className="sw-btn sw-btn-small"
            onClick={() => {
              setUseRecovery(!useRecovery);
              setCode('');
              setError(null);
            }}
          >
            {useRecovery
              ? step.code
                ? t('auth.loginPage.useACodeFromThe')
                : t('auth.loginPage.useAPasskeyInstead')
              : t('auth.loginPage.useARecoveryCode')}
          </button>
        </>
      )}
      {(!step || typing) && (
        <button type="submit" className="sw-btn sw-btn-primary sw-btn-block" disabled={busy}>
          {busy
            ? t('auth.loginPage.signingIn')
            : ssoMode
              ? t('auth.loginPage.continueWithSSO')
              : step
                ? t('auth.loginPage.verify')
                : t('auth.invitePage.signIn')}
        </button>
      )}
      {!step && !ssoMode && passkeys && (
        <button type="button" className="sw-btn sw-btn-block" disabled={busy} onClick={() => void passkeySignIn()}>
          {t('auth.loginPage.useAPasskeyInsteadOf')}
        </button>
      )}
      {/* Links, not buttons: the form's one button named "Sign in…" is its submit. */}
      {!step &&
        (tenant ? (
          sso && (
            <a
              className="sw-btn sw-btn-block"
              href="/api/v1/auth/sso/start"
              onClick={(e) => {
                e.preventDefault();
                startSso();
              }}
            >
              {t('auth.loginPage.signInWithSSO')}
            </a>
          )
        ) : (
          <a
            className="sw-btn sw-btn-block"
            href={ssoMode ? '/login' : '/login?sso=1'}
            onClick={(e) => {
              e.preventDefault();
              setSsoMode(!ssoMode);
              setError(null);
            }}
          >
            {ssoMode ? t('auth.loginPage.signInWithAPassword') : t('auth.loginPage.signInWithSSO')}
          </a>
        ))}
      <div className="sw-auth-links">
        <a href="/forgotpassword">{t('auth.loginPage.forgotPassword')}</a>
        {!tenant && <a href="/signup">{t('auth.loginPage.createAnAccount')}</a>}
      </div>
    </form>
  );
}

const STATE_PILL: Record<LoginMonitor['current_status'], string> = {
  operational: 'sw-green',
  degraded: 'sw-amber',
  down: 'sw-red',
  unknown: 'sw-grey',
  maintenance: 'sw-grey',
};

/** The spec's badge for HTTP monitors (the code, green when 200); kinds without a code show their state. */
function LoginMonitorBadge({ m }: { m: LoginMonitor }) {
  if (m.reports_http_code) return <span className={m.status === 200 ? 'sw-pill sw-green' : 'sw-pill sw-red'}>{m.status ?? '—'}</span>;
  return <span className={`sw-pill ${STATE_PILL[m.current_status]}`}>{STATUS_LABEL[m.current_status]}</span>;
}

function PublicStatusList({ subdomain }: { subdomain: string }) {
  const load = useStore($publicMonitors);
  useEffect(() => {
    void loadPublicMonitors(subdomain);
  }, [subdomain]);
  return (
    <section className="sw-auth-card sw-public-status" aria-labelledby="public-api-status">
      <h2 id="public-api-status">{t('auth.loginPage.publicAPIStatus')}</h2>
      {load.status === 'loading' && <p>{t('auth.loginPage.loading')}</p>}
      {load.status === 'error' && <p className="sw-muted">{load.message}</p>}
      {load.status === 'ready' && load.data.length === 0 && <p className="sw-muted">{t('auth.loginPage.noPublicMonitorsConfigured')}</p>}
      {load.status === 'ready' && load.data.length > 0 && (
        <ul className="sw-status-list">
          {load.data.map((m) => (
            <li key={m.id}>
              <span className="sw-status-domain">{m.domain}</span>
              <LoginMonitorBadge m={m} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
