import { describe, expect, it } from 'vitest';
import { decideAccess, customerMayReach, returnPath, signInPath } from './access.ts';
import type { RouteName } from './router.ts';
import type { Role } from '../../lib/permissions.ts';

const d = (route: RouteName | undefined, path: string, role: Role | null, opts: { signedIn?: boolean; tenantHost?: boolean } = {}) =>
  decideAccess({ route, path, role, signedIn: opts.signedIn ?? role !== null, tenantHost: opts.tenantHost ?? role !== 'super_admin' }).kind;

describe('route access', () => {
  it.each(['login', 'signup', 'companyLogin', 'forgotPassword', 'resetPassword', 'notFound', 'maintenance'] as const)(
    'public route %s needs no user',
    (route) => expect(d(route, '/' + route, null)).toBe('public'),
  );

  it('protected routes and unknown paths send visitors without a user to /login', () => {
    expect(d('dashboard', '/dashboard', null)).toBe('login');
    expect(d('adminTenants', '/admin/tenants', null)).toBe('login');
    expect(d(undefined, '/nope', null)).toBe('login');
  });

  it('super admins reach their route list; anything else is Page Not Found', () => {
    for (const [r, p] of [
      ['dashboard', '/dashboard'],
      ['backendTest', '/backend-test'],
      ['adminUsers', '/admin/users'],
      ['adminTenants', '/admin/tenants'],
      ['metrics', '/metrics'],
      ['traces', '/traces'],
      ['monitors', '/monitors'],
      ['settings', '/settings'],
      ['apiIntelligence', '/api-intelligence'],
      ['security', '/security'],
      // where they invite people into a company and see its pending invitations
      ['team', '/team'],
    ] as const) {
      expect(d(r, p, 'super_admin')).toBe('page');
    }
    expect(d(undefined, '/whatever', 'super_admin')).toBe('not_found');
  });

  it.each(['customer_admin', 'customer_viewer'] as const)('%s reaches the company routes on its subdomain', (role) => {
    for (const [r, p] of [
      ['dashboard', '/dashboard'],
      ['team', '/team'],
      ['metrics', '/metrics'],
      ['traces', '/traces'],
      ['trace', '/traces/abc'],
      ['monitors', '/monitors'],
      ['settings', '/settings'],
      ['apiIntelligence', '/api-intelligence'],
      ['security', '/security'],
      ['vulnerabilityScans', '/vulnerability-scans'],
    ] as const) {
      expect(d(r, p, role)).toBe('page');
    }
    expect(d('adminTenants', '/admin/tenants', role)).toBe('denied');
    expect(d('adminUsers', '/admin/users', role)).toBe('denied');
    expect(d('backendTest', '/backend-test', role)).toBe('denied');
    expect(d(undefined, '/nope', role)).toBe('not_found');
  });

  it.each(['customer_admin', 'customer_viewer'] as const)(
    '%s on the main host is sent to the company subdomain from every console route',
    (role) => {
      for (const [r, p] of [
        ['dashboard', '/dashboard'],
        ['notifications', '/notifications'],
        ['companyLogin', '/company-login'],
        ['team', '/team'],
        ['adminUsers', '/admin/users'],
        ['trace', '/traces/abc'],
        [undefined, '/nope'],
      ] as const) {
        expect(d(r, p, role, { tenantHost: false }), p).toBe('company_host');
      }
    },
  );

  it.each(['login', 'signup', 'forgotPassword', 'resetPassword', 'notFound', 'maintenance'] as const)(
    'the auth screen %s stays put for a signed-in company user on the main host',
    (route) => {
      expect(d(route, '/' + route, 'customer_admin', { tenantHost: false })).toBe('public');
      expect(d(route, '/' + route, 'customer_viewer', { tenantHost: false })).toBe('public');
    },
  );

  it('notifications stays public for super admins, and for company users on their subdomain', () => {
    expect(d('notifications', '/notifications', 'super_admin')).toBe('public');
    expect(d('notifications', '/notifications', 'customer_admin', { tenantHost: true })).toBe('public');
  });

  it('a visitor without a user at /notifications signs in first and returns to it', () => {
    for (const tenantHost of [false, true]) {
      expect(decideAccess({ route: 'notifications', path: '/notifications', role: null, signedIn: false, tenantHost })).toEqual({
        kind: 'login',
        next: '/notifications',
      });
    }
  });

  it("a sign-in page's next is followed only to a console path of the same host", () => {
    expect(returnPath('/notifications')).toBe('/notifications');
    expect(returnPath('/monitors/incidents')).toBe('/monitors/incidents');
    for (const bad of [
      null,
      '',
      'notifications',
      '//evil.example/notifications',
      'https://evil.example/',
      '/\\evil.example',
      '/javascript:alert(1)',
      '/no-such-screen',
    ])
      expect(returnPath(bad)).toBeNull();
  });

  it('a visitor whose user failed to load signs in at /company-login on a company subdomain, else at /login', () => {
    expect(signInPath(true)).toBe('/company-login');
    expect(signInPath(false)).toBe('/login');
    expect(d('dashboard', '/dashboard', null, { tenantHost: true })).toBe('login');
  });

  it('a signed-in user without a role sees the sign-in welcome', () => {
    expect(d('dashboard', '/dashboard', null, { signedIn: true })).toBe('no_role');
  });

  it('the customer prefix rule matches whole path segments', () => {
    expect(customerMayReach('/dashboard')).toBe(true);
    expect(customerMayReach('/reports/weekly')).toBe(true);
    expect(customerMayReach('/my-metrics')).toBe(true);
    expect(customerMayReach('/dashboardx')).toBe(false);
    expect(customerMayReach('/admin/users')).toBe(false);
  });

  it('alert channels, delivery receipts and status page subscribers are settings: admins open them, viewers do not', () => {
    for (const [r, p] of [
      ['alertChannels', '/settings/alerts'],
      ['alertDeliveries', '/notifications/deliveries'],
      ['subscribers', '/settings/subscribers'],
    ] as const) {
      expect(d(r, p, 'super_admin')).toBe('page');
      expect(d(r, p, 'customer_admin')).toBe('page');
      expect(d(r, p, 'customer_viewer')).toBe('not_found');
    }
  });

  it('the company secrets screen opens for every company member (viewers read the names) and super admins', () => {
    for (const role of ['super_admin', 'customer_admin', 'customer_viewer'] as const)
      expect(d('secrets', '/settings/secrets', role)).toBe('page');
  });
});
