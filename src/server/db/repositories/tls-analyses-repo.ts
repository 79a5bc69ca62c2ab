// SQL for the TLS analyses of https monitors (migration 0610) and for finding those monitors.
// Asset analyses use security_results (security-findings-repo.ts).
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { MonitorType } from '../schema/monitoring.ts';
import type { TlsMonitorAnalysesTable } from '../schema/security.ts';

export type TlsMonitorAnalysisRow = Selectable<TlsMonitorAnalysesTable>;

/** A monitor of a kind that may talk TLS (its kind's tlsEndpoint says where, from its config). */
export interface TlsMonitorCandidate {
  id: string;
  company_id: string;
  name: string;
  type: MonitorType;
  config: string;
}

export function tlsAnalysesRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Live (not archived, not paused) monitors of the given kinds of a company, or of all for `null`. */
    async listCandidates(companyId: string | null, types: readonly MonitorType[], monitorId?: string): Promise<TlsMonitorCandidate[]> {
      let q = k
        .selectFrom('monitors')
        .select(['id', 'company_id', 'name', 'type', 'config'])
        .where('type', 'in', [...types])
        .where('archived_at', 'is', null)
        .where('is_paused', '=', false);
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      if (monitorId !== undefined) q = q.where('id', '=', monitorId);
      return (await q.orderBy('company_id').orderBy('name').orderBy('id').execute()) as TlsMonitorCandidate[];
    },
    list(companyId: string | null): Promise<TlsMonitorAnalysisRow[]> {
      let q = k.selectFrom('tls_monitor_analyses').selectAll();
      if (companyId !== null) q = q.where('company_id', '=', companyId);
      return q.execute();
    },
    get(monitorId: string): Promise<TlsMonitorAnalysisRow | undefined> {
      return k.selectFrom('tls_monitor_analyses').selectAll().where('monitor_id', '=', monitorId).executeTakeFirst();
    },
    async save(row: TlsMonitorAnalysisRow): Promise<void> {
      await k
        .insertInto('tls_monitor_analyses')
        .values(row)
        .onConflict((oc) => oc.column('monitor_id').doUpdateSet({ checked_at: row.checked_at, grade: row.grade, data: row.data }))
        .execute();
    },
  };
}
