// SQL for the language model's incident summaries: a company's opt-in and budget, its tokens per
// calendar month (reserved before a call, settled after it), and the summaries with what they
// were written from.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { IncidentSummariesTable } from '../schema/incident-summaries.ts';

export type IncidentSummaryRow = Selectable<IncidentSummariesTable>;

export interface SummarySettingsRow {
  company_id: string;
  enabled: boolean;
  monthly_tokens: number | null;
  updated_at: number;
  updated_by: string | null;
}

export function incidentSummariesRepo(db: DbScope) {
  const k = db.k;
  return {
    async settings(companyId: string): Promise<SummarySettingsRow | undefined> {
      const row = await k.selectFrom('incident_summary_settings').selectAll().where('company_id', '=', companyId).executeTakeFirst();
      return row ? { ...row, enabled: Number(row.enabled) === 1 } : undefined;
    },
    async putSettings(row: SummarySettingsRow): Promise<void> {
      const values = { ...row, enabled: row.enabled ? 1 : 0 };
      await k
        .insertInto('incident_summary_settings')
        .values(values)
        .onConflict((oc) =>
          oc.column('company_id').doUpdateSet({
            enabled: values.enabled,
            monthly_tokens: values.monthly_tokens,
            updated_at: values.updated_at,
            updated_by: values.updated_by,
          }),
        )
        .execute();
    },
    async usage(companyId: string, month: string): Promise<{ tokens: number; calls: number }> {
      const row = await k
        .selectFrom('incident_summary_usage')
        .select(['tokens', 'calls'])
        .where('company_id', '=', companyId)
        .where('month', '=', month)
        .executeTakeFirst();
      return { tokens: Number(row?.tokens ?? 0), calls: Number(row?.calls ?? 0) };
    },
    /**
     * Adds `tokens` to the month's count only if the count stays within `budget`, in one statement,
     * so two calls at once cannot both pass a budget only one of them fits in. True when reserved.
     */
    async reserve(companyId: string, month: string, tokens: number, budget: number): Promise<boolean> {
      await k
        .insertInto('incident_summary_usage')
        .values({ company_id: companyId, month, tokens: 0, calls: 0 })
        .onConflict((oc) => oc.columns(['company_id', 'month']).doNothing())
        .execute();
      const r = await k
        .updateTable('incident_summary_usage')
        .set({ tokens: sql`tokens + ${tokens}`, calls: sql`calls + 1` })
        .where('company_id', '=', companyId)
        .where('month', '=', month)
        .where(sql<boolean>`tokens + ${tokens} <= ${budget}`)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** Corrects a reservation by what the call really used (negative: gives tokens back). */
    async adjust(companyId: string, month: string, tokens: number, calls = 0): Promise<void> {
      await k
        .updateTable('incident_summary_usage')
        .set({ tokens: sql`tokens + ${tokens}`, calls: sql`calls + ${calls}` })
        .where('company_id', '=', companyId)
        .where('month', '=', month)
        .execute();
    },
    async insert(row: Insertable<IncidentSummariesTable>): Promise<void> {
      await k.insertInto('incident_summaries').values(row).execute();
    },
    /** The incident's newest summary. */
    latest(incidentId: string, companyId: string): Promise<IncidentSummaryRow | undefined> {
      return k
        .selectFrom('incident_summaries')
        .selectAll()
        .where('incident_id', '=', incidentId)
        .where('company_id', '=', companyId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
    },
  };
}
