// SQL for escalation policies (a company's ordered steps) and for finding the incidents that may
// need their next step: open, not acknowledged, with fewer steps sent than their company has.
// Advancing an incident's step count is a compare-and-set, so of two runners only one sends a step.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { EscalationStepsTable } from '../schema/alerts.ts';
import type { EscalationPoliciesTable } from '../schema/oncall.ts';
import type { IncidentRow } from './incidents-repo.ts';

export type EscalationStepRow = Selectable<EscalationStepsTable>;

export function escalationRepo(db: DbScope) {
  const k = db.k;
  return {
    steps(companyId: string): Promise<EscalationStepRow[]> {
      return k.selectFrom('escalation_steps').selectAll().where('company_id', '=', companyId).orderBy('position').execute();
    },
    async replace(companyId: string, rows: Insertable<EscalationStepsTable>[]): Promise<void> {
      await k.deleteFrom('escalation_steps').where('company_id', '=', companyId).execute();
      if (rows.length) await k.insertInto('escalation_steps').values(rows).execute();
    },
    /** The company's repeat count and team switch (none stored: no repeat, no team). */
    async settings(companyId: string): Promise<Pick<EscalationPoliciesTable, 'repeat_count' | 'notify_team_at_last_step'>> {
      const row = await k
        .selectFrom('escalation_policies')
        .select(['repeat_count', 'notify_team_at_last_step'])
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return row
        ? { repeat_count: Number(row.repeat_count), notify_team_at_last_step: row.notify_team_at_last_step }
        : { repeat_count: 0, notify_team_at_last_step: false };
    },
    async putSettings(row: EscalationPoliciesTable): Promise<void> {
      await k.deleteFrom('escalation_policies').where('company_id', '=', row.company_id).execute();
      await k.insertInto('escalation_policies').values(row).execute();
    },
    /** Open, unacknowledged incidents whose company has steps (of any round) they have not been sent yet. */
    pendingIncidents(limit: number): Promise<IncidentRow[]> {
      return k
        .selectFrom('incidents')
        .selectAll()
        .where('resolved_at', 'is', null)
        .where('acknowledged_at', 'is', null)
        .where(
          'escalated_steps',
          '<',
          sql<number>`(select count(*) from escalation_steps s where s.company_id = incidents.company_id) * (1 + coalesce((select p.repeat_count from escalation_policies p where p.company_id = incidents.company_id), 0))`,
        )
        .orderBy('started_at')
        .limit(limit)
        .execute();
    },
    /** Moves an incident from `from` sent steps to `to` while it is still open and unacknowledged; answers whether this call did. */
    async advance(incidentId: string, from: number, to: number): Promise<boolean> {
      const r = await k
        .updateTable('incidents')
        .set({ escalated_steps: to })
        .where('id', '=', incidentId)
        .where('escalated_steps', '=', from)
        .where('resolved_at', 'is', null)
        .where('acknowledged_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
