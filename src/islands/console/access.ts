// Who may see which route (spec section 2, "Route access" and "Access by prefix"), from each
// route's audience in the route table. Pure.
import type { Role } from '../../lib/permissions.ts';
import { isPublic, mayOpen, ROUTE_NAMES, ROUTES, routeAt, routeDef, type RouteName } from './routes.ts';

/** Paths a customer administrator may reach, as the spec lists them... */
export const CUSTOMER_PREFIXES = [
  '/dashboard',
  '/my-metrics',
  '/my-traces',
  '/my-monitors',
  '/team',
  '/api-intelligence',
  '/threat-intelligence',
  '/vulnerability-scans',
  '/domain-checks',
  '/ssl-monitoring',
  '/notifications',
  '/reports',
  '/settings',
] as const;
/** ...plus the paths their own menu links to (the spec gives both sets "as seen"). */
export const CUSTOMER_MENU_PREFIXES: readonly string[] = ROUTE_NAMES.filter((n) => routeDef(n).menu && mayOpen(n, 'customer_admin')).map(
  (n) => routeDef(n).path,
);

export type Decision =
  | { kind: 'public' }
  /** to the sign-in page; `next`: the page to return to after signing in */
  | { kind: 'login'; next?: string }
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

/** A sign-in page's `?next=` if it is a console path of this host (never another host or a script), else null. */
export function returnPath(raw: string | null): string | null {
  return raw && /^\/[\w\-/]*$/.test(raw) && !raw.startsWith('//') && routeAt(raw) ? raw : null;
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
  if (route && ROUTES[route].audience === 'anyone') return { kind: 'public' };
  // a company user's console lives on the company's subdomain, public routes included
  if (signedIn && isCompanyRole(role) && !tenantHost) return { kind: 'company_host' };
  // /notifications is a public route of the spec, but all it holds is a user's own notifications:
  // a visitor signs in first (the spec's no-user fallback) and comes back to it
  if (route && isPublic(route) && !signedIn && routeDef(route).shellWhenSignedIn) return { kind: 'login', next: path };
  if (route && isPublic(route)) return { kind: 'public' };
  if (!signedIn) return { kind: 'login' };
  if (!role) return { kind: 'no_role' };
  if (role === 'super_admin') return route && mayOpen(route, role) ? { kind: 'page' } : { kind: 'not_found' };
  // company administrators and viewers on their subdomain
  if (!route) return { kind: 'not_found' };
  if (!customerMayReach(path)) return { kind: 'denied' };
  return mayOpen(route, role) ? { kind: 'page' } : { kind: 'not_found' };
}
