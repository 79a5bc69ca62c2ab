// SQL for incidents, their updates and the monitors they are about (incident_monitors; the first
// is also incidents.monitor_id for older clients). At most one open incident per monitor_id is
// enforced by a partial unique index; opening is an insert that does nothing on conflict.
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { IncidentsTable, IncidentUpdatesTable } from '../schema/monitoring.ts';

export type IncidentRow = Selectable<IncidentsTable>;
export type IncidentWithTenant = IncidentRow & {
  tenant_name: string | null;
  monitor_name: string | null;
  acknowledged_by_name: string | null;
};
export type IncidentUpdateRow = Selectable<IncidentUpdatesTable>;

export function incidentsRepo(db: DbScope) {
  const k = db.k;
  const withTenant = () =>
    k
      .selectFrom('incidents')
      .leftJoin('companies', 'companies.id', 'incidents.company_id')
      .leftJoin('monitors', 'monitors.id', 'incidents.monitor_id')
      .leftJoin('users as acker', 'acker.id', 'incidents.acknowledged_by')
      .selectAll('incidents')
      .select(['companies.name as tenant_name', 'monitors.name as monitor_name', 'acker.full_name as acknowledged_by_name']);
  return {
    /** Answers true when this call opened it (false: an open incident already existed). */
    async openForMonitor(row: Insertable<IncidentsTable>): Promise<boolean> {
      const r = await k
        .insertInto('incidents')
        .values(row)
        .onConflict((oc) => oc.column('monitor_id').where(sql<boolean>`resolved_at is null and monitor_id is not null`).doNothing())
        .executeTakeFirst();
      const opened = Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
      if (opened && row.monitor_id)
        await k
          .insertInto('incident_monitors')
          .values({ incident_id: row.id, monitor_id: row.monitor_id, company_id: row.company_id })
          .execute();
      return opened;
    },
    /** Replaces the incident's monitors with these (already tenant-checked) ones. */
    async setMonitors(incidentId: string, companyId: string, monitorIds: string[]): Promise<void> {
      await k.deleteFrom('incident_monitors').where('incident_id', '=', incidentId).execute();
      if (monitorIds.length === 0) return;
      await k
        .insertInto('incident_monitors')
        .values(monitorIds.map((monitor_id) => ({ incident_id: incidentId, monitor_id, company_id: companyId })))
        .execute();
    },
    /** The monitors of these incidents with their names, by incident. */
    async monitorsOf(incidentIds: string[]): Promise<Map<string, Array<{ id: string; name: string }>>> {
      const out = new Map<string, Array<{ id: string; name: string }>>();
      if (incidentIds.length === 0) return out;
      const rows = await k
        .selectFrom('incident_monitors as im')
        .innerJoin('monitors as m', 'm.id', 'im.monitor_id')
        .select(['im.incident_id', 'm.id', 'm.name'])
        .where('im.incident_id', 'in', incidentIds)
        .orderBy('m.name')
        .orderBy('m.id')
        .execute();
      for (const r of rows) {
        const list = out.get(r.incident_id) ?? [];
        list.push({ id: r.id, name: r.name });
        out.set(r.incident_id, list);
      }
      return out;
    },
    findOpenForMonitor(monitorId: string): Promise<IncidentRow | undefined> {
      return k.selectFrom('incidents').selectAll().where('monitor_id', '=', monitorId).where('resolved_at', 'is', null).executeTakeFirst();
    },
    /** Open automatic incidents (no author): the engine resolves these, never a person's. */
    openAutomaticForMonitors(monitorIds: string[]): Promise<IncidentRow[]> {
      if (monitorIds.length === 0) return Promise.resolve([]);
      return k
        .selectFrom('incidents')
        .selectAll()
        .where('monitor_id', 'in', monitorIds)
        .where('resolved_at', 'is', null)
        .where('created_by', 'is', null)
        .execute();
    },
    async insert(row: Insertable<IncidentsTable>): Promise<void> {
      await k.insertInto('incidents').values(row).execute();
    },
    async update(id: string, patch: Updateable<IncidentsTable>): Promise<void> {
      await k.updateTable('incidents').set(patch).where('id', '=', id).execute();
    },
    /** Records the first acknowledgement of an open incident; answers false when it was
     *  already acknowledged or resolved (a concurrent acknowledgement won). */
    async acknowledge(id: string, by: { at: number; userId: string | null; via: string }): Promise<boolean> {
      const r = await k
        .updateTable('incidents')
        .set({ acknowledged_at: by.at, acknowledged_by: by.userId, acknowledged_via: by.via.slice(0, 200), updated_at: by.at })
        .where('id', '=', id)
        .where('acknowledged_at', 'is', null)
        .where('resolved_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    findById(id: string, companyId: string | null): Promise<IncidentWithTenant | undefined> {
      let q = withTenant().where('incidents.id', '=', id);
      if (companyId) q = q.where('incidents.company_id', '=', companyId);
      return q.executeTakeFirst() as Promise<IncidentWithTenant | undefined>;
    },
    list(
      companyId: string | null,
      f: {
        limit: number;
        offset?: number;
        status?: 'open' | 'resolved';
        monitorId?: string;
        since?: number;
        severity?: IncidentRow['severity'];
        automatic?: boolean;
      },
    ): Promise<IncidentWithTenant[]> {
      let q = withTenant();
      if (companyId) q = q.where('incidents.company_id', '=', companyId);
      if (f.status === 'open') q = q.where('incidents.resolved_at', 'is', null);
      if (f.status === 'resolved') q = q.where('incidents.resolved_at', 'is not', null);
      const monitorId = f.monitorId;
      if (monitorId)
        q = q.where((eb) =>
          eb.or([
            eb('incidents.monitor_id', '=', monitorId),
            eb.exists(
              eb
                .selectFrom('incident_monitors as im')
                .select('im.monitor_id')
                .whereRef('im.incident_id', '=', 'incidents.id')
                .where('im.monitor_id', '=', monitorId),
            ),
          ]),
        );
      if (f.since !== undefined) q = q.where('incidents.started_at', '>=', f.since);
      if (f.severity) q = q.where('incidents.severity', '=', f.severity);
      if (f.automatic === true) q = q.where('incidents.created_by', 'is', null);
      if (f.automatic === false) q = q.where('incidents.created_by', 'is not', null);
      return q
        .orderBy('incidents.started_at', 'desc')
        .orderBy('incidents.id')
        .limit(f.limit)
        .offset(f.offset ?? 0)
        .execute() as Promise<IncidentWithTenant[]>;
    },
    async countOpenCritical(companyId: string | null): Promise<number> {
      let q = k
        .selectFrom('incidents')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('resolved_at', 'is', null)
        .where('severity', '=', 'critical');
      if (companyId) q = q.where('company_id', '=', companyId);
      const r = await q.executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async addUpdate(row: Insertable<IncidentUpdatesTable>): Promise<void> {
      await k.insertInto('incident_updates').values(row).execute();
    },
    updates(incidentId: string): Promise<IncidentUpdateRow[]> {
      return k
        .selectFrom('incident_updates')
        .selectAll()
        .where('incident_id', '=', incidentId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
    /** A company's incident of this title that started at this instant (an imported past incident, found again). */
    async findByTitleAndStart(companyId: string, title: string, startedAt: number): Promise<IncidentRow | undefined> {
      return k
        .selectFrom('incidents')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('title', '=', title)
        .where('started_at', '=', startedAt)
        .executeTakeFirst();
    },
  };
}
