// The company's secrets (issue 29): their names, dates and the monitors whose steps use them
// (GET /api/v1/secrets, any member); a company admin sets (PUT, create or replace) and deletes them
// (DELETE; refused with 409 while a monitor uses one, the server's sentence names the monitors).
// Values go to the server only: never kept here after the call, never read back.
import { atom } from 'nanostores';
import { api, errorText } from '../../api.ts';
import { loadInto, serverOr, type Alert } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export interface CompanySecret {
  name: string;
  created_at: string;
  updated_at: string;
  /** ids of the monitors whose steps name it */
  used_by: string[];
}

/** The names the server takes (synthetic.yaml): upper case, digits and underscores. */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

export const $secrets = atom<Load<CompanySecret[]>>({ status: 'loading' });
/** The company's monitors by id, to name those that use a secret. */
export const $monitorNames = atom<Record<string, string>>({});
export const $secretsAlert = atom<Alert | null>(null);

// Until the generated client knows /api/v1/secrets (h/flow adds it to the contract), the calls go untyped.
type Call = (path: string, init: unknown) => Promise<{ data?: unknown; error?: unknown; response?: Response }>;
const secretsApi = api as unknown as { GET: Call; PUT: Call; DELETE: Call };

const tenantQuery = (tenant: string | null) => (tenant ? { tenant } : {});

export async function loadSecrets(tenant: string | null): Promise<void> {
  await Promise.all([
    loadInto(
      $secrets,
      () => secretsApi.GET('/api/v1/secrets', { params: { query: tenantQuery(tenant) } }) as Promise<{ data?: CompanySecret[] }>,
      serverOr('Failed to load the secrets.'),
    ),
    api
      .GET('/api/v1/monitors', { params: { query: { ...tenantQuery(tenant), limit: 200, sort: 'name' } } })
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
    const r = await secretsApi.PUT('/api/v1/secrets/{name}', {
      params: { path: { name }, query: tenantQuery(tenant) },
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
    const r = await secretsApi.DELETE('/api/v1/secrets/{name}', { params: { path: { name }, query: tenantQuery(tenant) } });
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
