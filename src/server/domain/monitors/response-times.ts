// A monitor's response times per hour (24 h, 7 d) or per day (30 d, 90 d) for the console's
// chart, read from the rollups (or its latest checks one by one, for a young monitor): average, p50/p95/p99 and the mean of each phase per period,
// with the counts the timeline blocks and daily bars need, and the same figures over the whole
// range (the periods' latency sketches merged, so within 1 % of the exact percentiles). The
// range's overall phase breakdown averages the newest raw checks of the range.
import { checksRepo } from '../../db/repositories/checks-repo.ts';
import { rollupsRepo, type RollupGrain, type RollupRecord } from '../../db/repositories/rollups-repo.ts';
import { responseQuantile, type Phase, type PhaseSums } from '../../engine/rollup-math.ts';
import { CHART_CHECKS } from '../../../lib/dense-history.ts';
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { DAY_MS, dayStart, HOUR_MS, hourStart } from '../../../lib/timeline.ts';
import { requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { toIso } from '../ids.ts';
import { load } from './service.ts';
import { parseConfig } from '../../engine/kinds/config.ts';
import { stepTimingKey } from '../../engine/kinds/synthetic-run.ts';
import { locationChecks, locationSeries } from './location-series.ts';

const RANGES = {
  '24h': { grain: 'hourly', periods: 24 },
  '7d': { grain: 'hourly', periods: 7 * 24 },
  '30d': { grain: 'daily', periods: 30 },
  '90d': { grain: 'daily', periods: 90 },
} as const satisfies Record<string, { grain: RollupGrain; periods: number }>;
export type ResponseTimeRange = keyof typeof RANGES | 'checks';

/** Raw checks averaged for the phase breakdown: enough to be stable, cheap to read. */
const PHASE_SAMPLES = 1000;
const PHASES = ['dns', 'connect', 'tls', 'ttfb', 'total'] as const;

const round2 = (x: number) => Math.round(x * 100) / 100;

/** Mean ms of each phase in the period; wait = first byte less the phases before it. */
function pointPhases(r: RollupRecord | undefined) {
  const sums = r?.phase_sums ? (JSON.parse(r.phase_sums) as Partial<PhaseSums>) : {};
  const mean = (p: Phase) => {
    const [sum, n] = sums[p] ?? [0, 0];
    return n > 0 ? sum / n : null;
  };
  const [dns, connect, tls, ttfb] = [mean('dns'), mean('connect'), mean('tls'), mean('ttfb')];
  const wait = ttfb === null ? null : Math.max(0, ttfb - (dns ?? 0) - (connect ?? 0) - (tls ?? 0));
  const out = (x: number | null) => (x === null ? null : round2(x));
  return { dns: out(dns), connect: out(connect), tls: out(tls), wait: out(wait) };
}

/** Average and percentiles of timed responses; the sum holds exactly the ones the sketch counts. */
function latency(sketch: LatencySketch, sumMs: number, min: number | null, max: number | null) {
  const timed = sketch.total;
  return {
    avg: timed > 0 ? round2(sumMs / timed) : null,
    p50: responseQuantile(sketch, 0.5, min, max),
    p95: responseQuantile(sketch, 0.95, min, max),
    p99: responseQuantile(sketch, 0.99, min, max),
  };
}

function point(start: number, r: RollupRecord | undefined) {
  const sketch = LatencySketch.parse(r?.response_sketch ?? '');
  return {
    start: toIso(start),
    ...latency(sketch, r?.sum_response_ms ?? 0, r?.min_response_ms ?? null, r?.max_response_ms ?? null),
    checks: r?.checks ?? 0,
    failures: r?.failures ?? 0,
    degraded: r?.degraded ?? 0,
    maintenance: r?.maintenance ?? 0,
    last_http_code: r?.last_http_code ?? null,
    phases: pointPhases(r),
  };
}

/** The whole range: every period's sketch merged, so its percentiles are the checks' own. */
function rangeSummary(rows: RollupRecord[]) {
  const sketch = new LatencySketch();
  let sum = 0;
  let min: number | null = null;
  let max: number | null = null;
  for (const r of rows) {
    sketch.mergeText(r.response_sketch);
    sum += r.sum_response_ms;
    if (r.min_response_ms !== null) min = min === null ? r.min_response_ms : Math.min(min, r.min_response_ms);
    if (r.max_response_ms !== null) max = max === null ? r.max_response_ms : Math.max(max, r.max_response_ms);
  }
  return { timed: sketch.total, ...latency(sketch, sum, min, max) };
}

/** `stepNames`: a synthetic monitor's steps, whose step_N timings are averaged too (charted like phases). */
async function phaseAverages(ctx: Ctx, monitorId: string, since: number, stepNames: readonly string[] = []) {
  const rows = await checksRepo(ctx.services.db).list(monitorId, { limit: PHASE_SAMPLES, since });
  const keys = [...PHASES, ...stepNames.map((_, i) => stepTimingKey(i + 1))];
  const sums = Object.fromEntries(keys.map((p) => [p, { sum: 0, n: 0 }]));
  let samples = 0;
  for (const row of rows) {
    if (!row.timings) continue;
    const t = JSON.parse(row.timings) as Record<string, unknown>;
    samples += 1;
    for (const p of keys) {
      const v = t[p];
      if (typeof v === 'number' && Number.isFinite(v)) {
        sums[p].sum += v;
        sums[p].n += 1;
      }
    }
  }
  const avg = (p: string) => (sums[p].n > 0 ? round2(sums[p].sum / sums[p].n) : null);
  const phases = { samples, dns: avg('dns'), connect: avg('connect'), tls: avg('tls'), ttfb: avg('ttfb'), total: avg('total') };
  if (stepNames.length === 0) return phases;
  return { ...phases, steps: stepNames.map((name, i) => ({ index: i + 1, name, avg: avg(stepTimingKey(i + 1)) })) };
}

/** The names of a synthetic monitor's steps (an api_flow step's name; a browser step's or its action). */
function stepNamesOf(config: string): string[] {
  const steps = (parseConfig(config) as { steps?: unknown }).steps;
  if (!Array.isArray(steps)) return [];
  return steps.map((s: { name?: unknown; action?: unknown }, i) => String(s?.name ?? s?.action ?? `Step ${i + 1}`));
}

/** Mean ms of each phase of one check (from its timings), as pointPhases does for a period. */
function checkPhases(timings: string | null) {
  const t = timings ? (JSON.parse(timings) as Record<string, unknown>) : {};
  const num = (k: string) => (typeof t[k] === 'number' && Number.isFinite(t[k]) ? (t[k] as number) : null);
  const [dns, connect, tls, ttfb] = [num('dns'), num('connect'), num('tls'), num('ttfb')];
  const wait = ttfb === null ? null : Math.max(0, ttfb - (dns ?? 0) - (connect ?? 0) - (tls ?? 0));
  const out = (x: number | null) => (x === null ? null : round2(x));
  return { dns: out(dns), connect: out(connect), tls: out(tls), wait: out(wait) };
}

/** The newest checks one by one, oldest first: a young monitor's chart from its first minute. */
async function latestChecks(ctx: Ctx, monitorId: string) {
  const rows = (await checksRepo(ctx.services.db).list(monitorId, { limit: CHART_CHECKS })).reverse();
  const sketch = new LatencySketch();
  let sum = 0;
  let min: number | null = null;
  let max: number | null = null;
  const points = rows.map((r) => {
    const ms = r.response_time_ms === null ? null : Number(r.response_time_ms);
    if (ms !== null) {
      sketch.add(ms);
      sum += ms;
      min = min === null ? ms : Math.min(min, ms);
      max = max === null ? ms : Math.max(max, ms);
    }
    return {
      start: toIso(Number(r.checked_at)),
      avg: ms === null ? null : round2(ms),
      p50: null,
      p95: null,
      p99: null,
      checks: 1,
      failures: r.status === 'down' ? 1 : 0,
      degraded: r.status === 'degraded' ? 1 : 0,
      maintenance: 0,
      last_http_code: r.http_code,
      phases: checkPhases(r.timings),
    };
  });
  return {
    points,
    summary: { timed: sketch.total, ...latency(sketch, sum, min, max) },
    since: rows.length ? Number(rows[0].checked_at) : 0,
    locations: await locationChecks(ctx.services.db, rows),
  };
}

export async function getResponseTimes(ctx: Ctx, id: string, q: { range?: string }) {
  requirePermission(ctx, 'view', 'monitors');
  const key = q.range ?? '24h';
  if (key === 'checks') {
    const m = await load(ctx, id);
    const { points, summary, since, locations } = await latestChecks(ctx, m.id);
    return {
      summary,
      monitor_id: m.id,
      range: key as ResponseTimeRange,
      grain: 'check' as const,
      points,
      phases: await phaseAverages(ctx, m.id, since, stepNamesOf(m.config)),
      locations,
    };
  }
  if (!Object.hasOwn(RANGES, key)) throw new DomainError('validation', 'range must be checks, 24h, 7d, 30d or 90d');
  const { grain, periods } = RANGES[key as keyof typeof RANGES];
  const m = await load(ctx, id);
  const now = ctx.services.now();
  const step = grain === 'hourly' ? HOUR_MS : DAY_MS;
  const first = (grain === 'hourly' ? hourStart(now) : dayStart(now)) - (periods - 1) * step;
  const rows = await rollupsRepo(ctx.services.db).range(grain, [m.id], first, now + 1);
  const byStart = new Map(rows.map((r) => [r.start, r]));
  const points = Array.from({ length: periods }, (_, i) => point(first + i * step, byStart.get(first + i * step)));
  return {
    summary: rangeSummary(rows),
    monitor_id: m.id,
    range: key as ResponseTimeRange,
    grain: grain === 'hourly' ? ('hour' as const) : ('day' as const),
    points,
    phases: await phaseAverages(ctx, m.id, first, stepNamesOf(m.config)),
    locations: await locationSeries(
      ctx.services.db,
      m.id,
      Array.from({ length: periods }, (_, i) => first + i * step),
      step,
      grain === 'daily',
    ),
  };
}
