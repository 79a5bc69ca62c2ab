// The navigation menus of spec section 2, from the menu entries of the route table, filtered by
// permission and feature flag. Pure.
import { can, type Resource, type Role } from '../../../lib/permissions.ts';
import { mayOpen, ROUTE_NAMES, routeDef } from '../routes.ts';
import { t, type ConsoleKey } from '../i18n.ts';

interface MenuEntryOf {
  labelKey: ConsoleKey;
  path: string;
  icon: string;
  resource?: Resource;
  flag?: string;
}

export interface MenuItem {
  /** in the console's language now */
  label: string;
  path: string;
  icon: string;
  resource?: Resource;
  flag?: string;
}

/** Every entry a role's menu can hold, in table order, before permissions and flags. */
function menuOf(role: Role): MenuEntryOf[] {
  return ROUTE_NAMES.filter((n) => mayOpen(n, role)).flatMap((n) => {
    const { path, menu } = routeDef(n);
    if (!menu) return [];
    const labelKey = role === 'super_admin' ? menu.label : (menu.companyLabel ?? menu.label);
    return [{ labelKey, path, icon: menu.icon, resource: menu.resource, flag: menu.flag }];
  });
}

const SUPER_ADMIN_MENU: readonly MenuEntryOf[] = menuOf('super_admin');
const CUSTOMER_MENU: readonly MenuEntryOf[] = menuOf('customer_admin');

/** The role's entries, labelled in the console's language when asked (it can change while the app runs). */
export function menuFor(role: Role | null, flags: Record<string, boolean>): MenuItem[] {
  if (!role) return [];
  const items = role === 'super_admin' ? SUPER_ADMIN_MENU : CUSTOMER_MENU;
  return items
    .filter((i) => (!i.resource || can(role, 'view', i.resource)) && (!i.flag || flags[i.flag] === true))
    .map(({ labelKey, ...rest }) => ({ ...rest, label: t(labelKey) }));
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

const ROLE_KEY: Record<Role, ConsoleKey> = {
  super_admin: 'layout.role.superAdmin',
  customer_admin: 'layout.role.customerAdmin',
  customer_viewer: 'layout.role.viewer',
};

export function roleBadge(role: Role | null): string {
  return role ? t(ROLE_KEY[role]) : '';
}
