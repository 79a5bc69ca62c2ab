// SQL for each company's single sign-on configuration (migration 0010) and the sign-ins that are
// out at the identity provider. Every read names its company, except the e-mail-domain lookup of
// the main host's "Sign in with SSO", which answers the company that configured the domain.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { CompanySsoTable, SsoRequestsTable } from '../schema/sso.ts';

export type CompanySsoRow = Selectable<CompanySsoTable>;
export type SsoRequestRow = Selectable<SsoRequestsTable>;

export function companySsoRepo(db: DbScope) {
  const k = db.k;
  return {
    get(companyId: string): Promise<CompanySsoRow | undefined> {
      return k.selectFrom('company_sso').selectAll().where('company_id', '=', companyId).executeTakeFirst();
    },
    /** Configurations whose domains mention `domain` (JSON text; the caller checks the parsed list). */
    withDomain(domain: string): Promise<CompanySsoRow[]> {
      return k
        .selectFrom('company_sso')
        .selectAll()
        .where('domains', 'like', `%"${domain.replace(/[%_"\\]/g, '')}"%`)
        .orderBy('company_id')
        .execute();
    },
    async put(row: Insertable<CompanySsoTable>): Promise<void> {
      const { company_id, created_at, ...rest } = row;
      const r = await k.updateTable('company_sso').set(rest).where('company_id', '=', company_id).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) await k.insertInto('company_sso').values(row).execute();
    },
    async remove(companyId: string): Promise<boolean> {
      const r = await k.deleteFrom('company_sso').where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
  };
}

export function ssoRequestsRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<SsoRequestsTable>): Promise<void> {
      await k.insertInto('sso_requests').values(row).execute();
    },
    findByStateHash(stateHash: string): Promise<SsoRequestRow | undefined> {
      return k.selectFrom('sso_requests').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
    },
    /** Marks it used; 0 when another callback used it first (a replay). */
    async consume(id: string, now: number): Promise<number> {
      const r = await k
        .updateTable('sso_requests')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async purge(before: number): Promise<void> {
      await k.deleteFrom('sso_requests').where('expires_at', '<', before).execute();
    },
  };
}
