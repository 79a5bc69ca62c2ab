// Who may read the status page (private pages, issue 17 item 4): the saved rule comes with the
// settings; saving it and the share links are calls of their own.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { t } from '../../i18n.ts';

export type PageAccess = components['schemas']['PageAccess'];
export type AccessMode = PageAccess['mode'];
export type ShareLink = components['schemas']['ShareLink'];

export const $accessAlert = atom<Alert | null>(null);
export const $accessSaving = atom(false);
export const $shareLinks = atom<Load<ShareLink[]>>({ status: 'loading' });
/** The URL of the link just made: shown once, the server keeps only its id. */
export const $newShareUrl = atom<string | null>(null);

const query = (tenant: string | null) => ({ query: { tenant: tenant ?? undefined } });

export async function saveAccess(
  tenant: string | null,
  input: { mode: AccessMode; password: string; ipText: string },
  saved: (access: PageAccess) => void,
): Promise<void> {
  $accessSaving.set(true);
  $accessAlert.set(null);
  try {
    const ranges = input.ipText
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    const { data, error } = await api.PUT('/api/v1/status-page/access', {
      params: query(tenant),
      body: { mode: input.mode, ip_allowlist: ranges, ...(input.password ? { password: input.password } : {}) },
    });
    if (data) {
      saved(data);
      $accessAlert.set({
        ok: true,
        text: data.mode === 'public' ? t('statusPage.store.accessPublic') : t('statusPage.store.accessSaved'),
      });
    } else $accessAlert.set({ ok: false, text: errorText(error, t('statusPage.store.accessSaveFailed')) });
  } catch (e) {
    $accessAlert.set({ ok: false, text: errorText(e, t('statusPage.store.accessSaveFailed')) });
  } finally {
    $accessSaving.set(false);
  }
}

export function loadShareLinks(tenant: string | null): Promise<void> {
  return loadInto(
    $shareLinks,
    async () => {
      const r = await api.GET('/api/v1/status-page/share-links', { params: query(tenant) });
      return { ...r, data: r.data?.items };
    },
    serverOr(t('statusPage.store.shareLoadFailed')),
  );
}

export async function createShareLink(tenant: string | null, hours: number, label: string): Promise<void> {
  $accessAlert.set(null);
  try {
    const { data, error } = await api.POST('/api/v1/status-page/share-links', {
      params: query(tenant),
      body: { expires_in_hours: hours, label: label.trim() || null },
    });
    if (data) {
      $newShareUrl.set(data.url);
      await loadShareLinks(tenant);
    } else $accessAlert.set({ ok: false, text: errorText(error, t('statusPage.store.shareCreateFailed')) });
  } catch (e) {
    $accessAlert.set({ ok: false, text: errorText(e, t('statusPage.store.shareCreateFailed')) });
  }
}

export async function revokeShareLink(tenant: string | null, id: string): Promise<void> {
  try {
    const { error } = await api.POST('/api/v1/status-page/share-links/{id}/revoke', { params: { ...query(tenant), path: { id } } });
    if (error) $accessAlert.set({ ok: false, text: errorText(error, t('statusPage.store.shareRevokeFailed')) });
    await loadShareLinks(tenant);
  } catch (e) {
    $accessAlert.set({ ok: false, text: errorText(e, t('statusPage.store.shareRevokeFailed')) });
  }
}
