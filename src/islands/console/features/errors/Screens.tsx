// Screens that stand alone: Page Not Found, maintenance, the catch-all error, access denied, the
// sign-in welcome and the redirect of a company user to the company's own subdomain.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { api } from '../../api.ts';
import { boot } from '../../boot.ts';
import { companySiteUrl, GENERIC_COMPANY_SUBDOMAIN } from '../../hosts.ts';
import { $user } from '../../stores/auth.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { t } from '../../i18n.ts';

export function NotFound({ embedded = false }: { embedded?: boolean }) {
  const Heading = embedded ? 'h2' : 'h1';
  const Wrap = embedded ? 'div' : 'main';
  return (
    <Wrap className={embedded ? 'sw-embedded' : 'sw-standalone'}>
      <div className="sw-panel sw-center-text">
        <p className="sw-big" aria-hidden="true">
          404
        </p>
        <Heading>{t('errors.screens.pageNotFound')}</Heading>
        <p>{t('errors.screens.thePageYouAreLooking')}</p>
        <div className="sw-row-center">
          <button type="button" className="sw-btn" onClick={() => history.back()}>
            {t('errors.screens.goBack')}
          </button>
          <a className="sw-btn sw-btn-primary" href="/" target="_self">
            {t('errors.screens.home')}
          </a>
        </div>
      </div>
    </Wrap>
  );
}

/** The /notfound route's screen. */
export function NotFoundPage() {
  return <NotFound />;
}

export function Maintenance() {
  return (
    <main className="sw-standalone">
      <div className="sw-panel sw-center-text">
        <p className="sw-big" aria-hidden="true">
          <Icon name="settings" size={56} />
        </p>
        <h1>{t('errors.screens.weLlBeBackSoon')}</h1>
        <p>{t('errors.screens.isDownForScheduledMaintenance', { productName: boot().productName })}</p>
      </div>
    </main>
  );
}

export function ErrorScreen({ error }: { error: Error }) {
  return (
    <main className="sw-standalone">
      <div className="sw-panel" role="alert">
        <h1>{t('errors.screens.somethingWentWrong')}</h1>
        <p className="sw-error-text">{error.message}</p>
        <details>
          <summary>{t('errors.screens.stack')}</summary>
          <pre className="sw-stack">{error.stack}</pre>
        </details>
        <a className="sw-btn sw-btn-primary" href="/" target="_self">
          {t('errors.screens.home')}
        </a>
      </div>
    </main>
  );
}

export function AccessDenied() {
  return (
    <div className="sw-banner sw-banner-error" role="alert">
      {t('errors.screens.accessDeniedSuperAdminPrivileges')}
    </div>
  );
}

export function Welcome() {
  return (
    <main className="sw-standalone">
      <div className="sw-panel sw-center-text">
        <h1>{t('errors.screens.welcome')}</h1>
        <p>{t('errors.screens.pleaseSignInToContinue')}</p>
        <a className="sw-btn sw-btn-primary" href="/login">
          {t('errors.screens.signIn')}
        </a>
      </div>
    </main>
  );
}

/** A company admin or viewer on the main host goes to the company's subdomain. */
export function CompanyHostRedirect() {
  const user = useStore($user);
  useEffect(() => {
    let cancelled = false;
    (async () => {
      const path = location.pathname + location.search;
      // First choice: a one-time handoff link, so the user arrives signed in even when their
      // session on the company host has ended; it brings them to the same path there.
      try {
        const { data } = await api.POST('/api/v1/auth/handoff');
        const to = data?.redirect_to;
        if (!cancelled && to && /^https?:\/\//.test(to)) {
          window.location.assign(`${to}&next=${encodeURIComponent(path)}`);
          return;
        }
      } catch {
        // fall through to a plain link to the company host
      }
      let sub = user?.company?.subdomain ?? null;
      if (!sub) {
        try {
          const { data } = await api.GET('/api/v1/company/fetch-company');
          sub = data?.subdomain ?? data?.company?.subdomain ?? null;
        } catch {
          sub = null;
        }
      }
      if (cancelled) return;
      const b = boot();
      const here = { protocol: location.protocol, port: location.port };
      window.location.assign(companySiteUrl(sub || GENERIC_COMPANY_SUBDOMAIN, b.productDomain, path, here));
    })();
    return () => {
      cancelled = true;
    };
  }, [user]);
  return (
    <main className="sw-standalone">
      <Spinner label={t('errors.screens.redirectingToYourCompanySite')} />
    </main>
  );
}
