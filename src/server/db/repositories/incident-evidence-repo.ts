// SQL for the evidence panel of automatic incidents (migration 0132): one row per incident,
// replaced whole by each build, and the open automatic incidents the refresh job rebuilds.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { IncidentEvidenceTable } from '../schema/monitoring.ts';

export type IncidentEvidenceRow = Selectable<IncidentEvidenceTable>;

export function incidentEvidenceRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The incident's panel; `companyId` null only for a super admin's read. */
    get(incidentId: string, companyId: string | null): Promise<IncidentEvidenceRow | undefined> {
      let q = k.selectFrom('incident_evidence').selectAll().where('incident_id', '=', incidentId);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    /**
     * Writes the panel in one statement (insert, or replace items, line and updated_at), so a
     * reader sees the old panel or the new one, never half of each; built_at stays the first build's.
     */
    async save(row: IncidentEvidenceRow): Promise<void> {
      await k
        .insertInto('incident_evidence')
        .values(row)
        .onConflict((oc) =>
          oc
            .column('incident_id')
            .doUpdateSet({ items: row.items, line: row.line, updated_at: row.updated_at, monitor_id: row.monitor_id }),
        )
        .execute();
    },
    /** Open automatic incidents (the engine's: created_by null, with a monitor), oldest first. */
    openAutomatic(limit: number): Promise<Array<{ id: string; company_id: string }>> {
      return k
        .selectFrom('incidents')
        .select(['id', 'company_id'])
        .where('resolved_at', 'is', null)
        .where('created_by', 'is', null)
        .where('monitor_id', 'is not', null)
        .orderBy('started_at')
        .limit(limit)
        .execute();
    },
  };
}
