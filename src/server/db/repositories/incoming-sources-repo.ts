// SQL for incoming-alert sources (migration 0530): a company's senders and their hashed tokens.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { IncomingSourcesTable } from '../schema/incoming.ts';

export type IncomingSourceRow = Selectable<IncomingSourcesTable>;
/** A source found by its token, with whether its company may still send. */
export type IncomingSourceAuthRow = IncomingSourceRow & { company_active: boolean };

export function incomingSourcesRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The company's sources (every company's for null: a super admin without a chosen company). */
    list(companyId: string | null): Promise<IncomingSourceRow[]> {
      let q = k.selectFrom('incoming_sources').selectAll().orderBy('created_at').orderBy('id');
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.execute();
    },
    find(id: string, companyId: string | null): Promise<IncomingSourceRow | undefined> {
      let q = k.selectFrom('incoming_sources').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    count(companyId: string): Promise<number> {
      return k
        .selectFrom('incoming_sources')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
    async findByTokenHash(hash: string): Promise<IncomingSourceAuthRow | undefined> {
      const row = await k
        .selectFrom('incoming_sources as s')
        .innerJoin('companies as c', 'c.id', 's.company_id')
        .selectAll('s')
        .select('c.is_active as company_active')
        .where('s.token_hash', '=', hash)
        .executeTakeFirst();
      return row ? { ...row, company_active: Boolean(row.company_active) } : undefined;
    },
    async insert(row: Insertable<IncomingSourcesTable>): Promise<void> {
      await k.insertInto('incoming_sources').values(row).execute();
    },
    async update(id: string, patch: Updateable<IncomingSourcesTable>): Promise<void> {
      await k.updateTable('incoming_sources').set(patch).where('id', '=', id).execute();
    },
    async delete(id: string): Promise<void> {
      await k.deleteFrom('incoming_sources').where('id', '=', id).execute();
    },
    /** When it last received something: written at most once a second per source is plenty. */
    async touch(id: string, at: number): Promise<void> {
      await k.updateTable('incoming_sources').set({ last_received_at: at }).where('id', '=', id).execute();
    },
  };
}
