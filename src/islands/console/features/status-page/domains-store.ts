// The status page's custom domains: the list, Add, Verify now and Remove. Each change answers
// the domain as the server left it, which replaces its row on screen.
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';
import { t } from '../../i18n.ts';

export type CustomDomain = components['schemas']['CustomDomain'];

export const $domains = atom<Load<CustomDomain[]>>({ status: 'loading' });
export const $domainAlert = atom<Alert | null>(null);
/** The domain a call is running for ('new' while adding) */
export const $domainBusy = atom<string | null>(null);

const query = (tenant: string | null) => ({ query: { tenant: tenant ?? undefined } });

export function loadDomains(tenant: string | null): Promise<void> {
  return loadInto(
    $domains,
    async () => {
      const r = await api.GET('/api/v1/custom-domains', { params: query(tenant) });
      return { ...r, data: r.data?.items };
    },
    serverOr(t('statusPage.store.domainsLoadFailed')),
  );
}

function replace(d: CustomDomain): void {
  const now = $domains.get();
  const list = now.status === 'ready' ? now.data : [];
  const at = list.findIndex((x) => x.id === d.id);
  $domains.set({ status: 'ready', data: at === -1 ? [...list, d] : list.map((x) => (x.id === d.id ? d : x)) });
}

async function run(busy: string, failed: string, call: () => Promise<string | null>): Promise<string | null> {
  $domainBusy.set(busy);
  $domainAlert.set(null);
  try {
    return await call();
  } catch (e) {
    return errorText(e, failed);
  } finally {
    $domainBusy.set(null);
  }
}

/** Adds a domain; answers the problem to show beside the field, or null. */
export function addDomain(tenant: string | null, domain: string): Promise<string | null> {
  return run('new', t('statusPage.store.domainAddFailed'), async () => {
    const { data, error } = await api.POST('/api/v1/custom-domains', { params: query(tenant), body: { domain } });
    if (!data) return errorText(error, t('statusPage.store.domainAddFailed'));
    replace(data);
    $domainAlert.set({ ok: true, text: t('statusPage.store.domainAdded', { domain: data.domain }) });
    return null;
  });
}

export async function verifyDomain(tenant: string | null, d: CustomDomain): Promise<void> {
  const problem = await run(d.id, t('statusPage.store.domainVerifyFailed'), async () => {
    const { data, error } = await api.POST('/api/v1/custom-domains/{id}/verify', { params: { ...query(tenant), path: { id: d.id } } });
    if (!data) return errorText(error, t('statusPage.store.domainVerifyFailed'));
    replace(data);
    $domainAlert.set(
      data.state === 'verified'
        ? { ok: true, text: t('statusPage.store.domainVerified', { domain: data.domain }) }
        : {
            ok: false,
            text: t('statusPage.store.domainNotVerified', {
              domain: data.domain,
              reason: data.last_error ?? t('statusPage.store.domainRecordsWrong'),
            }),
          },
    );
    return null;
  });
  if (problem) $domainAlert.set({ ok: false, text: problem });
}

export async function removeDomain(tenant: string | null, d: CustomDomain): Promise<void> {
  const problem = await run(d.id, t('statusPage.store.domainRemoveFailed'), async () => {
    const { error, response } = await api.DELETE('/api/v1/custom-domains/{id}', { params: { ...query(tenant), path: { id: d.id } } });
    if (!response.ok) return errorText(error, t('statusPage.store.domainRemoveFailed'));
    const now = $domains.get();
    if (now.status === 'ready') $domains.set({ status: 'ready', data: now.data.filter((x) => x.id !== d.id) });
    $domainAlert.set({ ok: true, text: t('statusPage.store.domainRemoved', { domain: d.domain }) });
    return null;
  });
  if (problem) $domainAlert.set({ ok: false, text: problem });
}
