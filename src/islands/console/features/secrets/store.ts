// The company's secrets (issue 29): their names, dates and the monitors whose steps use them
// (GET /api/v1/secrets, any member); a company admin sets (PUT, create or replace) and deletes them
// (DELETE; refused with 409 while a monitor uses one, the server's sentence names the monitors).
// Values go to the server only: never kept here after the call, never read back.
import { atom } from 'nanostores';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

import type { components } from '../../../../api/schema.d.ts';

export type CompanySecret = components['schemas']['CompanySecret'];

/** The names the server takes (synthetic.yaml): upper case, digits and underscores. */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

export const $secrets = atom<Load<CompanySecret[]>>({ status: 'loading' });
/** The company's monitors by id, to name those that use a secret. */
export const $monitorNames = atom<Record<string, string>>({});
export const $secretsAlert = atom<Alert | null>(null);

/** A super admin names the company (the one chosen in the header); a company's own users never do. */
const companyQuery = (companyId: string | null) => (companyId ? { company_id: companyId } : {});

export async function loadSecrets(tenant: string | null): Promise<void> {
  await Promise.all([
    loadInto($secrets, () => api.GET('/api/v1/secrets', { params: { query: companyQuery(tenant) } }), serverOr(t('secrets.loadFailed'))),
    api
      .GET('/api/v1/monitors', { params: { query: { ...(tenant ? { tenant } : {}), limit: 200, sort: 'name' } } })
      .then(({ data }) => data && $monitorNames.set(Object.fromEntries(data.map((m) => [m.id, m.name]))))
      .catch(() => undefined),
  ]);
}

/** A name problem in words, or null when the server will take it. */
export function nameProblem(name: string): string | null {
  if (!name) return t('secrets.form.nameRequired');
  if (!SECRET_NAME.test(name)) return t('secrets.form.namePattern');
  return null;
}

export type SetOutcome = { ok: true } | { ok: false; text: string; fields: Record<string, string> };

export async function setSecret(tenant: string | null, name: string, value: string, replacing: boolean): Promise<SetOutcome> {
  try {
    const r = await api.PUT('/api/v1/secrets/{name}', {
      params: { path: { name }, query: companyQuery(tenant) },
      body: { value },
    });
    if (r.error !== undefined) {
      const fields = (r.error as { errors?: Record<string, string> }).errors ?? {};
      return { ok: false, text: errorText(r.error, t('secrets.saveFailed')), fields };
    }
  } catch (e) {
    return { ok: false, text: errorText(e, t('secrets.saveFailed')), fields: {} };
  }
  $secretsAlert.set({ ok: true, text: replacing ? t('secrets.replaced', { name }) : t('secrets.added', { name }) });
  await loadSecrets(tenant);
  return { ok: true };
}

/** Delete; the server's refusal (409: the monitors that use it) is shown as it says it. */
export async function deleteSecret(tenant: string | null, name: string): Promise<void> {
  try {
    const r = await api.DELETE('/api/v1/secrets/{name}', { params: { path: { name }, query: companyQuery(tenant) } });
    if (r.error !== undefined) {
      $secretsAlert.set({ ok: false, text: errorText(r.error, t('secrets.deleteFailed', { name })) });
      return;
    }
  } catch (e) {
    $secretsAlert.set({ ok: false, text: errorText(e, t('secrets.deleteFailed', { name })) });
    return;
  }
  $secretsAlert.set({ ok: true, text: t('secrets.deleted', { name }) });
  await loadSecrets(tenant);
}
