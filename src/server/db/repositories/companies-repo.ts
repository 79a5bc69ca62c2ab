// SQL for companies (tenants).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../connect.ts';
import type { CompaniesTable } from '../schema/identity.ts';

export type CompanyRow = Selectable<CompaniesTable>;

export function companiesRepo(db: Db) {
  const k = db.k;
  return {
    async count(): Promise<number> {
      const r = await k.selectFrom('companies').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    findById(id: string): Promise<CompanyRow | undefined> {
      return k.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findBySubdomain(subdomain: string): Promise<CompanyRow | undefined> {
      return k.selectFrom('companies').selectAll().where('subdomain', '=', subdomain.toLowerCase()).executeTakeFirst();
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
