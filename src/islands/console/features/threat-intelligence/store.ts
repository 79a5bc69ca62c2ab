// The threat-intelligence screen's data: one call answers everything shown (the server records
// the view in the audit log). Only the latest request's answer is kept, so switching tenants
// never shows an earlier company's answer.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type ThreatOverview = components['schemas']['ThreatOverview'];
export type AssetThreat = components['schemas']['AssetThreat'];

export const $threats = atom<Load<ThreatOverview>>({ status: 'loading' });

let generation = 0;

export function loadThreats(tenant: string | null): Promise<void> {
  const mine = ++generation;
  const answer = atom<Load<ThreatOverview>>({ status: 'loading' });
  answer.listen((v) => {
    if (mine === generation) $threats.set(v);
  });
  $threats.set({ status: 'loading' });
  return loadInto(
    answer,
    () => api.GET('/api/v1/security/threats', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('threatIntelligence.loadFailed')),
  );
}
