// SQL for maintenance windows and the monitors each covers (maintenance_monitors; none = every
// monitor of the company; the first is also monitor_id for older clients). Whether a recurring
// window runs at a given time is lib/maintenance.ts's rule: SQL narrows, it decides.
import type { Insertable, Selectable, Updateable } from 'kysely';
import { isActiveAt } from '../../../lib/maintenance.ts';
import type { DbScope } from '../scope.ts';
import type { MaintenanceWindowsTable } from '../schema/monitoring.ts';

export type MaintenanceRow = Selectable<MaintenanceWindowsTable> & { monitor_ids: string[] };

export function maintenanceRepo(db: DbScope) {
  const k = db.k;
  /** The rows with the monitors each covers. */
  const withMonitors = async (rows: Array<Selectable<MaintenanceWindowsTable>>): Promise<MaintenanceRow[]> => {
    const ids = rows.map((r) => r.id);
    const links = ids.length
      ? await k
          .selectFrom('maintenance_monitors')
          .select(['window_id', 'monitor_id'])
          .where('window_id', 'in', ids)
          .orderBy('monitor_id')
          .execute()
      : [];
    const by = new Map<string, string[]>();
    for (const l of links) by.set(l.window_id, [...(by.get(l.window_id) ?? []), l.monitor_id]);
    // monitor_id counts too: rows written with it alone (older code, seeds) cover that monitor.
    return rows.map((r) => ({ ...r, monitor_ids: [...new Set([...(r.monitor_id ? [r.monitor_id] : []), ...(by.get(r.id) ?? [])])] }));
  };
  return {
    async insert(row: Insertable<MaintenanceWindowsTable>, monitorIds: string[]): Promise<void> {
      await k.insertInto('maintenance_windows').values(row).execute();
      await this.setMonitors(row.id, row.company_id, monitorIds);
    },
    /** Makes these (already tenant-checked) monitors the window's; none: the whole company. */
    async setMonitors(windowId: string, companyId: string, monitorIds: string[]): Promise<void> {
      await k.deleteFrom('maintenance_monitors').where('window_id', '=', windowId).execute();
      if (monitorIds.length)
        await k
          .insertInto('maintenance_monitors')
          .values(monitorIds.map((monitor_id) => ({ window_id: windowId, monitor_id, company_id: companyId })))
          .execute();
    },
    async list(
      companyId: string | null,
      opts: { activeOrFutureAt?: number; monitorId?: string; limit: number },
    ): Promise<MaintenanceRow[]> {
      let q = k.selectFrom('maintenance_windows').selectAll();
      if (companyId) q = q.where('company_id', '=', companyId);
      const at = opts.activeOrFutureAt;
      if (at !== undefined)
        q = q.where('cancelled_at', 'is', null).where((eb) => eb.or([eb('ends_at', '>', at), eb('recurrence', 'is not', null)]));
      const monitorId = opts.monitorId;
      // The monitor's own windows and those of its whole company
      if (monitorId)
        q = q.where((eb) =>
          eb.or([
            eb('maintenance_windows.monitor_id', '=', monitorId),
            eb.exists(
              eb
                .selectFrom('maintenance_monitors as mm')
                .select('mm.monitor_id')
                .whereRef('mm.window_id', '=', 'maintenance_windows.id')
                .where('mm.monitor_id', '=', monitorId),
            ),
            eb.and([
              eb('maintenance_windows.monitor_id', 'is', null),
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('maintenance_monitors as mm')
                    .select('mm.monitor_id')
                    .whereRef('mm.window_id', '=', 'maintenance_windows.id'),
                ),
              ),
            ]),
          ]),
        );
      return withMonitors(await q.orderBy('starts_at', 'desc').orderBy('id').limit(opts.limit).execute());
    },
    async findById(id: string, companyId: string | null): Promise<MaintenanceRow | undefined> {
      let q = k.selectFrom('maintenance_windows').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      const row = await q.executeTakeFirst();
      return row ? (await withMonitors([row]))[0] : undefined;
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
        .execute()
        .then(withMonitors);
    },
    /** Windows active at `at` for these companies (null: every company): the engine's maintenance test. */
    async activeAt(companyIds: string[] | null, at: number): Promise<MaintenanceRow[]> {
      if (companyIds?.length === 0) return [];
      let q = k
        .selectFrom('maintenance_windows')
        .selectAll()
        .where('cancelled_at', 'is', null)
        .where('starts_at', '<=', at)
        .where((eb) => eb.or([eb('ends_at', '>', at), eb('recurrence', 'is not', null)]));
      if (companyIds) q = q.where('company_id', 'in', companyIds);
      return withMonitors((await q.execute()).filter((w) => isActiveAt(w, at)));
    },
  };
}
