// The console: one React app for every console route. The URL picks the screen; access rules
// decide whether it shows, redirects or answers 'Page Not Found'.
import { useStore } from '@nanostores/react';
import { Component, useEffect, type ReactNode } from 'react';
import './console.css';
import { decideAccess, signInPath } from './access.ts';
import { boot, onTenantHost, setBoot, type Boot } from './boot.ts';
import { $router, go, type RouteName } from './router.ts';
import { $authState, $role, $user, startAuth } from './stores/auth.ts';
import { loadFlags } from './stores/flags.ts';
import { Shell } from './layout/Shell.tsx';
import { Spinner } from './ui/Spinner.tsx';
import { readableOnWhite } from './ui/contrast.ts';
import { ErrorScreen, NotFound, Maintenance, AccessDenied, Welcome, CompanyHostRedirect } from './features/errors/Screens.tsx';
import { LoginPage } from './features/auth/LoginPage.tsx';
import { SignupPage } from './features/auth/SignupPage.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './features/auth/PasswordPages.tsx';
import { DashboardPage } from './features/dashboard/DashboardPage.tsx';
import { TenantsPage } from './features/tenants/TenantsPage.tsx';
import { UsersPage } from './features/users/UsersPage.tsx';
import { NotificationsPage } from './features/notifications/NotificationsPage.tsx';
import { BackendTestPage } from './features/backend-test/BackendTestPage.tsx';
import { ComingSoon } from './features/placeholders/ComingSoon.tsx';
import { TracePage } from './features/trace/TracePage.tsx';

const TITLES: Record<RouteName, string> = {
  login: 'Sign in', signup: 'Sign up', companyLogin: 'Sign in', forgotPassword: 'Forgot password', resetPassword: 'Reset password',
  notFound: 'Page Not Found', maintenance: 'Maintenance', notifications: 'Notifications', dashboard: 'Dashboard',
  backendTest: 'Backend Test', adminUsers: 'Users Management', adminTenants: 'Tenants Management', metrics: 'Metrics',
  traces: 'Traces', trace: 'Trace', monitors: 'Monitors', settings: 'Settings', apiIntelligence: 'API Intelligence',
  security: 'Security', team: 'Team',
};

const HEX = /^#[0-9a-fA-F]{6}$/;
function applyBrand(primary?: string | null, secondary?: string | null): void {
  const root = document.documentElement.style;
  if (primary && HEX.test(primary)) {
    root.setProperty('--brand', primary);
    root.setProperty('--brand-strong', readableOnWhite(primary));
  }
  if (secondary && HEX.test(secondary)) root.setProperty('--brand-2', secondary);
}

function signedInPage(route: RouteName, params: Record<string, string>): ReactNode {
  switch (route) {
    case 'dashboard': return <DashboardPage />;
    case 'adminTenants': return <TenantsPage />;
    case 'adminUsers': return <UsersPage />;
    case 'backendTest': return <BackendTestPage />;
    case 'notifications': return <NotificationsPage />;
    case 'trace': return <TracePage traceId={params.traceId ?? ''} />;
    default: return <ComingSoon title={TITLES[route]} />;
  }
}

function publicPage(route: RouteName): ReactNode {
  switch (route) {
    case 'login':
    case 'companyLogin': return <LoginPage />;
    case 'signup': return <SignupPage />;
    case 'forgotPassword': return <ForgotPasswordPage />;
    case 'resetPassword': return <ResetPasswordPage />;
    case 'maintenance': return <Maintenance />;
    case 'notifications': return <NotificationsPage />;
    default: return <NotFound />;
  }
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
    document.title = `${route ? TITLES[route] : 'Page Not Found'} · ${boot().productName}`;
  }, [route]);
  useEffect(() => {
    if (auth === 'authenticated') void loadFlags();
    if (user?.company) applyBrand(user.company.primary_color, user.company.secondary_color);
  }, [auth, user]);
  useEffect(() => {
    // "User failed to load": /company-login on a company subdomain, else /login
    if (decision?.kind === 'login') go(signInPath(onTenantHost()), true);
  }, [decision?.kind]);

  if (!decision) return <Spinner />;
  switch (decision.kind) {
    case 'login': return <Spinner label="Redirecting to sign in…" />;
    case 'public':
      // a signed-in user reads notifications inside the console layout
      if (route === 'notifications' && user && role) return <Shell title={TITLES.notifications}>{publicPage(route)}</Shell>;
      return route === 'notFound' ? <NotFound /> : publicPage(route!);
    case 'no_role': return <Welcome />;
    case 'company_host': return <CompanyHostRedirect />;
    case 'not_found': return user ? <Shell title="Page Not Found"><NotFound embedded /></Shell> : <NotFound />;
    case 'denied': return <Shell title={route ? TITLES[route] : ''}><AccessDenied /></Shell>;
    case 'page': return <Shell title={TITLES[route!]}>{signedInPage(route!, (page?.params ?? {}) as Record<string, string>)}</Shell>;
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
const QUIET_PATHS = ['/login', '/signup', '/company-login', '/forgotpassword', '/reset-password', '/notfound', '/maintenance'];

export default function ConsoleApp(props: { boot: Boot }) {
  if (!started) {
    started = true;
    setBoot(props.boot);
    const h = props.boot.host;
    if (h.kind === 'tenant') applyBrand(h.company.primaryColor, h.company.secondaryColor);
    // public pages load nothing; /notifications shows the console layout when someone is signed in
    const path = window.location.pathname.replace(/(.)\/$/, '$1');
    void startAuth(!QUIET_PATHS.includes(path));
  }
  return (
    <ErrorBoundary>
      <Screen />
    </ErrorBoundary>
  );
}
