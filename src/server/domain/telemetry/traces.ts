// Trace search (error traces for the dashboard, or request spans) and one whole trace for the
// waterfall. Tenant-filtered: another company's trace answers 404.
import type { Ctx } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { DomainError, notFound } from '../errors.ts';
import { toIso } from '../ids.ts';
import { spansRepo, type SpanRow } from '../../db/repositories/spans-repo.ts';
import { RANGE_MS, type RangeKey } from './red.ts';

const KINDS = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
const STATUS = ['unset', 'ok', 'error'] as const;

export interface TraceSummary {
  id: string;
  traceId: string;
  service: string;
  operation: string;
  status: string;
  duration: number;
  timestamp: string;
  errorMessage: string | null;
}

const summary = (s: SpanRow): TraceSummary => ({
  id: s.span_id,
  traceId: s.trace_id,
  service: s.service,
  operation: s.name,
  status: s.is_error ? 'error' : 'ok',
  duration: s.duration_ms,
  timestamp: toIso(Math.floor(s.start_us / 1000)),
  errorMessage: s.error_message,
});

export async function searchTraces(
  ctx: Ctx,
  input: { error?: boolean; limit?: number; tenant?: string; service?: string; operation?: string; range?: RangeKey },
): Promise<TraceSummary[]> {
  requirePermission(ctx, 'view', 'traces');
  const now = ctx.services.now();
  const rows = await spansRepo(ctx.services.db).search({
    companyId: companyScope(ctx, input.tenant),
    errorsOnly: input.error === true,
    sinceUs: (now - RANGE_MS[input.range ?? '24h']) * 1000,
    service: input.service || undefined,
    operation: input.operation || undefined,
    // Error search: one row per trace, so over-fetch spans and fold them (bounded).
    limit: input.error === true ? Math.min((input.limit ?? 10) * 5, 1000) : (input.limit ?? 10),
  });
  return (input.error === true ? onePerTrace(rows, input.limit ?? 10) : rows).map(summary);
}

export interface TraceListQuery {
  service?: string;
  operation?: string;
  status?: 'ok' | 'error';
  min_duration_ms?: number;
  from?: string;
  to?: string;
  /** key=value */
  attr?: string;
  cursor?: string;
  limit?: number;
  tenant?: string;
}

export interface TraceListPage {
  traces: Array<TraceSummary & { spanCount: number }>;
  /** Pass back as cursor for the next (older) page; null on the last page */
  nextCursor: string | null;
}

const ATTR_KEY = /^[A-Za-z0-9_.:/-]{1,100}$/;
const DEFAULT_SPAN_MS = 24 * 3_600_000;

const invalid = (field: string, detail: string) => new DomainError('validation', detail, { fields: { [field]: detail } });

function timeOf(field: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback;
  const ms = Date.parse(text);
  if (!Number.isFinite(ms)) throw invalid(field, `${field} must be a date-time (ISO 8601).`);
  return ms;
}

/** The cursor is the last row's start (µs) and span id: `1732450000000000.00f067aa0ba902b7`. */
function cursorOf(text: string | undefined): { startUs: number; spanId: string } | undefined {
  if (!text) return undefined;
  const m = /^(\d{1,17})\.([0-9a-f]{16})$/.exec(text);
  if (!m) throw invalid('cursor', 'cursor is not one this API answered.');
  return { startUs: Number(m[1]), spanId: m[2] };
}

/**
 * The trace search screen: request spans (the entries counted in RED) matching the filters,
 * newest first, each with its trace's span count; paged by time through an opaque cursor.
 */
export async function listTraces(ctx: Ctx, q: TraceListQuery): Promise<TraceListPage> {
  requirePermission(ctx, 'view', 'traces');
  const now = ctx.services.now();
  const toMs = timeOf('to', q.to, now);
  const fromMs = timeOf('from', q.from, toMs - DEFAULT_SPAN_MS);
  if (fromMs >= toMs) throw invalid('from', 'from must be before to.');
  let attr: { key: string; value: string } | undefined;
  if (q.attr) {
    const i = q.attr.indexOf('=');
    const key = i < 0 ? '' : q.attr.slice(0, i).trim();
    if (!ATTR_KEY.test(key)) throw invalid('attr', 'attr must be key=value, the key of letters, digits and . _ - : /');
    attr = { key, value: q.attr.slice(i + 1).trim() };
  }
  const companyId = companyScope(ctx, q.tenant);
  const limit = q.limit ?? 50;
  const repo = spansRepo(ctx.services.db);
  const rows = await repo.findRequests({
    companyId,
    fromUs: fromMs * 1000,
    toUs: toMs * 1000,
    service: q.service || undefined,
    operation: q.operation || undefined,
    errorsOnly: q.status === 'error',
    okOnly: q.status === 'ok',
    minDurationMs: q.min_duration_ms,
    attr,
    after: cursorOf(q.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const counts = await repo.spanCounts(
    companyId,
    page.map((r) => r.trace_id),
  );
  const last = page[page.length - 1];
  return {
    traces: page.map((r) => ({ ...summary(r), spanCount: counts.get(`${r.company_id}/${r.trace_id}`) ?? 1 })),
    nextCursor: rows.length > limit && last ? `${last.start_us}.${last.span_id}` : null,
  };
}

/**
 * Error spans folded into error traces, newest failing trace first. A trace stands for its
 * request (the span counted in RED) when that failed, else its earliest failing span: a failed
 * checkout with a failed database call under it is one error trace, not two.
 */
export function onePerTrace(rows: SpanRow[], limit: number): SpanRow[] {
  const chosen = new Map<string, SpanRow>();
  for (const s of rows) {
    const key = `${s.company_id}/${s.trace_id}`;
    const have = chosen.get(key);
    if (!have) {
      if (chosen.size >= limit) continue;
      chosen.set(key, s);
    } else if ((s.is_request && !have.is_request) || (s.is_request === have.is_request && s.start_us < have.start_us)) {
      chosen.set(key, s); // Map keeps the first-seen (newest) order of the trace
    }
  }
  return [...chosen.values()];
}

export interface TraceSpan {
  spanId: string;
  parentSpanId: string | null;
  name: string;
  service: string;
  kind: string;
  start: string;
  /** ms from the trace's first span (microsecond precision, for the waterfall) */
  startOffset: number;
  duration: number;
  status: string;
  httpStatus: number | null;
  errorMessage: string | null;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; timestamp: string; attributes: Record<string, unknown> }>;
}

export interface TraceDetail {
  traceId: string;
  service: string;
  operation: string;
  start: string;
  duration: number;
  spanCount: number;
  errorCount: number;
  spans: TraceSpan[];
}

export async function getTrace(ctx: Ctx, traceId: string): Promise<TraceDetail> {
  requirePermission(ctx, 'view', 'traces');
  const id = traceId.toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(id)) throw notFound('Trace');
  const rows = await spansRepo(ctx.services.db).trace(id, companyScope(ctx));
  if (rows.length === 0) throw notFound('Trace');
  const startUs = rows[0].start_us;
  const endUs = Math.max(...rows.map((s) => s.start_us + s.duration_ms * 1000));
  const ids = new Set(rows.map((s) => s.span_id));
  const root = rows.find((s) => !s.parent_span_id || !ids.has(s.parent_span_id)) ?? rows[0];
  return {
    traceId: id,
    service: root.service,
    operation: root.name,
    start: toIso(Math.floor(startUs / 1000)),
    duration: (endUs - startUs) / 1000,
    spanCount: rows.length,
    errorCount: rows.filter((s) => s.is_error).length,
    spans: rows.map((s) => ({
      spanId: s.span_id,
      parentSpanId: s.parent_span_id,
      name: s.name,
      service: s.service,
      kind: KINDS[s.kind] ?? 'unspecified',
      start: toIso(Math.floor(s.start_us / 1000)),
      startOffset: (s.start_us - startUs) / 1000,
      duration: s.duration_ms,
      status: STATUS[s.status_code] ?? 'unset',
      httpStatus: s.http_status,
      errorMessage: s.error_message,
      attributes: JSON.parse(s.attributes) as Record<string, unknown>,
      events: (JSON.parse(s.events) as Array<{ name: string; time: number; attributes: Record<string, unknown> }>).map((e) => ({
        name: e.name,
        timestamp: toIso(e.time),
        attributes: e.attributes,
      })),
    })),
  };
}
