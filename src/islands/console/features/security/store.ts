// /security: the company's assets (with the proof each needs and the latest results of every
// analysis) and the findings across analyses. Company admins register and verify assets and
// accept or reopen findings; viewers read; super admins see every company or the chosen one.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { assetHostname } from '../../../../lib/security-assets.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type Asset = S['Asset'];
export type AssetList = S['AssetList'];
export type Finding = S['Finding'];
export type FindingList = S['FindingList'];
export type FindingSeverity = S['FindingSeverity'];
export type FindingStatus = S['FindingStatus'];
export type FindingSource = S['FindingSource'];
export type AssetKind = S['AssetKind'];

export interface FindingFilters {
  severity: FindingSeverity | '';
  status: FindingStatus | '';
  source: FindingSource | '';
}

export const $assets = atom<Load<AssetList>>({ status: 'loading' });
export const $findings = atom<Load<FindingList>>({ status: 'loading' });
export const $securityAlert = atom<Alert | null>(null);

export type Outcome<T = unknown> = { ok: true; data: T } | { ok: false; text: string; fields: Record<string, string> };

function failure(error: unknown, failed: string): { ok: false; text: string; fields: Record<string, string> } {
  const fields = (error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
  return { ok: false, text: errorText(error, failed), fields };
}

export function loadAssets(tenant: string | null): Promise<void> {
  return loadInto(
    $assets,
    () => api.GET('/api/v1/security/assets', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('security.store.loadAssetsFailed')),
  );
}

export function loadFindings(tenant: string | null, f: FindingFilters): Promise<void> {
  return loadInto(
    $findings,
    () =>
      api.GET('/api/v1/security/findings', {
        params: {
          query: {
            tenant: tenant ?? undefined,
            severity: f.severity || undefined,
            status: f.status || undefined,
            source: f.source || undefined,
          },
        },
      }),
    serverOr(t('security.store.loadFindingsFailed')),
  );
}

/** The form's own checks, before anything is sent (the server checks again). */
export function validateAsset(hostname: string): Record<string, string> {
  const r = assetHostname(hostname);
  return 'error' in r ? { hostname: r.error } : {};
}

export async function createAsset(hostname: string, kind: AssetKind, tenant: string | null): Promise<Outcome<Asset>> {
  const { data, error } = await api.POST('/api/v1/security/assets', {
    body: { hostname: hostname.trim(), kind, ...(tenant ? { company_id: tenant } : {}) },
  });
  if (!data) return failure(error, t('security.store.addFailed'));
  $securityAlert.set({
    ok: true,
    text: data.verified ? t('security.store.addedCovered', { host: data.hostname }) : t('security.store.added', { host: data.hostname }),
  });
  await loadAssets(tenant);
  return { ok: true, data };
}

export async function verifyAsset(a: Asset, tenant: string | null): Promise<void> {
  const { data, error } = await api.POST('/api/v1/security/assets/{id}/verify', { params: { path: { id: a.id } } });
  if (!data) $securityAlert.set({ ok: false, text: errorText(error, t('security.store.verifyFailed', { host: a.hostname })) });
  else if (data.verified) $securityAlert.set({ ok: true, text: t('security.store.verified', { host: data.hostname }) });
  else
    $securityAlert.set({
      ok: false,
      text: t('security.store.notVerified', { host: data.hostname, error: data.last_verification_error ?? '' }).trim(),
    });
  await loadAssets(tenant);
}

export async function removeAsset(a: Asset, tenant: string | null, f: FindingFilters): Promise<void> {
  const { error, response } = await api.DELETE('/api/v1/security/assets/{id}', { params: { path: { id: a.id } } });
  $securityAlert.set(
    response?.ok
      ? { ok: true, text: t('security.store.removed', { host: a.hostname }) }
      : { ok: false, text: errorText(error, t('security.store.removeFailed', { host: a.hostname })) },
  );
  await Promise.all([loadAssets(tenant), loadFindings(tenant, f)]);
}

/** Accept a finding's risk (with a reason) or reopen it; the overview's counts follow. */
export async function setFindingStatus(
  finding: Finding,
  status: 'open' | 'accepted',
  reason: string | null,
  tenant: string | null,
  f: FindingFilters,
): Promise<Outcome<Finding>> {
  const { data, error } = await api.PATCH('/api/v1/security/findings/{id}', {
    params: { path: { id: finding.id } },
    body: { status, reason },
  });
  if (!data) return failure(error, t('security.store.changeFailed'));
  $securityAlert.set({
    ok: true,
    text: status === 'accepted' ? t('security.store.accepted', { title: data.title }) : t('security.store.reopened', { title: data.title }),
  });
  await Promise.all([loadAssets(tenant), loadFindings(tenant, f)]);
  return { ok: true, data };
}
