// SQL for users. Every query a tenant can reach takes the company filter from its caller.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { UsersTable } from '../schema/identity.ts';

export type UserRow = Selectable<UsersTable>;

export function usersRepo(db: DbScope) {
  const k = db.k;
  return {
    async count(): Promise<number> {
      const r = await k
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async countSuperAdmins(): Promise<number> {
      const r = await k
        .selectFrom('users')
        .where('user_type', '=', 1)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /**
     * Inside a transaction: locks the active super admins (PostgreSQL; SQLite has one writer)
     * so two concurrent demotions cannot remove the last one. Returns how many there are.
     */
    /**
     * Inside a transaction: keeps other writers of users out until it ends, so "no user yet"
     * stays true until the first one is inserted (PostgreSQL; SQLite has one writer anyway).
     */
    async lockForFirstUser(): Promise<void> {
      if (db.kind === 'postgres') await sql`lock table users in share row exclusive mode`.execute(k);
    },
    async lockActiveSuperAdmins(): Promise<number> {
      let q = k.selectFrom('users').select('id').where('user_type', '=', 1).where('is_active', '=', true).orderBy('id');
      if (db.kind === 'postgres') q = q.forUpdate();
      return (await q.execute()).length;
    },
    async countActiveSuperAdmins(): Promise<number> {
      const r = await k
        .selectFrom('users')
        .where('user_type', '=', 1)
        .where('is_active', '=', true)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Users with their company's name (null when they have none or it is gone). */
    listWithCompanyName(
      filter: { companyId: string | null } = { companyId: null },
    ): Promise<Array<UserRow & { company_name: string | null }>> {
      let q = k.selectFrom('users as u').leftJoin('companies as c', 'c.id', 'u.company_id').selectAll('u').select('c.name as company_name');
      if (filter.companyId) q = q.where('u.company_id', '=', filter.companyId);
      return q.orderBy('u.created_at', 'desc').orderBy('u.id').execute();
    },
    /** Not an edit of the account: updated_at stays as it is. */
    async recordLogin(id: string, now: number): Promise<void> {
      await k.updateTable('users').set({ last_login_at: now }).where('id', '=', id).execute();
    },
    async countByCompany(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('users')
        .where('company_id', '=', companyId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    findById(id: string): Promise<UserRow | undefined> {
      return k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findByEmail(email: string): Promise<UserRow | undefined> {
      return k.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    },
    list(filter: { companyId?: string } = {}): Promise<UserRow[]> {
      let q = k.selectFrom('users').selectAll().orderBy('created_at', 'desc').orderBy('id');
      if (filter.companyId) q = q.where('company_id', '=', filter.companyId);
      return q.execute();
    },
    async insert(row: Insertable<UsersTable>): Promise<void> {
      await k
        .insertInto('users')
        .values({ ...row, email: row.email.toLowerCase() })
        .execute();
    },
    async update(id: string, patch: Updateable<UsersTable>): Promise<number> {
      const values = patch.email ? { ...patch, email: patch.email.toLowerCase() } : patch;
      const r = await k.updateTable('users').set(values).where('id', '=', id).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async delete(id: string): Promise<number> {
      const r = await k.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Ends every session of a user: access tokens carry the version they were issued with. */
    async bumpSessionVersion(id: string, now: number): Promise<void> {
      await k
        .updateTable('users')
        .set({ session_version: sql<number>`session_version + 1`, updated_at: now })
        .where('id', '=', id)
        .execute();
    },
    async bumpCompanySessions(companyId: string, now: number): Promise<void> {
      await k
        .updateTable('users')
        .set({ session_version: sql<number>`session_version + 1`, updated_at: now })
        .where('company_id', '=', companyId)
        .execute();
    },
  };
}
