// Dashboard cards (spec section 2): each card is a Load<> atom filled by its own call, so one
// failing call shows its error panel while the others still show data.
import { atom, type WritableAtom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { loadInto, refreshInto, serverOr, type FailureText } from '../../stores/remote.ts';
import { t } from '../../i18n.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type TenantRed = S['TenantRed'];
export type OwnRed = S['OwnRed'];
export type Incident = S['IncidentSummary'];
export type MonitorSummary = S['MonitorSummary'];
export type Trace = S['TraceSummary'];

export const RANGE = '24h';
export const TOP_TENANTS = 5;
export const RECENT_INCIDENTS = 10;
export const ERROR_TRACES = 10;

export const $topTenants = atom<Load<TenantRed[]>>({ status: 'loading' });
export const $incidents = atom<Load<Incident[]>>({ status: 'loading' });
export const $monitorSummary = atom<Load<MonitorSummary>>({ status: 'loading' });
export const $ownRed = atom<Load<OwnRed>>({ status: 'loading' });
export const $errorTraces = atom<Load<Trace[]>>({ status: 'loading' });

const failed: FailureText = (error) => errorText(error, t('dashboard.store.failedToLoadData'));

// The super admin switches between the global view and tenants: only the latest dashboard's
// answers reach the cards, so a slow answer for the previous choice never overwrites them.
let generation = 0;
function loadLatest<T>(store: WritableAtom<Load<T>>, call: Parameters<typeof loadInto<T>>[1]): void {
  const mine = generation;
  const answer = atom<Load<T>>({ status: 'loading' });
  answer.listen((value) => {
    if (mine === generation) store.set(value);
  });
  store.set({ status: 'loading' });
  void loadInto(answer, call, failed);
}

/** The global dashboard: always across all tenants (the spec's calls carry no tenant here). */
export function loadSuperAdminDashboard(): void {
  generation++;
  loadLatest($topTenants, async () => {
    const r = await api.GET('/api/v1/api-intelligence/metrics/red', { params: { query: { range: RANGE, top: TOP_TENANTS } } });
    return { data: r.data === undefined ? undefined : Array.isArray(r.data) ? r.data : [], error: r.error };
  });
  loadLatest($incidents, () => api.GET('/api/v1/incidents/recent', { params: { query: { limit: RECENT_INCIDENTS } } }));
  loadLatest($monitorSummary, () => api.GET('/api/v1/monitors/summary'));
}

export function loadCustomerDashboard(tenant: string | null): void {
  generation++;
  const chosen = tenant ?? undefined;
  loadLatest($ownRed, async () => {
    const r = await api.GET('/api/v1/api-intelligence/metrics/red', { params: { query: { range: RANGE, tenant: chosen } } });
    return {
      data: r.data === undefined || Array.isArray(r.data) ? undefined : r.data,
      error: r.data && Array.isArray(r.data) ? { detail: t('dashboard.store.failedToLoadData') } : r.error,
    };
  });
  loadLatest($monitorSummary, () => api.GET('/api/v1/monitors/summary', { params: { query: { tenant: chosen } } }));
  loadLatest($errorTraces, () =>
    api.GET('/api/v1/traces/search', { params: { query: { error: true, limit: ERROR_TRACES, tenant: chosen } } }),
  );
}

/** Live updates: the monitor tiles (a monitor changed state) and the recent incidents, quietly. */
export function refreshMonitorSummary(tenant: string | null): Promise<void> {
  const mine = generation;
  return refreshInto(
    $monitorSummary,
    () => api.GET('/api/v1/monitors/summary', { params: { query: { tenant: tenant ?? undefined } } }),
    () => mine === generation,
  );
}
export function refreshRecentIncidents(): Promise<void> {
  const mine = generation;
  return refreshInto(
    $incidents,
    () => api.GET('/api/v1/incidents/recent', { params: { query: { limit: RECENT_INCIDENTS } } }),
    () => mine === generation,
  );
}
