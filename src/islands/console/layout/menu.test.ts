import { describe, expect, it } from 'vitest';
import { activePath, isActive, menuFor, roleBadge } from './menu.ts';
import { DEFAULT_FLAGS } from '../stores/flags.ts';

const labels = (role: Parameters<typeof menuFor>[0], flags: Record<string, boolean> = { ...DEFAULT_FLAGS }) =>
  menuFor(role, flags).map((i) => `${i.label} ${i.path}`);

describe('navigation menus', () => {
  it('super admin menu with default flags', () => {
    expect(labels('super_admin')).toEqual([
      'Dashboard /dashboard',
      'Global Metrics /metrics',
      'All Traces /traces',
      'Monitors /monitors',
      'Status Page /monitors/status-page',
      'API Intelligence /api-intelligence',
      'Security /security',
      'Reports /reports',
      'Users /admin/users',
      'Team /team',
      'Tenants /admin/tenants',
      'Settings /settings',
    ]);
  });
  it('customer admin menu with default flags', () => {
    expect(labels('customer_admin')).toEqual([
      'Dashboard /dashboard',
      'My Metrics /metrics',
      'My Traces /traces',
      'My Monitors /monitors',
      'Status Page /monitors/status-page',
      'API Intelligence /api-intelligence',
      'Security /security',
      'Reports /reports',
      'Team /team',
      'On-call /on-call',
      'Settings /settings',
      // moving in from another tool: company admins only (a viewer's menu below has no Import)
      'Import /settings/import',
    ]);
  });
  it('a viewer sees only what it may view', () => {
    expect(labels('customer_viewer')).toEqual([
      'Dashboard /dashboard',
      'My Metrics /metrics',
      'My Traces /traces',
      'My Monitors /monitors',
      'Status Page /monitors/status-page',
      'API Intelligence /api-intelligence',
      'Security /security',
      'Reports /reports',
      'Team /team',
      'On-call /on-call',
    ]);
  });
  it('flags hide their items', () => {
    const off = { ...DEFAULT_FLAGS, ENABLE_API_INTELLIGENCE: false, ENABLE_THREAT_INTELLIGENCE: false, ENABLE_USER_MGMT: false };
    expect(labels('super_admin', off)).toEqual([
      'Dashboard /dashboard',
      'Global Metrics /metrics',
      'All Traces /traces',
      'Monitors /monitors',
      'Status Page /monitors/status-page',
      'Reports /reports',
      'Tenants /admin/tenants',
      'Settings /settings',
    ]);
    expect(labels('customer_admin', off)).not.toContain('Team /team');
  });
  it('marks the most specific item active: the status page, not Monitors', () => {
    const items = menuFor('customer_admin', { ...DEFAULT_FLAGS });
    expect(activePath(items, '/monitors/status-page')).toBe('/monitors/status-page');
    expect(activePath(items, '/monitors/abc')).toBe('/monitors');
    expect(activePath(items, '/dashboard')).toBe('/dashboard');
  });
  it('no role, no menu', () => expect(labels(null)).toEqual([]));
  it('active rule: /dashboard only exactly, others by prefix', () => {
    expect(isActive('/dashboard', '/dashboard')).toBe(true);
    expect(isActive('/dashboard', '/dashboard/x')).toBe(false);
    expect(isActive('/traces', '/traces/abc')).toBe(true);
    expect(isActive('/traces', '/metrics')).toBe(false);
  });
  it('role badges', () => {
    expect(roleBadge('super_admin')).toBe('Super Administrator');
    expect(roleBadge('customer_admin')).toBe('Customer Admin');
  });
});
