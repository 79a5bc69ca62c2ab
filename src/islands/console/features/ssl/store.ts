// SSL/TLS monitoring (/ssl-monitoring): the company's TLS targets with their latest analysis,
// one target, and "analyse now" (company admins and super admins).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { t } from '../../i18n.ts';
import { changeThenReload, inAlert, loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

type S = components['schemas'];
export type SslTarget = S['SslTarget'];
export type SslProblem = S['SslProblem'];
export type SslTargetList = S['SslTargetList'];

export const $sslTargets = atom<Load<SslTargetList>>({ status: 'loading' });
export const $sslTarget = atom<Load<SslTarget>>({ status: 'loading' });
export const $sslAlert = atom<Alert | null>(null);

export function loadSslTargets(tenant: string | null): Promise<void> {
  return loadInto(
    $sslTargets,
    () => api.GET('/api/v1/security/ssl', { params: { query: { tenant: tenant ?? undefined } } }),
    serverOr(t('ssl.store.loadListFailed')),
  );
}

export function loadSslTarget(id: string): Promise<void> {
  return loadInto(
    $sslTarget,
    () => api.GET('/api/v1/security/ssl/{id}', { params: { path: { id } } }),
    serverOr(t('ssl.store.loadFailed')),
  );
}

/** Analyses a target now, then reloads what the screen shows (the list, or the one target). */
export function checkSslNow(id: string, reload: () => Promise<void>): Promise<boolean> {
  $sslAlert.set(null);
  return changeThenReload(
    () => api.POST('/api/v1/security/ssl/{id}/check', { params: { path: { id } } }),
    inAlert($sslAlert, t('ssl.store.analysed'), t('ssl.store.analyseFailed')),
    reload,
  );
}

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** "2 high, 1 low" for a target's problems; "None" without. */
export function problemSummary(problems: SslProblem[]): string {
  if (problems.length === 0) return t('ssl.none');
  return SEVERITIES.map((s) => [s, problems.filter((p) => p.severity === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => t('ssl.problemCount', { count: n, severity: t(`ssl.severity.${s}`) }))
    .join(', ');
}

/** "TLS 1.2, TLS 1.3" */
export const protocolText = (protocols: string[]): string =>
  protocols.length ? protocols.map((p) => (p === 'TLSv1' ? 'TLS 1.0' : p.replace('TLSv', 'TLS '))).join(', ') : t('ssl.none');

/** "EC 256", "RSA 2048" */
export const keyText = (t: SslTarget): string =>
  t.analysis?.key_type ? `${t.analysis.key_type} ${t.analysis.key_bits ?? ''}`.trim() : '—';

/** The issuer's common name (or organisation) from "O=…, CN=…" */
export function issuerName(issuer: string | null | undefined): string {
  if (!issuer) return '—';
  const part = (k: string) =>
    issuer
      .split(', ')
      .find((p) => p.startsWith(`${k}=`))
      ?.slice(k.length + 1);
  return part('CN') ?? part('O') ?? issuer;
}
