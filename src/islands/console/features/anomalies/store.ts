// Anomaly watching (issue 33, item 2): the company's sensitivity (GET/PUT /api/v1/anomaly-settings;
// any member reads it, company admins change it) and its recent episodes (GET /api/v1/anomalies).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type AnomalySettings = S['AnomalySettings'];
export type AnomalyLevel = S['AnomalyLevel'];
export type AnomalyEpisode = S['AnomalyEpisode'];

export const LEVELS: readonly AnomalyLevel[] = ['off', 'low', 'normal', 'high'];

export const $anomalySettings = atom<Load<AnomalySettings>>({ status: 'loading' });
export const $anomalies = atom<Load<AnomalyEpisode[]>>({ status: 'loading' });
export const $anomaliesAlert = atom<Alert | null>(null);

const query = (tenant: string | null) => ({ tenant: tenant ?? undefined });

export function loadAnomalies(tenant: string | null): Promise<void> {
  return Promise.all([
    loadInto(
      $anomalySettings,
      () => api.GET('/api/v1/anomaly-settings', { params: { query: query(tenant) } }),
      serverOr(t('anomalies.loadFailed')),
    ),
    loadInto($anomalies, () => api.GET('/api/v1/anomalies', { params: { query: query(tenant) } }), serverOr(t('anomalies.loadFailed'))),
  ]).then(() => undefined);
}

export async function saveAnomalySettings(tenant: string | null, body: { latency: AnomalyLevel; divergence: AnomalyLevel }): Promise<void> {
  try {
    const r = await api.PUT('/api/v1/anomaly-settings', { params: { query: query(tenant) }, body });
    if (r.error !== undefined) {
      $anomaliesAlert.set({ ok: false, text: errorText(r.error, t('anomalies.saveFailed')) });
      return;
    }
    $anomalySettings.set({ status: 'ready', data: r.data });
  } catch (e) {
    $anomaliesAlert.set({ ok: false, text: errorText(e, t('anomalies.saveFailed')) });
    return;
  }
  $anomaliesAlert.set({ ok: true, text: t('anomalies.saved') });
}
