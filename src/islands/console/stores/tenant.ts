// The super admin's tenant selection (spec section 4): global view (null) or one company; the
// choice is kept in localStorage; switching logs a tenant_switch audit event.
import { atom } from 'nanostores';
import type { components } from '../../../api/schema.d.ts';
import { api } from '../api.ts';
import { logAudit } from './audit.ts';
import { $role, $user, TENANT_KEY } from './auth.ts';

export type Company = components['schemas']['Company'];

function stored(): string | null {
  try {
    return localStorage.getItem(TENANT_KEY);
  } catch {
    return null;
  }
}

export const $selectedTenant = atom<string | null>(stored());
export const $tenantOptions = atom<{ list: Company[]; error: string | null; loaded: boolean }>({ list: [], error: null, loaded: false });

function keep(id: string | null): void {
  $selectedTenant.set(id);
  try {
    if (id) localStorage.setItem(TENANT_KEY, id);
    else localStorage.removeItem(TENANT_KEY);
  } catch {
    /* storage unavailable */
  }
}

export async function loadTenantOptions(): Promise<void> {
  try {
    const { data } = await api.GET('/api/v1/admin/companies');
    if (!data) throw new Error('no data');
    $tenantOptions.set({ list: data, error: null, loaded: true });
    // a stored tenant that is gone or inactive is cleared silently
    const current = $selectedTenant.get();
    if (current && !data.some((c) => c.id === current && c.is_active)) keep(null);
  } catch {
    $tenantOptions.set({ list: [], error: 'Failed to load tenants', loaded: true });
    keep(null);
  }
}

export function selectTenant(id: string | null): void {
  const previous = $selectedTenant.get();
  if (previous === id) return;
  if (id && !$tenantOptions.get().list.some((c) => c.id === id && c.is_active)) return; // inactive tenants cannot be selected
  keep(id);
  const u = $user.get();
  void logAudit('tenant_switch', { previousTenantId: previous, newTenantId: id }, { userId: u?.id, userRole: $role.get(), tenantId: id });
}
