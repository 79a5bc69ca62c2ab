// SQL for hourly and daily rollups: read-merge-write inside the batch transaction (the rows of
// one batch are locked on PostgreSQL), and range reads for uptime, dashboards and status pages.
import type { DbScope } from '../scope.ts';
import type { CheckStatus } from '../schema/monitoring.ts';

export type RollupGrain = 'hourly' | 'daily';

export interface RollupRecord {
  monitor_id: string;
  company_id: string;
  start: number;
  checks: number;
  failures: number;
  degraded: number;
  maintenance: number;
  sum_response_ms: number;
  min_response_ms: number | null;
  max_response_ms: number | null;
  /** Latency sketch text of the timed responses ('' without any) */
  response_sketch: string;
  p95_response_ms: number | null;
  last_status: CheckStatus | null;
  last_http_code: number | null;
  last_checked_at: number | null;
  /** JSON PhaseSums (engine/rollup-math.ts); null in rows written before migration 0106 */
  phase_sums: string | null;
}

export const ROLLUP_TABLE = { hourly: 'monitor_rollups_hourly', daily: 'monitor_rollups_daily' } as const;
/** The column holding each grain's period start */
export const ROLLUP_START = { hourly: 'hour_start', daily: 'day_start' } as const;

export function rollupsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The rows of these (monitor, start) keys, locked for update on PostgreSQL. */
    async getMany(grain: RollupGrain, keys: Array<{ monitorId: string; start: number }>): Promise<RollupRecord[]> {
      if (keys.length === 0) return [];
      const key = ROLLUP_START[grain] as 'hour_start';
      const q = k
        .selectFrom(ROLLUP_TABLE[grain] as 'monitor_rollups_hourly')
        .selectAll()
        .where('monitor_id', 'in', [...new Set(keys.map((x) => x.monitorId))])
        .where(key, 'in', [...new Set(keys.map((x) => x.start))]);
      const rows = await (db.kind === 'postgres' ? q.forUpdate() : q).execute();
      return rows.map((row) => ({ ...(row as unknown as RollupRecord), start: Number((row as unknown as Record<string, unknown>)[key]) }));
    },
    /** Inserts or replaces rows in one statement. */
    async putMany(grain: RollupGrain, recs: RollupRecord[]): Promise<void> {
      if (recs.length === 0) return;
      const key = ROLLUP_START[grain];
      const values = recs.map(({ start, ...rest }) => ({ ...rest, [key]: start })) as never[];
      await k
        .insertInto(ROLLUP_TABLE[grain] as 'monitor_rollups_hourly')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['monitor_id', key as 'hour_start']).doUpdateSet((eb) => ({
            checks: eb.ref('excluded.checks'),
            failures: eb.ref('excluded.failures'),
            degraded: eb.ref('excluded.degraded'),
            maintenance: eb.ref('excluded.maintenance'),
            sum_response_ms: eb.ref('excluded.sum_response_ms'),
            min_response_ms: eb.ref('excluded.min_response_ms'),
            max_response_ms: eb.ref('excluded.max_response_ms'),
            response_sketch: eb.ref('excluded.response_sketch'),
            p95_response_ms: eb.ref('excluded.p95_response_ms'),
            last_status: eb.ref('excluded.last_status'),
            last_http_code: eb.ref('excluded.last_http_code'),
            last_checked_at: eb.ref('excluded.last_checked_at'),
            phase_sums: eb.ref('excluded.phase_sums'),
          })),
        )
        .execute();
    },
    async range(grain: RollupGrain, monitorIds: string[], from: number, to: number): Promise<RollupRecord[]> {
      if (monitorIds.length === 0) return [];
      const key = ROLLUP_START[grain] as 'hour_start';
      const rows = await k
        .selectFrom(ROLLUP_TABLE[grain] as 'monitor_rollups_hourly')
        .selectAll()
        .where('monitor_id', 'in', monitorIds)
        .where(key, '>=', from)
        .where(key, '<', to)
        .orderBy(key)
        .execute();
      return rows.map((row) => ({ ...(row as unknown as RollupRecord), start: Number((row as unknown as Record<string, unknown>)[key]) }));
    },
  };
}
