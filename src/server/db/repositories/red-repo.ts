// SQL for the per-minute RED rollups (requests, errors, summed duration, latency buckets) and
// the monitor uptime the RED card shows beside them.
import { sql, type Insertable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { RedRollupsTable } from '../schema/telemetry.ts';
import { BUCKET_COLUMNS } from '../../telemetry/histogram.ts';

export type NewRollup = Insertable<RedRollupsTable>;

export interface RedTotals {
  requests: number;
  errors: number;
  sumMs: number;
  buckets: number[];
}

const ADDED = ['requests', 'errors', 'sum_ms', ...BUCKET_COLUMNS] as const;
const CHUNK = 500;

function sums() {
  return [
    sql<number>`coalesce(sum(requests), 0)`.as('requests'),
    sql<number>`coalesce(sum(errors), 0)`.as('errors'),
    sql<number>`coalesce(sum(sum_ms), 0)`.as('sum_ms'),
    ...BUCKET_COLUMNS.map((c) => sql<number>`coalesce(sum(${sql.ref(c)}), 0)`.as(c)),
  ];
}

function totalsOf(r: Record<string, unknown>): RedTotals {
  return {
    requests: Number(r.requests),
    errors: Number(r.errors),
    sumMs: Number(r.sum_ms),
    buckets: BUCKET_COLUMNS.map((c) => Number(r[c])),
  };
}

export function redRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Adds each row to its (company, minute, service, operation) rollup. */
    async add(rows: NewRollup[]): Promise<void> {
      const set = Object.fromEntries(ADDED.map((c) => [c, sql`${sql.ref(`red_rollups.${c}`)} + ${sql.ref(`excluded.${c}`)}`]));
      for (let i = 0; i < rows.length; i += CHUNK) {
        await k
          .insertInto('red_rollups')
          .values(rows.slice(i, i + CHUNK))
          .onConflict((oc) => oc.columns(['company_id', 'minute_ms', 'service', 'operation']).doUpdateSet(set as never))
          .execute();
      }
    },
    async totalsForCompany(companyId: string, sinceMs: number): Promise<RedTotals> {
      const r = await k
        .selectFrom('red_rollups')
        .select(sums())
        .where('company_id', '=', companyId)
        .where('minute_ms', '>=', sinceMs)
        .executeTakeFirstOrThrow();
      return totalsOf(r as Record<string, unknown>);
    },
    /** Totals of every company with requests in the window, with its name. */
    async totalsByCompany(sinceMs: number): Promise<Array<RedTotals & { companyId: string; companyName: string | null }>> {
      const rows = await k
        .selectFrom('red_rollups')
        .leftJoin('companies', 'companies.id', 'red_rollups.company_id')
        .select(['red_rollups.company_id', 'companies.name'])
        .select(sums())
        .where('red_rollups.minute_ms', '>=', sinceMs)
        .groupBy(['red_rollups.company_id', 'companies.name'])
        .execute();
      return rows.map((r) => ({ ...totalsOf(r as Record<string, unknown>), companyId: r.company_id, companyName: r.name ?? null }));
    },
    /** Checks and failures of the company's monitors (hourly rollups) since the hour given. */
    async monitorChecks(companyId: string, sinceHourMs: number): Promise<{ checks: number; failures: number; maintenance: number }> {
      const r = await k
        .selectFrom('monitor_rollups_hourly')
        .select([
          sql<number>`coalesce(sum(checks), 0)`.as('checks'),
          sql<number>`coalesce(sum(failures), 0)`.as('failures'),
          sql<number>`coalesce(sum(maintenance), 0)`.as('maintenance'),
        ])
        .where('company_id', '=', companyId)
        .where('hour_start', '>=', sinceHourMs)
        .executeTakeFirstOrThrow();
      return { checks: Number(r.checks), failures: Number(r.failures), maintenance: Number(r.maintenance) };
    },
    /** Every rollup of a company (the company is being deleted; rollups carry no foreign key). */
    async deleteForCompany(companyId: string): Promise<number> {
      const r = await k.deleteFrom('red_rollups').where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    async deleteOlderThan(companyId: string, beforeMs: number): Promise<number> {
      const r = await k.deleteFrom('red_rollups').where('company_id', '=', companyId).where('minute_ms', '<', beforeMs).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
