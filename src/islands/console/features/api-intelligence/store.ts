// The API intelligence screen's state: the inventory answered for the chosen range (and the
// super admin's chosen company). Only the latest request's answer is shown.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import type { MetricRange } from '../../../../lib/metric-buckets.ts';

export type ApiInventory = components['schemas']['ApiInventory'];
export type Endpoint = components['schemas']['EndpointFigures'];

export const $inventory = atom<Load<ApiInventory>>({ status: 'loading' });

let generation = 0;

export function loadInventory(range: MetricRange, tenant: string | null): Promise<void> {
  const mine = ++generation;
  const answer = atom<Load<ApiInventory>>({ status: 'loading' });
  answer.listen((v) => {
    if (mine === generation) $inventory.set(v);
  });
  $inventory.set({ status: 'loading' });
  return loadInto(
    answer,
    () => api.GET('/api/v1/api-intelligence', { params: { query: { range, tenant: tenant ?? undefined } } }),
    serverOr(t('apiIntelligence.loadFailed')),
  );
}

export type SortKey = 'endpoint' | 'requests' | 'errorRate' | 'p50' | 'p95' | 'p99' | 'p95ChangePct' | 'firstSeen';

/** The endpoints in the table's order; figures sort high to low first, the name A to Z. */
export function sorted(rows: Endpoint[], key: SortKey, order: 'asc' | 'desc'): Endpoint[] {
  const value = (e: Endpoint): number | string =>
    key === 'endpoint' ? `${e.route} ${e.method} ${e.service}` : ((e[key] as number | null) ?? Number.NEGATIVE_INFINITY);
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * sign || b.requests - a.requests;
  });
}
