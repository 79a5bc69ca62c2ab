// SQL for company secrets (migration 0127): one sealed value per company and name. The repository
// never opens a value; the domain and the engine do (engine/kinds/secret-box.ts).
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { CompanySecretsTable } from '../schema/monitoring.ts';

export type CompanySecretRow = Selectable<CompanySecretsTable>;

export function companySecretsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** A company's secrets by name, without their values. */
    list(companyId: string): Promise<Omit<CompanySecretRow, 'value'>[]> {
      return k
        .selectFrom('company_secrets')
        .select(['company_id', 'name', 'created_at', 'updated_at'])
        .where('company_id', '=', companyId)
        .orderBy('name')
        .execute();
    },
    /** The sealed values of the named secrets the company has (others are left out). */
    sealed(companyId: string, names: readonly string[]): Promise<Pick<CompanySecretRow, 'name' | 'value'>[]> {
      if (names.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('company_secrets')
        .select(['name', 'value'])
        .where('company_id', '=', companyId)
        .where('name', 'in', [...names])
        .execute();
    },
    /** Creates or replaces; answers whether it was there before. */
    async put(companyId: string, name: string, sealedValue: string, now: number): Promise<{ created: boolean }> {
      const r = await k
        .updateTable('company_secrets')
        .set({ value: sealedValue, updated_at: now })
        .where('company_id', '=', companyId)
        .where('name', '=', name)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) > 0) return { created: false };
      await k
        .insertInto('company_secrets')
        .values({ company_id: companyId, name, value: sealedValue, created_at: now, updated_at: now })
        .execute();
      return { created: true };
    },
    async remove(companyId: string, name: string): Promise<boolean> {
      const r = await k.deleteFrom('company_secrets').where('company_id', '=', companyId).where('name', '=', name).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** The company's monitors whose config names a secret ({{secrets.…}}): the domain reads which. */
    monitorsNamingSecrets(companyId: string): Promise<{ id: string; config: string }[]> {
      return k
        .selectFrom('monitors')
        .select(['id', 'config'])
        .where('company_id', '=', companyId)
        .where('config', 'like', '%secrets.%')
        .orderBy('id')
        .execute();
    },
    async monitorNames(companyId: string, ids: readonly string[]): Promise<string[]> {
      if (ids.length === 0) return [];
      const rows = await k
        .selectFrom('monitors')
        .select('name')
        .where('company_id', '=', companyId)
        .where('id', 'in', [...ids])
        .orderBy('name')
        .execute();
      return rows.map((r) => r.name);
    },
  };
}
