// SQL for maintenance windows (null monitor_id = every monitor of the company). Whether a
// recurring window runs at a given time is lib/maintenance.ts's rule: SQL narrows, it decides.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { isActiveAt } from '../../../lib/maintenance.ts';
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
      const at = opts.activeOrFutureAt;
      if (at !== undefined)
        q = q.where('cancelled_at', 'is', null).where((eb) => eb.or([eb('ends_at', '>', at), eb('recurrence', 'is not', null)]));
      return q.orderBy('starts_at', 'desc').orderBy('id').limit(opts.limit).execute();
    },
    findById(id: string, companyId: string | null): Promise<MaintenanceRow | undefined> {
      let q = k.selectFrom('maintenance_windows').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    async update(id: string, companyId: string, patch: Updateable<MaintenanceWindowsTable>): Promise<void> {
      await k.updateTable('maintenance_windows').set(patch).where('id', '=', id).where('company_id', '=', companyId).execute();
    },
    async delete(id: string, companyId: string): Promise<number> {
      const r = await k.deleteFrom('maintenance_windows').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Every company's windows that may start or end within (from, to]: the maintenance notices' scan. */
    touching(from: number, to: number): Promise<MaintenanceRow[]> {
      return k
        .selectFrom('maintenance_windows')
        .selectAll()
        .where('starts_at', '<=', to)
        .where((eb) => eb.or([eb('ends_at', '>', from), eb('recurrence', 'is not', null)]))
        .where((eb) => eb.or([eb('cancelled_at', 'is', null), eb('cancelled_at', '>', from)]))
        .orderBy('starts_at')
        .orderBy('id')
        .execute();
    },
    /** Windows active at `at` for these companies: the engine's maintenance test. */
    async activeAt(companyIds: string[], at: number): Promise<MaintenanceRow[]> {
      if (companyIds.length === 0) return [];
      const rows = await k
        .selectFrom('maintenance_windows')
        .selectAll()
        .where('company_id', 'in', companyIds)
        .where('cancelled_at', 'is', null)
        .where('starts_at', '<=', at)
        .where((eb) => eb.or([eb('ends_at', '>', at), eb('recurrence', 'is not', null)]))
        .execute();
      return rows.filter((w) => isActiveAt(w, at));
    },
  };
}
