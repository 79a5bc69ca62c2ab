// SQL for maintenance windows (null monitor_id = every monitor of the company).
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { MaintenanceWindowsTable } from '../schema/monitoring.ts';

export type MaintenanceRow = Selectable<MaintenanceWindowsTable>;

export function maintenanceRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<MaintenanceWindowsTable>): Promise<void> {
      await k.insertInto('maintenance_windows').values(row).execute();
    },
    list(companyId: string | null, opts: { activeOrFutureAt?: number; limit: number }): Promise<MaintenanceRow[]> {
      let q = k.selectFrom('maintenance_windows').selectAll();
      if (companyId) q = q.where('company_id', '=', companyId);
      if (opts.activeOrFutureAt !== undefined) q = q.where('ends_at', '>', opts.activeOrFutureAt);
      return q.orderBy('starts_at', 'desc').orderBy('id').limit(opts.limit).execute();
    },
    findById(id: string, companyId: string | null): Promise<MaintenanceRow | undefined> {
      let q = k.selectFrom('maintenance_windows').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    async delete(id: string, companyId: string): Promise<number> {
      const r = await k.deleteFrom('maintenance_windows').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Windows active at `at` for these companies: the engine's maintenance test. */
    activeAt(companyIds: string[], at: number): Promise<MaintenanceRow[]> {
      if (companyIds.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('maintenance_windows')
        .selectAll()
        .where('company_id', 'in', companyIds)
        .where('starts_at', '<=', at)
        .where('ends_at', '>', at)
        .execute();
    },
  };
}
