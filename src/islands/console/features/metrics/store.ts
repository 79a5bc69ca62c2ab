// The metrics screen's state: the chosen range and filters, and the series answered for them.
// Only the latest request's answer is shown, so a slow answer for an earlier choice never
// overwrites a newer one.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import type { MetricRange } from '../../../../lib/metric-buckets.ts';

export type MetricSeries = components['schemas']['MetricSeries'];
export type MetricPoint = components['schemas']['MetricPoint'];

export interface MetricFilter {
  range: MetricRange;
  service: string;
  operation: string;
  /** The super admin's chosen company; null = every company (or a company user's own) */
  tenant: string | null;
}

export const $series = atom<Load<MetricSeries>>({ status: 'loading' });

let generation = 0;

export function loadSeries(f: MetricFilter): Promise<void> {
  const mine = ++generation;
  const answer = atom<Load<MetricSeries>>({ status: 'loading' });
  answer.listen((v) => {
    if (mine === generation) $series.set(v);
  });
  $series.set({ status: 'loading' });
  return loadInto(
    answer,
    () =>
      api.GET('/api/v1/metrics/series', {
        params: {
          query: { range: f.range, service: f.service || undefined, operation: f.operation || undefined, tenant: f.tenant ?? undefined },
        },
      }),
    serverOr(t('metrics.loadFailed')),
  );
}

/** The series as a CSV file the browser saves; the server records the export in the audit log. */
export async function exportCsv(f: MetricFilter): Promise<string | null> {
  const { data, error } = await api.GET('/api/v1/metrics/export', {
    params: {
      query: { range: f.range, service: f.service || undefined, operation: f.operation || undefined, tenant: f.tenant ?? undefined },
    },
    parseAs: 'text',
  });
  if (data === undefined) return serverOr(t('metrics.exportFailed'))(error);
  const url = URL.createObjectURL(new Blob([data], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `metrics-${f.range}.csv`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return null;
}

/** Summed requests and errors of a window's points, with its error rate in percent. */
export function totals(points: MetricPoint[]): { requests: number; errors: number; errorRate: number | null } {
  let requests = 0;
  let errors = 0;
  for (const p of points) {
    requests += p.requests;
    errors += p.errors;
  }
  return { requests, errors, errorRate: requests > 0 ? (errors / requests) * 100 : null };
}
