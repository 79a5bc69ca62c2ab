// SQL for the per-destination check budget: the checks a minute every company's active monitors
// (not paused, not archived, of an active company) send to one destination host.
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';

export interface DestinationLoad {
  host: string;
  /** Checks a minute: the sum of 60 / interval_seconds */
  per_minute: number;
  monitors: number;
  companies: number;
}

export function destinationBudgetRepo(db: DbScope) {
  const k = db.k;
  const active = () =>
    k
      .selectFrom('monitors')
      .where('is_paused', '=', false)
      .where('archived_at', 'is', null)
      .where('company_id', 'not in', k.selectFrom('companies').select('id').where('is_active', '=', false));
  const perMinute = sql<number>`coalesce(sum(60.0 / interval_seconds), 0)`;
  return {
    /** Checks a minute to `host` now, leaving out monitor `exceptId` (the one being changed). */
    async perMinute(host: string, exceptId?: string): Promise<number> {
      let q = active().where('destination_host', '=', host);
      if (exceptId) q = q.where('id', '<>', exceptId);
      const r = await q.select(perMinute.as('n')).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** The hosts asked at least `atLeast` checks a minute, busiest first. */
    async busiest(atLeast: number, limit: number): Promise<DestinationLoad[]> {
      const rows = await active()
        .where('destination_host', 'is not', null)
        .groupBy('destination_host')
        .having(perMinute, '>=', atLeast)
        .select([
          'destination_host as host',
          perMinute.as('per_minute'),
          (eb) => eb.fn.countAll<number>().as('monitors'),
          (eb) => eb.fn.count<number>('company_id').distinct().as('companies'),
        ])
        .orderBy(perMinute, 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        host: String(r.host),
        per_minute: Number(r.per_minute),
        monitors: Number(r.monitors),
        companies: Number(r.companies),
      }));
    },
  };
}
