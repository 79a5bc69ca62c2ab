// Incoming alert sources (the "Incoming alerts" section of /settings/alerts): company admins
// list, create, rotate the token of and delete the sources that let Alertmanager, Grafana or a
// script open incidents here. A token is in the answer of create and rotate only.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type IncomingSource = S['IncomingSource'];
export type IncomingKind = S['IncomingKind'];
export type SourceWithToken = S['IncomingSourceWithToken'];

export const INCOMING_KIND_LABEL: Record<IncomingKind, string> = {
  alertmanager: 'Prometheus Alertmanager',
  grafana: 'Grafana alerting',
  get generic() {
    return t('alerts.incoming.generic');
  },
};

export const $sources = atom<Load<IncomingSource[]>>({ status: 'loading' });
export const $sourcesAlert = atom<Alert | null>(null);

export function loadSources(tenant: string | null): Promise<void> {
  return loadInto(
    $sources,
    () => api.GET('/api/v1/incoming-sources', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('alerts.incoming.loadFailed')),
  );
}

export interface SourceForm {
  name: string;
  kind: IncomingKind;
  componentIds: string[];
  impact: 'minor' | 'major' | 'critical';
}

export type Created = { ok: true; source: SourceWithToken } | { ok: false; text: string; fields: Record<string, string> };

export async function createSource(f: SourceForm, tenant: string | null): Promise<Created> {
  const { data, error } = await api.POST('/api/v1/incoming-sources', {
    body: {
      name: f.name.trim(),
      kind: f.kind,
      component_ids: f.componentIds,
      component_impact: f.impact,
      ...(tenant ? { company_id: tenant } : {}),
    },
  });
  if (!data) {
    const fields = ((error as { errors?: Record<string, string> } | undefined)?.errors ?? {}) as Record<string, string>;
    return { ok: false, text: errorText(error, t('alerts.incoming.createFailed')), fields };
  }
  await loadSources(tenant);
  return { ok: true, source: data };
}

export async function rotateToken(s: IncomingSource, tenant: string | null): Promise<SourceWithToken | null> {
  const { data, error } = await api.POST('/api/v1/incoming-sources/{id}/token', { params: { path: { id: s.id } } });
  if (!data) {
    $sourcesAlert.set({ ok: false, text: errorText(error, t('alerts.incoming.rotateFailed')) });
    return null;
  }
  await loadSources(tenant);
  return data;
}

export async function deleteSource(s: IncomingSource, tenant: string | null): Promise<void> {
  const { data, error } = await api.DELETE('/api/v1/incoming-sources/{id}', { params: { path: { id: s.id } } });
  if (!data) return $sourcesAlert.set({ ok: false, text: errorText(error, t('alerts.incoming.deleteFailed')) });
  $sourcesAlert.set({ ok: true, text: t('alerts.incoming.deleted', { name: s.name }) });
  await loadSources(tenant);
}
