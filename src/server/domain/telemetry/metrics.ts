// The metrics screen: request rate, error rate and p50/p95/p99 over time, in buckets of the
// range (src/lib/metric-buckets.ts), with the previous window of the same length beside it.
// Figures come from the rollups only (the hourly tier for buckets of whole hours, else the
// minutes), never from raw spans; each bucket's percentiles from its merged latency sketch,
// within 1 % of the exact value.
// Super admins see every company together, or the one they choose (tenant).
import type { Ctx } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { DomainError, notFound } from '../errors.ts';
import { flagOn } from '../flags/flags.ts';
import { auditFromCtx } from '../audit/record.ts';
import { redRepo, type RedTotals, type RollupFilter } from '../../db/repositories/red-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { metricWindow, type MetricRange } from '../../../lib/metric-buckets.ts';

export interface MetricPoint {
  /** Start of the bucket, ms since the epoch */
  t: number;
  requests: number;
  errors: number;
  /** Requests per second over the bucket */
  rate: number;
  /** Percent of requests that failed (null without requests) */
  errorRate: number | null;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

export interface MetricSeries {
  range: MetricRange;
  bucketMs: number;
  from: number;
  to: number;
  current: MetricPoint[];
  /** The window just before, bucket for bucket (its t is the previous window's own time) */
  previous: MetricPoint[];
  endpoints: Array<{ service: string; operation: string }>;
}

export interface MetricQuery {
  range?: MetricRange;
  service?: string;
  operation?: string;
  tenant?: string;
}

/** The filter lists stop here: a company with more endpoints is filtered by typing. */
const MAX_ENDPOINTS = 1000;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

function points(byBucket: Map<number, RedTotals>, fromMs: number, toMs: number, bucketMs: number): MetricPoint[] {
  const out: MetricPoint[] = [];
  for (let t = fromMs; t < toMs; t += bucketMs) {
    const b = byBucket.get(t);
    const n = b?.requests ?? 0;
    const q = (p: number) => (b && n > 0 ? round(b.sketch.quantile(p), 2) : null);
    out.push({
      t,
      requests: n,
      errors: b?.errors ?? 0,
      rate: round(n / (bucketMs / 1000), 4),
      errorRate: b && n > 0 ? round((b.errors / n) * 100, 3) : null,
      p50: q(0.5),
      p95: q(0.95),
      p99: q(0.99),
    });
  }
  return out;
}

async function scopeOf(ctx: Ctx, tenant: string | undefined): Promise<string | null> {
  const companyId = companyScope(ctx, tenant);
  if (tenant && companyId === tenant && !(await companiesRepo(ctx.services.db).findById(companyId))) throw notFound('Company');
  return companyId;
}

async function series(ctx: Ctx, q: MetricQuery): Promise<MetricSeries> {
  const range = q.range ?? '24h';
  const w = metricWindow(range, ctx.services.now());
  const companyId = await scopeOf(ctx, q.tenant);
  const repo = redRepo(ctx.services.db);
  const filter = (fromMs: number, toMs: number): RollupFilter => ({
    companyId,
    fromMs,
    toMs,
    service: q.service || undefined,
    operation: q.operation || undefined,
  });
  const [current, previous, endpoints] = await Promise.all([
    repo.buckets(filter(w.fromMs, w.toMs), w.bucketMs),
    repo.buckets(filter(w.previousFromMs, w.fromMs), w.bucketMs),
    repo.endpoints({ companyId, fromMs: w.fromMs, toMs: w.toMs }, w.bucketMs, MAX_ENDPOINTS),
  ]);
  return {
    range,
    bucketMs: w.bucketMs,
    from: w.fromMs,
    to: w.toMs,
    current: points(current, w.fromMs, w.toMs, w.bucketMs),
    previous: points(previous, w.previousFromMs, w.fromMs, w.bucketMs),
    endpoints,
  };
}

export async function getMetricSeries(ctx: Ctx, q: MetricQuery): Promise<MetricSeries> {
  requirePermission(ctx, 'view', 'metrics');
  return series(ctx, q);
}

/** Cells are numbers and ISO times only (no user text), so none needs quoting. */
const csvCell = (v: string | number | null) => (v === null ? '' : String(v));

/** The series as CSV (current window then previous), for super admins while the flag is on. */
export async function exportMetrics(ctx: Ctx, q: MetricQuery): Promise<string> {
  requirePermission(ctx, 'export', 'metrics');
  if (!(await flagOn(ctx.services, 'ENABLE_GLOBAL_EXPORT'))) {
    throw new DomainError('forbidden', 'Export is turned off (the “Global export” feature flag).');
  }
  const s = await series(ctx, q);
  const lines = [['period', 'bucket_start', 'requests', 'errors', 'rate_per_s', 'error_rate_pct', 'p50_ms', 'p95_ms', 'p99_ms'].join(',')];
  for (const [period, pts] of [
    ['current', s.current],
    ['previous', s.previous],
  ] as const) {
    for (const p of pts) {
      lines.push(
        [period, new Date(p.t).toISOString(), p.requests, p.errors, p.rate, p.errorRate, p.p50, p.p95, p.p99].map(csvCell).join(','),
      );
    }
  }
  await auditFromCtx(
    ctx.services.db,
    ctx,
    'metrics_export',
    { range: s.range, service: q.service || null, operation: q.operation || null, rows: lines.length - 1 },
    undefined,
    q.tenant || null,
  );
  return lines.join('\r\n') + '\r\n';
}
