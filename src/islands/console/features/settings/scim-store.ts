// The company's SCIM provisioning settings (a company admin's, Enterprise plan): the base URL
// and token for the identity provider (the token is answered once, at creation) and the groups
// whose members are admins and viewers.
import { atom } from 'nanostores';
import type { operations } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type ScimSettings = operations['getScimSettings']['responses'][200]['content']['application/json'];

export const $scim = atom<Load<ScimSettings>>({ status: 'loading' });
export const $scimAlert = atom<Alert | null>(null);

export function loadScim(): Promise<void> {
  return loadInto($scim, () => api.GET('/api/v1/company/scim-token'), serverOr(t('settings.scim.loadFailed')));
}

export async function createScimToken(): Promise<{ token: string } | { error: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/company/scim-token');
    if (!data) return { error: errorText(error, t('settings.scim.createFailed')) };
    await loadScim();
    return { token: data.token };
  } catch (e) {
    return { error: errorText(e, t('settings.scim.createFailed')) };
  }
}

export async function revokeScimToken(): Promise<void> {
  try {
    const { error } = await api.DELETE('/api/v1/company/scim-token');
    $scimAlert.set(
      error ? { ok: false, text: errorText(error, t('settings.scim.revokeFailed')) } : { ok: true, text: t('settings.scim.revoked') },
    );
  } catch (e) {
    $scimAlert.set({ ok: false, text: errorText(e, t('settings.scim.revokeFailed')) });
  }
  await loadScim();
}

export async function saveRoleGroups(adminGroup: string, viewerGroup: string): Promise<boolean> {
  try {
    const { data, error } = await api.PUT('/api/v1/company/scim-role-groups', {
      body: { admin_group: adminGroup.trim() || null, viewer_group: viewerGroup.trim() || null },
    });
    if (!data) {
      $scimAlert.set({ ok: false, text: errorText(error, t('settings.scim.groupsFailed')) });
      return false;
    }
    $scim.set({ status: 'ready', data });
    $scimAlert.set({ ok: true, text: t('settings.scim.groupsSaved') });
    return true;
  } catch (e) {
    $scimAlert.set({ ok: false, text: errorText(e, t('settings.scim.groupsFailed')) });
    return false;
  }
}
