// The status page's security panel switch (issue 32 item 5): loaded with its preview of what
// the page shows, and saved with a call of its own.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type SecurityPanelSettings = components['schemas']['SecurityPanelSettings'];

export const $securityPanel = atom<Load<SecurityPanelSettings>>({ status: 'loading' });
export const $securityPanelAlert = atom<Alert | null>(null);
export const $securityPanelSaving = atom(false);

const query = (tenant: string | null) => ({ query: { tenant: tenant ?? undefined } });

export function loadSecurityPanel(tenant: string | null): Promise<void> {
  $securityPanelAlert.set(null);
  return loadInto(
    $securityPanel,
    () => api.GET('/api/v1/status-page/panels', { params: query(tenant) }),
    serverOr(t('pagePanels.loadFailed')),
  );
}

export async function saveSecurityPanel(tenant: string | null, on: boolean): Promise<void> {
  $securityPanelSaving.set(true);
  $securityPanelAlert.set(null);
  try {
    const { data, error } = await api.PUT('/api/v1/status-page/panels', { params: query(tenant), body: { security_panel: on } });
    if (data) {
      $securityPanel.set({ status: 'ready', data });
      $securityPanelAlert.set({ ok: true, text: t('pagePanels.saved') });
    } else $securityPanelAlert.set({ ok: false, text: errorText(error, t('pagePanels.saveFailed')) });
  } catch (e) {
    $securityPanelAlert.set({ ok: false, text: errorText(e, t('pagePanels.saveFailed')) });
  } finally {
    $securityPanelSaving.set(false);
  }
}
