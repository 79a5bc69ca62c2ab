// SQL for companies (tenants).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { CompaniesTable } from '../schema/identity.ts';

export type CompanyRow = Selectable<CompaniesTable>;

export function companiesRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Platform-wide counts for the diagnostic summary. */
    async platformCounts(): Promise<{ companies: number; users: number; monitors: number; open_incidents: number }> {
      const n = (eb: any, table: 'companies' | 'users' | 'monitors') => eb.selectFrom(table).select(eb.fn.countAll().as('n'));
      const r = await k
        .selectNoFrom((eb) => [
          n(eb, 'companies').as('companies'),
          n(eb, 'users').as('users'),
          n(eb, 'monitors').as('monitors'),
          eb.selectFrom('incidents').select(eb.fn.countAll().as('n')).where('resolved_at', 'is', null).as('open_incidents'),
        ])
        .executeTakeFirstOrThrow();
      const row = r as Record<string, unknown>;
      return {
        companies: Number(row.companies),
        users: Number(row.users),
        monitors: Number(row.monitors),
        open_incidents: Number(row.open_incidents),
      };
    },
    async count(): Promise<number> {
      const r = await k
        .selectFrom('companies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    findById(id: string): Promise<CompanyRow | undefined> {
      return k.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findBySubdomain(subdomain: string): Promise<CompanyRow | undefined> {
      return k.selectFrom('companies').selectAll().where('subdomain', '=', subdomain.toLowerCase()).executeTakeFirst();
    },
    /** Inside a transaction: locks a company row (PostgreSQL) so its user count stays put. */
    lockById(id: string): Promise<CompanyRow | undefined> {
      let q = k.selectFrom('companies').selectAll().where('id', '=', id);
      if (db.kind === 'postgres') q = q.forUpdate();
      return q.executeTakeFirst();
    },
    findBySlug(slug: string): Promise<CompanyRow | undefined> {
      return k.selectFrom('companies').selectAll().where('slug', '=', slug.toLowerCase()).executeTakeFirst();
    },
    /** Every company with how many users it has. */
    async listWithUserCounts(): Promise<Array<CompanyRow & { user_count: number }>> {
      const rows = await k
        .selectFrom('companies as c')
        .selectAll('c')
        .select((eb) =>
          eb
            .selectFrom('users as u')
            .select((e2) => e2.fn.countAll<number>().as('n'))
            .whereRef('u.company_id', '=', 'c.id')
            .as('user_count'),
        )
        .orderBy('c.created_at', 'desc')
        .orderBy('c.id')
        .execute();
      return rows.map((r) => ({ ...r, user_count: Number(r.user_count ?? 0) }));
    },
    list(): Promise<CompanyRow[]> {
      return k.selectFrom('companies').selectAll().orderBy('created_at', 'desc').orderBy('id').execute();
    },
    async insert(row: Insertable<CompaniesTable>): Promise<void> {
      await k.insertInto('companies').values(row).execute();
    },
    async update(id: string, patch: Updateable<CompaniesTable>): Promise<number> {
      const r = await k.updateTable('companies').set(patch).where('id', '=', id).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async delete(id: string): Promise<number> {
      const r = await k.deleteFrom('companies').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
