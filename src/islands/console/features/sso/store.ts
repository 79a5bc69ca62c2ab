// The company's single sign-on settings (issue 31): GET/PUT/DELETE /api/v1/company/sso, and the
// company's admins (the break-glass account is one of them). The client secret goes to the server
// only: never kept here after the call, never read back.
import { atom } from 'nanostores';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import type { components } from '../../../../api/schema.d.ts';

export type SsoSettings = components['schemas']['SsoSettings'];
export type SsoInput = components['schemas']['SsoSettingsInput'];
export interface CompanyAdmin {
  id: string;
  email: string;
  full_name: string;
}

export const $sso = atom<Load<SsoSettings>>({ status: 'loading' });
export const $ssoAdmins = atom<CompanyAdmin[]>([]);
export const $ssoAlert = atom<Alert | null>(null);

const companyQuery = (companyId: string | null) => (companyId ? { company_id: companyId } : {});

export async function loadSso(tenant: string | null): Promise<void> {
  await Promise.all([
    loadInto($sso, () => api.GET('/api/v1/company/sso', { params: { query: companyQuery(tenant) } }), serverOr(t('sso.store.loadFailed'))),
    api
      .GET('/api/v1/admin/users', { params: { query: companyQuery(tenant) } })
      .then(({ data }) => data && $ssoAdmins.set(data.filter((u) => u.user_type === '2' && u.is_active !== false)))
      .catch(() => undefined),
  ]);
}

export type SaveOutcome = { ok: true } | { ok: false; text: string; fields: Record<string, string> };

export async function saveSso(tenant: string | null, body: SsoInput): Promise<SaveOutcome> {
  try {
    const r = await api.PUT('/api/v1/company/sso', { params: { query: companyQuery(tenant) }, body });
    if (r.error !== undefined) {
      const fields = (r.error as { errors?: Record<string, string> }).errors ?? {};
      return { ok: false, text: errorText(r.error, t('sso.store.saveFailed')), fields };
    }
    $sso.set({ status: 'ready', data: r.data });
  } catch (e) {
    return { ok: false, text: errorText(e, t('sso.store.saveFailed')), fields: {} };
  }
  $ssoAlert.set({ ok: true, text: t('sso.store.saved') });
  return { ok: true };
}

export async function removeSso(tenant: string | null): Promise<void> {
  try {
    const r = await api.DELETE('/api/v1/company/sso', { params: { query: companyQuery(tenant) } });
    if (r.error !== undefined) {
      $ssoAlert.set({ ok: false, text: errorText(r.error, t('sso.store.removeFailed')) });
      return;
    }
  } catch (e) {
    $ssoAlert.set({ ok: false, text: errorText(e, t('sso.store.removeFailed')) });
    return;
  }
  $ssoAlert.set({ ok: true, text: t('sso.store.removed') });
  await loadSso(tenant);
}

/** "group = role" lines of the mapping textarea, as the API takes them; null when a line is not understood. */
export function parseGroupRoles(text: string): SsoInput['group_roles'] | null {
  const out: NonNullable<SsoInput['group_roles']> = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const m = /^(.+?)\s*=\s*(admin|viewer)$/i.exec(line);
    if (!m) return null;
    out.push({ group: m[1].trim(), role: m[2].toLowerCase() as 'admin' | 'viewer' });
  }
  return out;
}

export const groupRolesText = (roles: SsoSettings['group_roles']) => roles.map((g) => `${g.group} = ${g.role}`).join('\n');
