// The console: one React app for every console route. The URL picks the screen; access rules
// decide whether it shows, redirects or answers 'Page Not Found'.
import { useStore } from '@nanostores/react';
import { Component, Fragment, lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { isHexColour } from '../../lib/formats.ts';
import './console.css';
import './theme.css';
import { decideAccess, signInPath } from './access.ts';
import { boot, onTenantHost, setBoot, type Boot } from './boot.ts';
import { $router, go } from './router.ts';
import { isPublic, ROUTE_NAMES, ROUTES, routeAt, routeDef, type RouteName, type ScreenProps } from './routes.ts';
import { SCREENS as LOADERS } from './screens.ts';
import { $authState, $role, $user, startAuth } from './stores/auth.ts';
import { loadFlags } from './stores/flags.ts';
import { applyUiSettings, loadUiSettings } from './stores/ui-settings.ts';
import { Shell } from './layout/Shell.tsx';
import { Spinner } from './ui/Spinner.tsx';
import { $consoleLocale, $localeReady, setConsoleLocale, t } from './i18n.ts';
import { readableOnWhite } from '../../lib/contrast.ts';
import { ErrorScreen, NotFound, AccessDenied, Welcome, CompanyHostRedirect } from './features/errors/Screens.tsx';

// Each screen's code loads when it is first shown, so the initial script stays small.
const SCREENS = Object.fromEntries(
  ROUTE_NAMES.map((name) => [name, lazy(() => LOADERS[name]().then((screen) => ({ default: screen })))]),
) as Record<RouteName, LazyExoticComponent<ComponentType<ScreenProps>>>;

function RouteScreen({ route, params }: { route: RouteName; params: Record<string, string> }) {
  const Lazy = SCREENS[route];
  return (
    <Suspense fallback={<Spinner />}>
      <Lazy params={params} title={t(ROUTES[route].title)} />
    </Suspense>
  );
}

/** The company's colours: its own sign-in screens, and the console for users who choose the 'company' theme (theme.css). */
function applyBrand(primary?: string | null, secondary?: string | null): void {
  const root = document.documentElement.style;
  if (isHexColour(primary)) {
    root.setProperty('--company', primary);
    root.setProperty('--company-strong', readableOnWhite(primary));
  }
  if (isHexColour(secondary)) root.setProperty('--brand-2', secondary);
}

function Screen() {
  const page = useStore($router);
  const auth = useStore($authState);
  const role = useStore($role);
  const user = useStore($user);
  const route = page?.route;
  const path = page?.path ?? window.location.pathname;
  const decision = auth === 'loading' ? null : decideAccess({ route, path, signedIn: !!user, role, tenantHost: onTenantHost() });

  useEffect(() => {
    document.title = `${t(route ? ROUTES[route].title : 'routes.notFound.title')} · ${boot().productName}`;
  }, [route]);
  useEffect(() => {
    if (auth === 'authenticated') {
      void loadFlags();
      // the page was drawn with the defaults when the server did not know the user yet (a renewed
      // session); a company user's settings are read on the company's host, where the session holds
      if (!boot().user && (role === 'super_admin' || onTenantHost())) void loadUiSettings();
    }
    if (user?.company) applyBrand(user.company.primary_color, user.company.secondary_color);
  }, [auth, user, role]);
  useEffect(() => {
    // "User failed to load": /company-login on a company subdomain, else /login
    if (decision?.kind === 'login')
      go(signInPath(onTenantHost()) + (decision.next ? `?next=${encodeURIComponent(decision.next)}` : ''), true);
  }, [decision?.kind]);

  if (!decision) return <Spinner />;
  const params = (page?.params ?? {}) as Record<string, string>;
  switch (decision.kind) {
    case 'login':
      return <Spinner label={t('app.redirectingToSignIn')} />;
    case 'public':
      // a signed-in user reads notifications inside the console layout
      if (!routeDef(route!).shellWhenSignedIn || !user || !role) return <RouteScreen route={route!} params={params} />;
      return (
        <Shell title={t(ROUTES[route!].title)}>
          <RouteScreen route={route!} params={params} />
        </Shell>
      );
    case 'no_role':
      return <Welcome />;
    case 'company_host':
      return <CompanyHostRedirect />;
    case 'not_found':
      return user ? (
        <Shell title={t('routes.notFound.title')}>
          <NotFound embedded />
        </Shell>
      ) : (
        <NotFound />
      );
    case 'denied':
      return (
        <Shell title={route ? t(ROUTES[route].title) : ''}>
          <AccessDenied />
        </Shell>
      );
    case 'page':
      return (
        <Shell title={t(ROUTES[route!].title)}>
          <RouteScreen route={route!} params={params} />
        </Shell>
      );
  }
}

class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <ErrorScreen error={this.state.error} /> : this.props.children;
  }
}

let started = false;
/** Public pages load nothing (no user); /notifications shows the console layout when someone is signed in. */
const QUIET_PATHS: readonly string[] = ROUTE_NAMES.filter((n) => isPublic(n) && !routeDef(n).shellWhenSignedIn).map((n) => ROUTES[n].path);

export default function ConsoleApp(props: { boot: Boot }) {
  if (!started) {
    started = true;
    setBoot(props.boot);
    void setConsoleLocale(props.boot.locale);
    applyUiSettings(props.boot.ui);
    const h = props.boot.host;
    if (h.kind === 'tenant') applyBrand(h.company.primaryColor, h.company.secondaryColor);
    const path = window.location.pathname.replace(/(.)\/$/, '$1');
    void startAuth(!QUIET_PATHS.includes(path));
    // fetch this page's screen while the user loads
    const here = routeAt(path);
    if (here) void LOADERS[here]().catch(() => undefined);
  }
  return (
    <ErrorBoundary>
      <LocaleGate>
        <Screen />
      </LocaleGate>
    </ErrorBoundary>
  );
}

/** Draws the screens once the console's language is loaded (German is fetched; English is there). */
function LocaleGate({ children }: { children: ReactNode }) {
  const ready = useStore($localeReady);
  // a new language draws every screen again (keyed), so no text stays in the old one
  const locale = useStore($consoleLocale);
  return ready ? <Fragment key={locale}>{children}</Fragment> : <Spinner />;
}
