// RED metrics (rate, errors, duration) from the rollups, never from raw spans: the window's whole
// hours from the hourly tier, its first partial hour from the minutes; p95 from their merged
// latency sketches, within 1 % of the exact value.
// Super admins without a chosen company: the companies with the highest error rate. Anyone
// else (or a super admin with tenant=): one company's figures with its monitors' uptime.
import type { Ctx } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { notFound } from '../errors.ts';
import { redRepo, type RedTotals } from '../../db/repositories/red-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { uptimePercent } from '../../engine/rollup-math.ts';
import { DAY_MS, HOUR_MS, hourStart } from '../../../lib/timeline.ts';

export type RangeKey = '1h' | '24h' | '7d' | '30d';
export const RANGE_MS: Record<RangeKey, number> = { '1h': HOUR_MS, '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS };

export interface TenantRed {
  tenantId: string;
  tenantName: string | null;
  totalRequests: number;
  errorRate: number;
  p95: number;
}

export interface OwnRed {
  errorRate: number;
  rps: number;
  p95: number;
  uptime: number | null;
  totalRequests: number;
  avgResponseTime: number;
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Percent of requests that failed; 0 without requests. */
export const errorRateOf = (t: RedTotals): number => (t.requests > 0 ? (t.errors / t.requests) * 100 : 0);

/** First minute (and hour) inside the window ending now. */
export function windowStart(now: number, range: RangeKey): { minuteMs: number; hourMs: number } {
  const since = now - RANGE_MS[range];
  return { minuteMs: since - (since % 60_000), hourMs: hourStart(since) };
}

export async function getRedMetrics(ctx: Ctx, input: { range?: RangeKey; top?: number; tenant?: string }): Promise<TenantRed[] | OwnRed> {
  requirePermission(ctx, 'view', 'api_intelligence');
  const range = input.range ?? '24h';
  const now = ctx.services.now();
  const { minuteMs, hourMs } = windowStart(now, range);
  const repo = redRepo(ctx.services.db);
  const companyId = companyScope(ctx, input.tenant);

  if (!companyId) {
    const rows = await repo.totalsByCompany(minuteMs);
    return rows
      .filter((r) => r.requests > 0)
      .map((r) => ({
        tenantId: r.companyId,
        tenantName: r.companyName,
        totalRequests: r.requests,
        errorRate: errorRateOf(r),
        p95: round(r.sketch.quantile(0.95), 2),
      }))
      .sort((a, b) => b.errorRate - a.errorRate || b.totalRequests - a.totalRequests || a.tenantId.localeCompare(b.tenantId))
      .slice(0, input.top ?? 5);
  }

  if (input.tenant && !(await companiesRepo(ctx.services.db).findById(companyId))) throw notFound('Company');
  const t = await repo.totalsForCompany(companyId, minuteMs);
  const checks = await repo.monitorChecks(companyId, hourMs);
  return {
    errorRate: errorRateOf(t),
    rps: round(t.requests / (RANGE_MS[range] / 1000), 4),
    p95: round(t.sketch.quantile(0.95), 2),
    uptime: uptimePercent([checks]), // the monitors' rule: maintenance left out
    totalRequests: t.requests,
    avgResponseTime: t.requests > 0 ? round(t.sumMs / t.requests, 2) : 0,
  };
}
