// SQL for incident templates (migration 0130): every query names its company.
import type { Selectable, Updateable } from 'kysely';
import type { IncidentTemplatesTable } from '../schema/monitoring.ts';
import type { DbScope } from '../scope.ts';

export type IncidentTemplateRow = Selectable<IncidentTemplatesTable>;

export function incidentTemplatesRepo(db: DbScope) {
  const k = db.k;
  return {
    /** By name; `companyId` null lists every company's (super admins without a tenant). */
    list(companyId: string | null, kind?: IncidentTemplateRow['kind']): Promise<IncidentTemplateRow[]> {
      let q = k.selectFrom('incident_templates').selectAll().orderBy('name').orderBy('id');
      if (companyId) q = q.where('company_id', '=', companyId);
      if (kind) q = q.where('kind', '=', kind);
      return q.execute();
    },
    find(id: string, companyId: string | null): Promise<IncidentTemplateRow | undefined> {
      let q = k.selectFrom('incident_templates').selectAll().where('id', '=', id);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.executeTakeFirst();
    },
    async countOf(companyId: string): Promise<number> {
      const r = await k
        .selectFrom('incident_templates')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('company_id', '=', companyId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insert(row: IncidentTemplateRow): Promise<void> {
      await k.insertInto('incident_templates').values(row).execute();
    },
    async update(id: string, companyId: string, patch: Updateable<IncidentTemplatesTable>): Promise<void> {
      await k.updateTable('incident_templates').set(patch).where('id', '=', id).where('company_id', '=', companyId).execute();
    },
    async remove(id: string, companyId: string): Promise<boolean> {
      const r = await k.deleteFrom('incident_templates').where('id', '=', id).where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    /** Of these monitor ids, the ones the company still has. */
    async existingMonitorIds(companyId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await k
        .selectFrom('monitors')
        .select('id')
        .where('company_id', '=', companyId)
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((r) => r.id));
    },
  };
}
