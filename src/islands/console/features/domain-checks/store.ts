// Domains and DNS (/domain-checks): the company's domains with their latest check, the admin's
// DKIM selectors and watched names, and a check on demand.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { changeThenReload, inAlert, loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type DomainCheck = S['DomainCheck'];
export type DomainResult = S['DomainResult'];
export type DomainFinding = S['DomainFinding'];

export const $domains = atom<Load<DomainCheck[]>>({ status: 'loading' });
export const $domainsAlert = atom<Alert | null>(null);

export async function loadDomains(tenant: string | null): Promise<void> {
  const list = atom<Load<S['DomainCheckList']>>({ status: 'loading' });
  await loadInto(
    list,
    () => api.GET('/api/v1/security/domains', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('domainChecks.store.loadFailed')),
  );
  const got = list.get();
  $domains.set(got.status === 'ready' ? { status: 'ready', data: got.data.domains } : got);
}

export function checkNow(d: DomainCheck, tenant: string | null): Promise<boolean> {
  return changeThenReload(
    () => api.POST('/api/v1/security/domains/{id}/check', { params: { path: { id: d.id } } }),
    inAlert(
      $domainsAlert,
      t('domainChecks.store.checked', { host: d.hostname }),
      t('domainChecks.store.checkFailed', { host: d.hostname }),
    ),
    () => loadDomains(tenant),
  );
}

export function saveSettings(d: DomainCheck, selectors: string[], names: string[], tenant: string | null): Promise<boolean> {
  return changeThenReload(
    () =>
      api.PUT('/api/v1/security/domains/{id}/settings', {
        params: { path: { id: d.id } },
        body: { dkim_selectors: selectors, watched_names: names },
      }),
    inAlert($domainsAlert, t('domainChecks.store.saved', { host: d.hostname }), t('domainChecks.store.saveFailed', { host: d.hostname })),
    () => loadDomains(tenant),
  );
}

/** A list typed one per line or separated by commas or spaces */
export const splitList = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Whole days from now until `iso` (negative once passed) */
export const daysUntil = (iso: string, now = Date.now()): number => Math.floor((Date.parse(iso) - now) / 86_400_000);
