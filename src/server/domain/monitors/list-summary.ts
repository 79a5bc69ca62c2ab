// The console list's summary of each monitor on a page (uptime over 24 hours and 30 days, the
// 24 hourly average response times of its sparkline), read from the rollups of the whole page in
// two queries, never per row and never from raw results.
import { rollupsRepo, type RollupRecord } from '../../db/repositories/rollups-repo.ts';
import type { MonitorSort } from '../../db/repositories/monitors-repo.ts';
import { uptimePercent } from '../../engine/rollup-math.ts';
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
}

/** Timed responses of a rollup: its sketch's count (failures and push beats carry no time). */
function timedCount(r: RollupRecord): number {
  return LatencySketch.parse(r.response_sketch).total;
}

export async function listSummaries(ctx: Ctx, ids: string[]): Promise<(id: string) => ListSummary> {
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
  return (id) => {
    const h = hours.get(id) ?? [];
    const sparkline: Array<number | null> = Array.from({ length: 24 }, () => null);
    for (const r of h) {
      const slot = Math.round((r.start - firstHour) / HOUR_MS);
      const n = timedCount(r);
      if (slot >= 0 && slot < 24 && n > 0) sparkline[slot] = Math.round((r.sum_response_ms / n) * 100) / 100;
    }
    return { uptime_24h: uptimePercent(h), uptime_30d: uptimePercent(days.get(id) ?? []), sparkline };
  };
}
