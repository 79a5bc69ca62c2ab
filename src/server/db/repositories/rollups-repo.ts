// SQL for hourly and daily rollups: read-merge-write inside the batch transaction (the rows of
// one batch are locked on PostgreSQL), and range reads for uptime, dashboards and status pages.
import type { Kysely } from 'kysely';
import type { Database } from '../schema/index.ts';
import type { CheckStatus } from '../schema/monitoring.ts';
import { isPostgres } from './monitors-repo.ts';

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
  response_hist: string | null;
  p95_response_ms: number | null;
  last_status: CheckStatus | null;
  last_http_code: number | null;
  last_checked_at: number | null;
}

const TABLE = { hourly: 'monitor_rollups_hourly', daily: 'monitor_rollups_daily' } as const;
const KEY = { hourly: 'hour_start', daily: 'day_start' } as const;

export function rollupsRepo(k: Kysely<Database>) {
  return {
    async get(grain: RollupGrain, monitorId: string, start: number): Promise<RollupRecord | undefined> {
      const q = k.selectFrom(TABLE[grain] as 'monitor_rollups_hourly').selectAll()
        .where('monitor_id', '=', monitorId).where(KEY[grain] as 'hour_start', '=', start);
      const row = await (isPostgres(k) ? q.forUpdate() : q).executeTakeFirst();
      if (!row) return undefined;
      const r = row as unknown as Record<string, unknown>;
      return { ...(row as unknown as RollupRecord), start: Number(r[KEY[grain]]) };
    },
    async put(grain: RollupGrain, rec: RollupRecord): Promise<void> {
      const { start, ...rest } = rec;
      const values = { ...rest, [KEY[grain]]: start } as never;
      const { monitor_id: _m, company_id: _c, ...updates } = rest;
      await k.insertInto(TABLE[grain] as 'monitor_rollups_hourly').values(values)
        .onConflict((oc) => oc.columns(['monitor_id', KEY[grain] as 'hour_start']).doUpdateSet(updates))
        .execute();
    },
    async range(grain: RollupGrain, monitorIds: string[], from: number, to: number): Promise<RollupRecord[]> {
      if (monitorIds.length === 0) return [];
      const key = KEY[grain] as 'hour_start';
      const rows = await k.selectFrom(TABLE[grain] as 'monitor_rollups_hourly').selectAll()
        .where('monitor_id', 'in', monitorIds).where(key, '>=', from).where(key, '<', to)
        .orderBy(key).execute();
      return rows.map((row) => ({ ...(row as unknown as RollupRecord), start: Number((row as unknown as Record<string, unknown>)[key]) }));
    },
  };
}
