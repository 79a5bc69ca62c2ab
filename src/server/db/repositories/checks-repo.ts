// SQL for raw check results: batched inserts, a monitor's history, and retention pruning.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { CheckResultsTable } from '../schema/monitoring.ts';

export type CheckRow = Selectable<CheckResultsTable>;

export function checksRepo(db: DbScope) {
  const k = db.k;
  return {
    async insertMany(rows: Insertable<CheckResultsTable>[]): Promise<void> {
      if (rows.length === 0) return;
      // Same monitor and millisecond twice (a heartbeat and a scheduled check) keeps the first.
      await k
        .insertInto('check_results')
        .values(rows)
        .onConflict((oc) => oc.columns(['monitor_id', 'checked_at']).doNothing())
        .execute();
    },
    list(monitorId: string, opts: { limit: number; before?: number; since?: number }): Promise<CheckRow[]> {
      let q = k.selectFrom('check_results').selectAll().where('monitor_id', '=', monitorId);
      if (opts.before !== undefined) q = q.where('checked_at', '<', opts.before);
      if (opts.since !== undefined) q = q.where('checked_at', '>=', opts.since);
      return q.orderBy('checked_at', 'desc').limit(opts.limit).execute();
    },
    /** Deletes results older than each company's plan retention; answers the number deleted. */
    async pruneOlderThan(plan: string, cutoff: number, defaultPlan: boolean): Promise<number> {
      const companies = k
        .selectFrom('companies')
        .select('id')
        .where((eb) =>
          defaultPlan
            ? eb.or([eb('plan', '=', plan), eb('plan', 'not in', ['starter', 'professional', 'enterprise'])])
            : eb('plan', '=', plan),
        );
      const r = await k
        .deleteFrom('check_results')
        .where('company_id', 'in', companies)
        .where('checked_at', '<', cutoff)
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async count(): Promise<number> {
      const r = await k.selectFrom('check_results').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
  };
}
