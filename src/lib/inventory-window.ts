// Time windows of the API intelligence inventory: the range ending with the minute (1 h) or the
// hour (24 h, 7 d, 30 d) that holds now, and the window of the same length just before it.
// Whole hours let the longer ranges read hourly rollups, and their whole UTC days daily ones:
// 30 days of 50 endpoints are about 1,500 day rows and 48 hours of edges instead of 36,000
// hours (or 2 million minutes).
import type { MetricRange } from './metric-buckets.ts';
import { RANGE_LENGTH_MS } from './metric-buckets.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const GRAIN_MS: Record<MetricRange, number> = { '1h': 60_000, '24h': 3_600_000, '7d': 3_600_000, '30d': 3_600_000 };

export interface InventoryWindow {
  /** First instant of the window (a minute or hour start, UTC) */
  fromMs: number;
  /** End of the window (exclusive): the end of the minute or hour holding now */
  toMs: number;
  /** First instant of the previous window (it ends at fromMs) */
  previousFromMs: number;
}

export function inventoryWindow(range: MetricRange, nowMs: number): InventoryWindow {
  const grain = GRAIN_MS[range];
  const toMs = nowMs - (nowMs % grain) + grain;
  const fromMs = toMs - RANGE_LENGTH_MS[range];
  return { fromMs, toMs, previousFromMs: fromMs - RANGE_LENGTH_MS[range] };
}

export type Grain = 'minute' | 'hour' | 'day';

/**
 * Which rollups cover [fromMs, toMs): minutes unless both ends are whole hours; else whole UTC
 * days from the daily rows and the hours before and after them from the hourly rows.
 */
export function rollupPlan(fromMs: number, toMs: number): Array<{ grain: Grain; fromMs: number; toMs: number }> {
  if (fromMs % HOUR_MS !== 0 || toMs % HOUR_MS !== 0) return [{ grain: 'minute', fromMs, toMs }];
  const firstDay = Math.ceil(fromMs / DAY_MS) * DAY_MS;
  const lastDay = Math.floor(toMs / DAY_MS) * DAY_MS;
  if (lastDay <= firstDay) return [{ grain: 'hour', fromMs, toMs }];
  const plan: Array<{ grain: Grain; fromMs: number; toMs: number }> = [];
  if (fromMs < firstDay) plan.push({ grain: 'hour', fromMs, toMs: firstDay });
  plan.push({ grain: 'day', fromMs: firstDay, toMs: lastDay });
  if (lastDay < toMs) plan.push({ grain: 'hour', fromMs: lastDay, toMs });
  return plan;
}
