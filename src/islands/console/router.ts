// The console's routes (spec section 2). Unknown paths match nothing and show 'Page Not Found'.
import { createRouter } from '@nanostores/router';

export const ROUTES = {
  login: '/login',
  signup: '/signup',
  companyLogin: '/company-login',
  forgotPassword: '/forgotpassword',
  resetPassword: '/reset-password',
  notFound: '/notfound',
  maintenance: '/maintenance',
  notifications: '/notifications',
  dashboard: '/dashboard',
  backendTest: '/backend-test',
  adminUsers: '/admin/users',
  adminTenants: '/admin/tenants',
  metrics: '/metrics',
  traces: '/traces',
  trace: '/traces/:traceId',
  monitors: '/monitors',
  settings: '/settings',
  apiIntelligence: '/api-intelligence',
  security: '/security',
  team: '/team',
} as const;
export type RouteName = keyof typeof ROUTES;

export const $router = createRouter(ROUTES);

/** Navigate inside the app (no reload). */
export function go(path: string, replace = false): void {
  $router.open(path, replace);
}
