// The navigation menus of spec section 2, from the menu entries of the route table, filtered by
// permission and feature flag. Pure.
import { can, type Resource, type Role } from '../../../lib/permissions.ts';
import { mayOpen, ROUTE_NAMES, routeDef } from '../routes.ts';

export interface MenuItem {
  label: string;
  path: string;
  icon: string;
  resource?: Resource;
  flag?: string;
}

/** Every entry a role's menu can hold, in table order, before permissions and flags. */
function menuOf(role: Role): MenuItem[] {
  return ROUTE_NAMES.filter((n) => mayOpen(n, role)).flatMap((n) => {
    const { path, menu } = routeDef(n);
    if (!menu) return [];
    const label = role === 'super_admin' ? menu.label : (menu.companyLabel ?? menu.label);
    return [{ label, path, icon: menu.icon, resource: menu.resource, flag: menu.flag }];
  });
}

export const SUPER_ADMIN_MENU: readonly MenuItem[] = menuOf('super_admin');
export const CUSTOMER_MENU: readonly MenuItem[] = menuOf('customer_admin');

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

/** The item a path belongs to: the longest that matches (/monitors/status-page over /monitors). */
export function activePath(items: readonly MenuItem[], currentPath: string): string | undefined {
  return items
    .filter((i) => isActive(i.path, currentPath))
    .map((i) => i.path)
    .sort((a, b) => b.length - a.length)[0];
}

export function roleBadge(role: Role | null): string {
  if (role === 'super_admin') return 'Super Administrator';
  if (role === 'customer_admin') return 'Customer Admin';
  if (role === 'customer_viewer') return 'Viewer';
  return '';
}
