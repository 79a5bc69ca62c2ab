// The engine's side of company secrets (issue 29): a check's `env.secrets`, bound to the monitor's
// company, opens only the secrets its steps name, just before the check. A value that does not
// open with this server's key (the key changed) is left out: the step then fails "secret X is not
// defined" rather than sending a sealed text to the target.
import { companySecretsRepo } from '../db/repositories/company-secrets-repo.ts';
import type { DbScope } from '../db/scope.ts';
import { open, type SecretsKey } from './kinds/secret-box.ts';

export function companySecrets(db: DbScope, key: SecretsKey | null, companyId: string | null) {
  return async (names: readonly string[]): Promise<Record<string, string>> => {
    if (!companyId || !key || names.length === 0) return {};
    const out: Record<string, string> = {};
    for (const row of await companySecretsRepo(db).sealed(companyId, names)) {
      const plain = open(key, row.value);
      if (plain !== null) out[row.name] = plain;
    }
    return out;
  };
}
