// The company's secrets (issue 29): their names, dates and the monitors whose steps use them
// (GET /api/v1/secrets, any member); a company admin sets (PUT, create or replace) and deletes them
// (DELETE; refused with 409 while a monitor uses one, the server's sentence names the monitors).
// Values go to the server only: never kept here after the call, never read back.
import { atom } from 'nanostores';
import { api, errorText } from '../../api.ts';
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
    loadInto(
      $secrets,
      () => api.GET('/api/v1/secrets', { params: { query: companyQuery(tenant) } }),
      serverOr('Failed to load the secrets.'),
    ),
    api
      .GET('/api/v1/monitors', { params: { query: { ...(tenant ? { tenant } : {}), limit: 200, sort: 'name' } } })
      .then(({ data }) => data && $monitorNames.set(Object.fromEntries(data.map((m) => [m.id, m.name]))))
      .catch(() => undefined),
  ]);
}

/** A name problem in words, or null when the server will take it. */
export function nameProblem(name: string): string | null {
  if (!name) return 'Name is required.';
  if (!SECRET_NAME.test(name)) return 'Upper-case letters, digits and underscores, starting with a letter (e.g. SHOP_PASSWORD).';
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
      return { ok: false, text: errorText(r.error, 'The secret could not be saved.'), fields };
    }
  } catch (e) {
    return { ok: false, text: errorText(e, 'The secret could not be saved.'), fields: {} };
  }
  $secretsAlert.set({ ok: true, text: replacing ? `Secret ${name} replaced.` : `Secret ${name} added.` });
  await loadSecrets(tenant);
  return { ok: true };
}

/** Delete; the server's refusal (409: the monitors that use it) is shown as it says it. */
export async function deleteSecret(tenant: string | null, name: string): Promise<void> {
  try {
    const r = await api.DELETE('/api/v1/secrets/{name}', { params: { path: { name }, query: companyQuery(tenant) } });
    if (r.error !== undefined) {
      $secretsAlert.set({ ok: false, text: errorText(r.error, `Secret ${name} could not be deleted.`) });
      return;
    }
  } catch (e) {
    $secretsAlert.set({ ok: false, text: errorText(e, `Secret ${name} could not be deleted.`) });
    return;
  }
  $secretsAlert.set({ ok: true, text: `Secret ${name} deleted.` });
  await loadSecrets(tenant);
}
