// API intelligence: the inventory of a company's HTTP endpoints learned from server spans, with
// RED figures, status codes and first sighting per endpoint, the endpoints new in the range,
// the slowest and the most failing, and each endpoint's change against the previous period of
// the same length. Read from the endpoint rollups only (hours beyond the last hour), never from
// raw spans; percentiles from merged latency sketches, within 1 % of the exact value.
// Super admins see every company together, or the one they choose (tenant).
import type { Ctx } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { DomainError, notFound } from '../errors.ts';
import { flagOn } from '../flags/flags.ts';
import { endpointKey, endpointsRepo, type EndpointTotals } from '../../db/repositories/endpoints-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import type { MetricRange } from '../../../lib/metric-buckets.ts';
import { inventoryWindow } from '../../../lib/inventory-window.ts';

export interface EndpointFigures {
  tenantId: string;
  tenantName: string | null;
  service: string;
  method: string;
  route: string;
  requests: number;
  errors: number;
  /** Requests per second over the range */
  rate: number;
  /** Percent of requests that failed (status ERROR or 5xx) */
  errorRate: number;
  avgMs: number;
  p50: number;
  p95: number;
  p99: number;
  statusClasses: { '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  topCodes: Array<{ code: number; count: number }>;
  firstSeen: number | null;
  isNew: boolean;
  previous: { requests: number; errorRate: number; p95: number } | null;
  /** p95 change in percent of the previous p95 (null without previous requests) */
  p95ChangePct: number | null;
  /** Error rate change in percentage points (null without previous requests) */
  errorRateChange: number | null;
}

export interface ApiInventory {
  range: MetricRange;
  from: number;
  to: number;
  previousFrom: number;
  endpoints: EndpointFigures[];
  /** More endpoints had requests than the inventory lists (the busiest are listed) */
  truncated: boolean;
  newEndpoints: EndpointFigures[];
  slowest: EndpointFigures[];
  mostFailing: EndpointFigures[];
}

export interface InventoryQuery {
  range?: MetricRange;
  tenant?: string;
}

/** The inventory lists the busiest endpoints up to here (normalised routes keep most APIs far below). */
export const MAX_ENDPOINTS = 2000;
const TOP = 5;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const keyOf = (t: EndpointTotals) => endpointKey({ company_id: t.companyId, service: t.service, method: t.method, route: t.route });

function figures(
  t: EndpointTotals,
  seconds: number,
): Pick<EndpointFigures, 'requests' | 'errors' | 'rate' | 'errorRate' | 'avgMs' | 'p50' | 'p95' | 'p99'> {
  const n = t.requests;
  return {
    requests: n,
    errors: t.errors,
    rate: round(n / seconds, 4),
    errorRate: n > 0 ? round((t.errors / n) * 100, 3) : 0,
    avgMs: n > 0 ? round(t.sumMs / n, 2) : 0,
    p50: round(t.sketch.quantile(0.5), 2),
    p95: round(t.sketch.quantile(0.95), 2),
    p99: round(t.sketch.quantile(0.99), 2),
  };
}

async function scopeOf(ctx: Ctx, tenant: string | undefined): Promise<string | null> {
  const companyId = companyScope(ctx, tenant);
  if (tenant && companyId === tenant && !(await companiesRepo(ctx.services.db).findById(companyId))) throw notFound('Company');
  return companyId;
}

export async function getApiIntelligence(ctx: Ctx, q: InventoryQuery): Promise<ApiInventory> {
  requirePermission(ctx, 'view', 'api_intelligence');
  if (!(await flagOn(ctx.services, 'ENABLE_API_INTELLIGENCE'))) {
    throw new DomainError('forbidden', 'API intelligence is turned off (the “API intelligence” feature flag).');
  }
  const range = q.range ?? '24h';
  const w = inventoryWindow(range, ctx.services.now());
  const companyId = await scopeOf(ctx, q.tenant);
  const repo = endpointsRepo(ctx.services.db);
  const [current, previous, firstSeen] = await Promise.all([
    repo.totals({ companyId, fromMs: w.fromMs, toMs: w.toMs, limit: MAX_ENDPOINTS + 1 }, { codes: true }),
    repo.totals({ companyId, fromMs: w.previousFromMs, toMs: w.fromMs, limit: MAX_ENDPOINTS * 2 }, { codes: false }),
    repo.firstSeen(companyId),
  ]);
  const truncated = current.length > MAX_ENDPOINTS;
  const listed = current.slice(0, MAX_ENDPOINTS);
  const names = await repo.companyNames([...new Set(listed.map((t) => t.companyId))]);
  const before = new Map(previous.map((t) => [keyOf(t), t]));
  const seconds = (w.toMs - w.fromMs) / 1000;

  const endpoints = listed.map((t): EndpointFigures => {
    const now = figures(t, seconds);
    const p = before.get(keyOf(t));
    const prev = p ? figures(p, seconds) : null;
    const first = firstSeen.get(keyOf(t)) ?? null;
    return {
      tenantId: t.companyId,
      tenantName: names.get(t.companyId) ?? null,
      service: t.service,
      method: t.method,
      route: t.route,
      ...now,
      statusClasses: t.classes,
      topCodes: t.codes.top(TOP),
      firstSeen: first,
      isNew: first !== null && first >= w.fromMs,
      previous: prev ? { requests: prev.requests, errorRate: prev.errorRate, p95: prev.p95 } : null,
      p95ChangePct: prev && prev.p95 > 0 ? round(((now.p95 - prev.p95) / prev.p95) * 100, 1) : null,
      errorRateChange: prev ? round(now.errorRate - prev.errorRate, 3) : null,
    };
  });
  const by = (f: (e: EndpointFigures) => number) => (a: EndpointFigures, b: EndpointFigures) => f(b) - f(a) || b.requests - a.requests;
  return {
    range,
    from: w.fromMs,
    to: w.toMs,
    previousFrom: w.previousFromMs,
    endpoints,
    truncated,
    newEndpoints: endpoints.filter((e) => e.isNew).sort((a, b) => (b.firstSeen ?? 0) - (a.firstSeen ?? 0) || b.requests - a.requests),
    slowest: [...endpoints].sort(by((e) => e.p95)).slice(0, TOP),
    mostFailing: endpoints
      .filter((e) => e.errors > 0)
      .sort(by((e) => e.errorRate))
      .slice(0, TOP),
  };
}
