// SQL for one-time codes (handoff and password reset), stored as SHA-256 hashes.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { AuthCodesTable } from '../schema/identity.ts';

export type AuthCodeRow = Selectable<AuthCodesTable>;

export function authCodesRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<AuthCodesTable>): Promise<void> {
      await k.insertInto('auth_codes').values(row).execute();
    },
    findByHash(kind: AuthCodesTable['kind'], codeHash: string): Promise<AuthCodeRow | undefined> {
      return k.selectFrom('auth_codes').selectAll().where('kind', '=', kind).where('code_hash', '=', codeHash).executeTakeFirst();
    },
    /** Consumes a code once: 0 when it was used already (or concurrently) or has expired. */
    async consume(id: string, now: number): Promise<number> {
      const r = await k
        .updateTable('auth_codes')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async invalidateUser(userId: string, kind: AuthCodesTable['kind'], now: number): Promise<void> {
      await k
        .updateTable('auth_codes')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .execute();
    },
    async invalidateCompany(companyId: string, kind: AuthCodesTable['kind'], now: number): Promise<void> {
      await k
        .updateTable('auth_codes')
        .set({ used_at: now })
        .where('kind', '=', kind)
        .where('used_at', 'is', null)
        .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('company_id', '=', companyId))
        .execute();
    },
    async purge(before: number): Promise<void> {
      await k.deleteFrom('auth_codes').where('expires_at', '<', before).execute();
    },
  };
}
