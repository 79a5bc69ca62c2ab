// SQL for the incidents incoming alerts open (migration 0530): the open incident of a source's
// key (one at most, by a partial unique index), and each alert (by fingerprint) of an incident.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { IncomingAlertsTable } from '../schema/incoming.ts';
import type { IncidentsTable } from '../schema/monitoring.ts';
import type { IncidentRow } from './incidents-repo.ts';

export type IncomingAlertRow = Selectable<IncomingAlertsTable>;

export function incomingAlertsRepo(db: DbScope) {
  const k = db.k;
  return {
    openIncident(sourceId: string, key: string): Promise<IncidentRow | undefined> {
      return k
        .selectFrom('incidents')
        .selectAll()
        .where('incoming_source_id', '=', sourceId)
        .where('incoming_key', '=', key)
        .where('resolved_at', 'is', null)
        .executeTakeFirst();
    },
    /** Answers true when this call opened it (false: another request opened it first). */
    async openIncidentFor(row: Insertable<IncidentsTable>): Promise<boolean> {
      const r = await k
        .insertInto('incidents')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['incoming_source_id', 'incoming_key'])
            .where(sql<boolean>`resolved_at is null and incoming_source_id is not null`)
            .doNothing(),
        )
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0n) > 0;
    },
    alertsOf(incidentId: string): Promise<IncomingAlertRow[]> {
      return k
        .selectFrom('incoming_alerts')
        .selectAll()
        .where('incident_id', '=', incidentId)
        .orderBy('first_seen_at')
        .orderBy('fingerprint')
        .execute();
    },
    async insertAlert(row: Insertable<IncomingAlertsTable>): Promise<void> {
      await k.insertInto('incoming_alerts').values(row).execute();
    },
    async updateAlert(
      id: string,
      patch: Pick<IncomingAlertRow, 'status' | 'title' | 'severity' | 'detail' | 'last_seen_at'>,
    ): Promise<void> {
      await k.updateTable('incoming_alerts').set(patch).where('id', '=', id).execute();
    },
  };
}
