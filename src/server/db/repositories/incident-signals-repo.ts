// SQL for related signals (migration 0504): warnings kept in an incident's thread instead of
// notifying, because they are about the same monitor and cause as the failure behind it.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { IncidentSignalsTable } from '../schema/alerts.ts';

export type IncidentSignalRow = Selectable<IncidentSignalsTable>;

export function incidentSignalsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Why the monitor's latest check failed (monitors.failure_cause), or null. */
    async failureCauseOf(companyId: string, monitorId: string): Promise<string | null> {
      const row = await k
        .selectFrom('monitors')
        .select('failure_cause')
        .where('id', '=', monitorId)
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return row?.failure_cause ?? null;
    },
    /** The open incident about the monitor (its own or one it was added to), or undefined. */
    async openIncidentOf(companyId: string, monitorId: string): Promise<string | undefined> {
      const row = await k
        .selectFrom('incidents as i')
        .select('i.id')
        .where('i.company_id', '=', companyId)
        .where('i.resolved_at', 'is', null)
        .where((eb) =>
          eb.or([
            eb('i.monitor_id', '=', monitorId),
            eb.exists(
              eb
                .selectFrom('incident_monitors as im')
                .select('im.incident_id')
                .whereRef('im.incident_id', '=', 'i.id')
                .where('im.monitor_id', '=', monitorId),
            ),
          ]),
        )
        .orderBy('i.started_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row?.id;
    },
    /** Keeps a signal once per company and dedupe key (a retried or twice-raised warning); answers whether it is new. */
    async insertIdempotent(row: Insertable<IncidentSignalsTable>): Promise<boolean> {
      const r = await k
        .insertInto('incident_signals')
        .values(row)
        .onConflict((oc) => oc.columns(['company_id', 'dedupe_key']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    async countOf(incidentId: string): Promise<number> {
      const r = await k
        .selectFrom('incident_signals')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('incident_id', '=', incidentId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** The incident a confirmed failure opened takes in the signals of its cause held since `since`. */
    async adopt(held: { companyId: string; monitorId: string; cause: string; since: number }, incidentId: string): Promise<void> {
      await k
        .updateTable('incident_signals')
        .set({ incident_id: incidentId })
        .where('company_id', '=', held.companyId)
        .where('monitor_id', '=', held.monitorId)
        .where('cause', '=', held.cause)
        .where('incident_id', 'is', null)
        .where('created_at', '>=', held.since)
        .execute();
    },
    ofIncident(incidentId: string): Promise<IncidentSignalRow[]> {
      return k
        .selectFrom('incident_signals')
        .selectAll()
        .where('incident_id', '=', incidentId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
    },
  };
}
