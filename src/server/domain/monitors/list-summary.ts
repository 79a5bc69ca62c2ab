// The console list's summary of each monitor on a page (uptime over 24 hours and 30 days, the
// 24 hourly average response times of its sparkline), read from the rollups of the whole page in
// two queries, never per row. Only a young monitor (lib/dense-history.ts) reads raw results: its
// latest checks make its sparkline.
import { checksRepo } from '../../db/repositories/checks-repo.ts';
import { rollupsRepo, type RollupRecord } from '../../db/repositories/rollups-repo.ts';
import type { MonitorSort } from '../../db/repositories/monitors-repo.ts';
import { uptimePercent } from '../../engine/rollup-math.ts';
import { drawPerCheck, SPARK_CHECKS } from '../../../lib/dense-history.ts';
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { DAY_MS, dayStart, HOUR_MS, hourStart } from '../../../lib/timeline.ts';
import type { Ctx } from '../context.ts';

export interface MonitorListQuery {
  tenant?: string;
  q?: string;
  type?: string;
  status?: string;
  is_public?: boolean;
  archived?: boolean;
  sort?: MonitorSort;
  order?: 'asc' | 'desc';
  limit?: number;
  offset?: number;
}

export interface ListSummary {
  uptime_24h: number | null;
  uptime_30d: number | null;
  sparkline: Array<number | null>;
  /** hour: the 24 hourly averages; check: the latest checks of a young monitor, one by one */
  sparkline_unit: 'hour' | 'check';
}

/** Timed responses of a rollup: its sketch's count (failures and push beats carry no time). */
function timedCount(r: RollupRecord): number {
  return LatencySketch.parse(r.response_sketch).total;
}

/**
 * The summaries of these monitors. `newIds` are the ones created in the last 24 hours: those with
 * few timed hours get their latest checks as their sparkline (callers without a sparkline pass none).
 */
export async function listSummaries(ctx: Ctx, ids: string[], newIds: string[] = []): Promise<(id: string) => ListSummary> {
  const now = ctx.services.now();
  const repo = rollupsRepo(ctx.services.db);
  const firstHour = hourStart(now) - 23 * HOUR_MS;
  const [hourly, daily] = await Promise.all([
    repo.range('hourly', ids, firstHour, now + 1),
    repo.range('daily', ids, dayStart(now) - 29 * DAY_MS, now + 1),
  ]);
  const group = (rows: RollupRecord[]) => {
    const by = new Map<string, RollupRecord[]>();
    for (const r of rows) by.set(r.monitor_id, [...(by.get(r.monitor_id) ?? []), r]);
    return by;
  };
  const hours = group(hourly);
  const days = group(daily);
  const hourlyLines = new Map(
    ids.map((id) => {
      const line: Array<number | null> = Array.from({ length: 24 }, () => null);
      for (const r of hours.get(id) ?? []) {
        const slot = Math.round((r.start - firstHour) / HOUR_MS);
        const n = timedCount(r);
        if (slot >= 0 && slot < 24 && n > 0) line[slot] = Math.round((r.sum_response_ms / n) * 100) / 100;
      }
      return [id, line];
    }),
  );
  // A new monitor's few hours would be a lone dot: its latest checks instead (few monitors on a
  // page are new, and each reads at most SPARK_CHECKS results of the last day).
  const young = newIds.filter((id) => hourlyLines.has(id) && drawPerCheck(hourlyLines.get(id)!.filter((v) => v !== null).length));
  const checks = checksRepo(ctx.services.db);
  const latest = new Map(
    await Promise.all(
      young.map(async (id) => {
        const rows = await checks.list(id, { limit: SPARK_CHECKS, since: now - DAY_MS });
        return [id, rows.reverse().map((r) => (r.response_time_ms === null ? null : Number(r.response_time_ms)))] as const;
      }),
    ),
  );
  return (id) => {
    const h = hours.get(id) ?? [];
    const perCheck = latest.get(id);
    const byCheck = perCheck !== undefined && perCheck.length > 0;
    return {
      uptime_24h: uptimePercent(h),
      uptime_30d: uptimePercent(days.get(id) ?? []),
      sparkline: byCheck ? perCheck : hourlyLines.get(id)!,
      sparkline_unit: byCheck ? 'check' : 'hour',
    };
  };
}
