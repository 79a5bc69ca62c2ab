// Who may see which route (spec section 2, "Route access" and "Access by prefix"). Pure.
import type { Role } from '../../lib/permissions.ts';
import type { RouteName } from './router.ts';

export const PUBLIC_ROUTES: readonly RouteName[] = [
  'signup', 'login', 'companyLogin', 'forgotPassword', 'resetPassword', 'notFound', 'maintenance', 'notifications',
];
/**
 * Public screens that stay where they are for everyone, signed in or not. Every other route,
 * public or not, sends a signed-in company user on the main host to the company's subdomain.
 */
export const AUTH_SCREENS: readonly RouteName[] = ['login', 'signup', 'forgotPassword', 'resetPassword', 'notFound', 'maintenance'];
const PLACEHOLDERS: readonly RouteName[] = ['metrics', 'traces', 'trace', 'monitors', 'settings', 'apiIntelligence', 'security'];
export const SUPER_ADMIN_ROUTES: readonly RouteName[] = ['dashboard', 'backendTest', 'adminUsers', 'adminTenants', ...PLACEHOLDERS];
export const COMPANY_ROUTES: readonly RouteName[] = ['dashboard', 'team', ...PLACEHOLDERS];

/** Paths a customer administrator may reach, as the spec lists them... */
export const CUSTOMER_PREFIXES = [
  '/dashboard', '/my-metrics', '/my-traces', '/my-monitors', '/team', '/api-intelligence', '/threat-intelligence',
  '/vulnerability-scans', '/domain-checks', '/ssl-monitoring', '/notifications', '/reports', '/settings',
] as const;
/** ...plus the paths their own menu links to (the spec gives both sets "as seen"). */
export const CUSTOMER_MENU_PREFIXES = ['/metrics', '/traces', '/monitors', '/security'] as const;

export type Decision =
  | { kind: 'public' }
  | { kind: 'login' }
  | { kind: 'no_role' }
  | { kind: 'page' }
  | { kind: 'denied' }
  | { kind: 'not_found' }
  | { kind: 'company_host' };

function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix + '/');
}

export function customerMayReach(path: string): boolean {
  return [...CUSTOMER_PREFIXES, ...CUSTOMER_MENU_PREFIXES].some((p) => underPrefix(path, p));
}

/** Where a visitor without a user signs in: /company-login on a company subdomain, else /login. */
export function signInPath(tenantHost: boolean): '/company-login' | '/login' {
  return tenantHost ? '/company-login' : '/login';
}

function isCompanyRole(role: Role | null): boolean {
  return role === 'customer_admin' || role === 'customer_viewer';
}

export function decideAccess(input: {
  route: RouteName | undefined;
  path: string;
  signedIn: boolean;
  role: Role | null;
  tenantHost: boolean;
}): Decision {
  const { route, path, signedIn, role, tenantHost } = input;
  if (route && AUTH_SCREENS.includes(route)) return { kind: 'public' };
  // a company user's console lives on the company's subdomain, public routes included
  if (signedIn && isCompanyRole(role) && !tenantHost) return { kind: 'company_host' };
  if (route && PUBLIC_ROUTES.includes(route)) return { kind: 'public' };
  if (!signedIn) return { kind: 'login' };
  if (!role) return { kind: 'no_role' };
  if (role === 'super_admin') return route && SUPER_ADMIN_ROUTES.includes(route) ? { kind: 'page' } : { kind: 'not_found' };
  // company administrators and viewers on their subdomain
  if (!route) return { kind: 'not_found' };
  if (!customerMayReach(path)) return { kind: 'denied' };
  return COMPANY_ROUTES.includes(route) ? { kind: 'page' } : { kind: 'not_found' };
}
