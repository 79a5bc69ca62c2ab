// The navigation menus of spec section 2, filtered by permission and feature flag. Pure.
import { can, type Resource, type Role } from '../../../lib/permissions.ts';

export interface MenuItem {
  label: string;
  path: string;
  icon: string;
  resource?: Resource;
  flag?: string;
}

const DASHBOARD: MenuItem = { label: 'Dashboard', path: '/dashboard', icon: 'dashboard' };

export const SUPER_ADMIN_MENU: readonly MenuItem[] = [
  DASHBOARD,
  { label: 'Global Metrics', path: '/metrics', icon: 'metrics', resource: 'metrics' },
  { label: 'All Traces', path: '/traces', icon: 'traces', resource: 'traces' },
  { label: 'Monitors', path: '/monitors', icon: 'monitors', resource: 'monitors' },
  { label: 'API Intelligence', path: '/api-intelligence', icon: 'api', resource: 'api_intelligence', flag: 'ENABLE_API_INTELLIGENCE' },
  { label: 'Security', path: '/security', icon: 'security', resource: 'threat_intelligence', flag: 'ENABLE_THREAT_INTELLIGENCE' },
  { label: 'Users', path: '/admin/users', icon: 'users', resource: 'users', flag: 'ENABLE_USER_MGMT' },
  { label: 'Tenants', path: '/admin/tenants', icon: 'tenants', resource: 'tenants' },
  { label: 'Settings', path: '/settings', icon: 'settings', resource: 'settings' },
];

export const CUSTOMER_MENU: readonly MenuItem[] = [
  DASHBOARD,
  { label: 'My Metrics', path: '/metrics', icon: 'metrics', resource: 'metrics' },
  { label: 'My Traces', path: '/traces', icon: 'traces', resource: 'traces' },
  { label: 'My Monitors', path: '/monitors', icon: 'monitors', resource: 'monitors' },
  { label: 'API Intelligence', path: '/api-intelligence', icon: 'api', resource: 'api_intelligence', flag: 'ENABLE_API_INTELLIGENCE' },
  { label: 'Security', path: '/security', icon: 'security', resource: 'threat_intelligence', flag: 'ENABLE_THREAT_INTELLIGENCE' },
  { label: 'Team', path: '/team', icon: 'team', resource: 'users', flag: 'ENABLE_USER_MGMT' },
  { label: 'Settings', path: '/settings', icon: 'settings', resource: 'settings' },
];

export function menuFor(role: Role | null, flags: Record<string, boolean>): MenuItem[] {
  if (!role) return [];
  const items = role === 'super_admin' ? SUPER_ADMIN_MENU : CUSTOMER_MENU;
  return items.filter((i) => (!i.resource || can(role, 'view', i.resource)) && (!i.flag || flags[i.flag] === true));
}

/** Active item: the path equals the item's or starts with it; /dashboard matches only exactly. */
export function isActive(itemPath: string, currentPath: string): boolean {
  if (itemPath === '/dashboard') return currentPath === itemPath;
  return currentPath === itemPath || currentPath.startsWith(itemPath);
}

export function roleBadge(role: Role | null): string {
  if (role === 'super_admin') return 'Super Administrator';
  if (role === 'customer_admin') return 'Customer Admin';
  if (role === 'customer_viewer') return 'Viewer';
  return '';
}
