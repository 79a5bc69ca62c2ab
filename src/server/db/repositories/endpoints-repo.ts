// SQL for the API intelligence inventory: per-minute, -hour and -day endpoint rollups (requests,
// errors, status classes and codes, latency sketch) and the first time each endpoint was seen.
import { sql, type Insertable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { EndpointRollupsTable } from '../schema/telemetry.ts';
import { LatencySketch } from '../../../lib/latency-sketch.ts';
import { StatusCounts } from '../../../lib/status-counts.ts';
import { rollupPlan, type Grain } from '../../../lib/inventory-window.ts';

export type NewEndpointRollup = Insertable<EndpointRollupsTable>;

const CHUNK = 300;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type Table = 'endpoint_rollups' | 'endpoint_rollups_hourly' | 'endpoint_rollups_daily';
const TABLE: Record<Grain, Table> = { minute: 'endpoint_rollups', hour: 'endpoint_rollups_hourly', day: 'endpoint_rollups_daily' };
const COUNTERS = ['requests', 'errors', 'sum_ms', 'c2xx', 'c3xx', 'c4xx', 'c5xx'] as const;

interface RowKey {
  company_id: string;
  minute_ms: number;
  service: string;
  method: string;
  route: string;
}
const keyOf = (r: RowKey) => `${r.company_id}\u0000${Number(r.minute_ms)}\u0000${r.service}\u0000${r.method}\u0000${r.route}`;
const endpointKey = (r: Omit<RowKey, 'minute_ms'>) => `${r.company_id}\u0000${r.service}\u0000${r.method}\u0000${r.route}`;

/** Figures of one endpoint over a window, its rows merged. */
export interface EndpointTotals {
  companyId: string;
  service: string;
  method: string;
  route: string;
  requests: number;
  errors: number;
  sumMs: number;
  classes: { '2xx': number; '3xx': number; '4xx': number; '5xx': number };
  codes: StatusCounts;
  sketch: LatencySketch;
}

export interface EndpointWindow {
  /** null = every company (super admin) */
  companyId: string | null;
  fromMs: number;
  toMs: number;
  limit: number;
}

/** The rows folded into their hours (or UTC days), sketches and codes merged. */
function foldedInto(rows: NewEndpointRollup[], grainMs: number): NewEndpointRollup[] {
  const byKey = new Map<string, { row: NewEndpointRollup; sketch: LatencySketch; codes: StatusCounts }>();
  for (const r of rows) {
    const start = r.minute_ms - (r.minute_ms % grainMs);
    const key = keyOf({ ...r, minute_ms: start });
    let acc = byKey.get(key);
    if (!acc) {
      const row = { ...r, minute_ms: start };
      for (const c of COUNTERS) row[c] = 0;
      byKey.set(key, (acc = { row, sketch: new LatencySketch(), codes: new StatusCounts() }));
    }
    for (const c of COUNTERS) acc.row[c] += r[c];
    acc.sketch.mergeText(r.hist ?? '');
    acc.codes.mergeText(r.codes ?? '');
  }
  return [...byKey.values()].map(({ row, sketch, codes }) => ({ ...row, hist: sketch.serialize(), codes: codes.serialize() }));
}

export function endpointsRepo(db: DbScope) {
  const k = db.k;
  const joined = (col: 'hist' | 'codes') =>
    db.kind === 'postgres' ? sql<string>`string_agg(${sql.ref(col)}, ',')` : sql<string>`group_concat(${sql.ref(col)}, ',')`;

  /** As the RED rollups do (red-repo.ts): stored rows are rewritten merged, new rows inserted. */
  async function upsert(table: Table, rows: NewEndpointRollup[]): Promise<void> {
    // One order for every writer, so two processes lock shared rows in the same order.
    const sorted = rows.map((r) => [keyOf(r), r] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (let i = 0; i < sorted.length; i += CHUNK) {
      const chunk = sorted.slice(i, i + CHUNK).map(([, r]) => r);
      let existing = k
        .selectFrom(table)
        .select(['company_id', 'minute_ms', 'service', 'method', 'route', 'hist', 'codes'])
        .where('company_id', 'in', [...new Set(chunk.map((r) => r.company_id))])
        .where('minute_ms', 'in', [...new Set(chunk.map((r) => r.minute_ms))])
        .where('route', 'in', [...new Set(chunk.map((r) => r.route))])
        .orderBy('company_id')
        .orderBy('minute_ms')
        .orderBy('service')
        .orderBy('method')
        .orderBy('route');
      if (db.kind === 'postgres') existing = existing.forUpdate();
      const stored = new Map((await existing.execute()).map((r) => [keyOf(r), r]));
      const fresh: NewEndpointRollup[] = [];
      for (const r of chunk) {
        const old = stored.get(keyOf(r));
        if (!old) {
          fresh.push(r);
          continue;
        }
        await k
          .updateTable(table)
          .set({
            ...Object.fromEntries(COUNTERS.map((c) => [c, sql`${sql.ref(c)} + ${r[c]}`])),
            hist: LatencySketch.parse(old.hist)
              .mergeText(r.hist ?? '')
              .serialize(),
            codes: StatusCounts.parse(old.codes)
              .mergeText(r.codes ?? '')
              .serialize(),
          })
          .where('company_id', '=', r.company_id)
          .where('minute_ms', '=', r.minute_ms)
          .where('service', '=', r.service)
          .where('method', '=', r.method)
          .where('route', '=', r.route)
          .execute();
      }
      if (fresh.length === 0) continue;
      await k
        .insertInto(table)
        .values(fresh)
        .onConflict((oc) =>
          oc.columns(['company_id', 'minute_ms', 'service', 'method', 'route']).doUpdateSet({
            ...Object.fromEntries(COUNTERS.map((c) => [c, sql`${sql.ref(`${table}.${c}`)} + ${sql.ref(`excluded.${c}`)}`])),
            hist: sql`${sql.ref(`${table}.hist`)} || ',' || excluded.hist`,
            codes: sql`${sql.ref(`${table}.codes`)} || ',' || excluded.codes`,
          }),
        )
        .execute();
    }
  }

  /** Each endpoint's earliest minute in the rows, kept when earlier than what is stored. */
  async function noteFirstSeen(rows: NewEndpointRollup[]): Promise<void> {
    const first = new Map<string, { company_id: string; service: string; method: string; route: string; first_seen_ms: number }>();
    for (const r of rows) {
      const key = endpointKey(r);
      const seen = first.get(key);
      if (!seen)
        first.set(key, { company_id: r.company_id, service: r.service, method: r.method, route: r.route, first_seen_ms: r.minute_ms });
      else if (r.minute_ms < seen.first_seen_ms) seen.first_seen_ms = r.minute_ms;
    }
    const values = [...first.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([, v]) => v);
    for (let i = 0; i < values.length; i += CHUNK) {
      await k
        .insertInto('api_endpoints')
        .values(values.slice(i, i + CHUNK))
        .onConflict((oc) =>
          oc
            .columns(['company_id', 'service', 'method', 'route'])
            .doUpdateSet({ first_seen_ms: sql`excluded.first_seen_ms` })
            .where(sql<boolean>`excluded.first_seen_ms < api_endpoints.first_seen_ms`),
        )
        .execute();
    }
  }

  /** One table's rows of the window, grouped by endpoint, the busiest first. */
  async function segment(table: Table, w: EndpointWindow, codes: boolean): Promise<EndpointTotals[]> {
    let q = k
      .selectFrom(table)
      .select([
        'company_id',
        'service',
        'method',
        'route',
        sql<number>`sum(requests)`.as('requests'),
        sql<number>`sum(errors)`.as('errors'),
        sql<number>`sum(sum_ms)`.as('sum_ms'),
        sql<number>`sum(c2xx)`.as('c2xx'),
        sql<number>`sum(c3xx)`.as('c3xx'),
        sql<number>`sum(c4xx)`.as('c4xx'),
        sql<number>`sum(c5xx)`.as('c5xx'),
        joined('hist').as('hist'),
        (codes ? joined('codes') : sql<string>`''`).as('codes'),
      ])
      .where('minute_ms', '>=', w.fromMs)
      .where('minute_ms', '<', w.toMs);
    if (w.companyId) q = q.where('company_id', '=', w.companyId);
    const rows = await q
      .groupBy(['company_id', 'service', 'method', 'route'])
      .orderBy(sql`sum(requests)`, 'desc')
      .orderBy('company_id')
      .orderBy('service')
      .orderBy('route')
      .orderBy('method')
      .limit(w.limit)
      .execute();
    return rows.map((r) => ({
      companyId: r.company_id,
      service: r.service,
      method: r.method,
      route: r.route,
      requests: Number(r.requests),
      errors: Number(r.errors),
      sumMs: Number(r.sum_ms),
      classes: { '2xx': Number(r.c2xx), '3xx': Number(r.c3xx), '4xx': Number(r.c4xx), '5xx': Number(r.c5xx) },
      codes: StatusCounts.parse(r.codes ?? ''),
      sketch: LatencySketch.parse(r.hist ?? ''),
    }));
  }

  return {
    /** Adds per-minute rows to their minutes, hours and days, and notes endpoints seen for the first time. */
    async add(rows: NewEndpointRollup[]): Promise<void> {
      if (rows.length === 0) return;
      await upsert('endpoint_rollups', rows);
      await upsert('endpoint_rollups_hourly', foldedInto(rows, HOUR_MS));
      await upsert('endpoint_rollups_daily', foldedInto(rows, DAY_MS));
      await noteFirstSeen(rows);
    },
    /**
     * Every endpoint with requests in [fromMs, toMs), the busiest first (at most limit).
     * Counts are summed in SQL, sketch and code texts joined per endpoint (joined texts parse
     * as their merge), from the coarsest rows that fit (rollupPlan): 30 days are about 30 day
     * rows per endpoint and the hours at either end instead of 43,200 minutes.
     */
    async totals(w: EndpointWindow, opts: { codes: boolean }): Promise<EndpointTotals[]> {
      const parts = await Promise.all(rollupPlan(w.fromMs, w.toMs).map((p) => segment(TABLE[p.grain], { ...w, ...p }, opts.codes)));
      if (parts.length === 1) return parts[0];
      const byKey = new Map<string, EndpointTotals>();
      for (const t of parts.flat()) {
        const key = endpointKey({ company_id: t.companyId, service: t.service, method: t.method, route: t.route });
        const acc = byKey.get(key);
        if (!acc) {
          byKey.set(key, t);
          continue;
        }
        acc.requests += t.requests;
        acc.errors += t.errors;
        acc.sumMs += t.sumMs;
        for (const c of ['2xx', '3xx', '4xx', '5xx'] as const) acc.classes[c] += t.classes[c];
        for (const [code, n] of t.codes.counts) acc.codes.add(code, n);
        acc.sketch.merge(t.sketch);
      }
      return [...byKey.values()].sort((a, b) => b.requests - a.requests).slice(0, w.limit);
    },
    /** When each endpoint of the company (or of every company) was first seen, by endpoint key. */
    async firstSeen(companyId: string | null): Promise<Map<string, number>> {
      let q = k.selectFrom('api_endpoints').select(['company_id', 'service', 'method', 'route', 'first_seen_ms']);
      if (companyId) q = q.where('company_id', '=', companyId);
      return new Map((await q.execute()).map((r) => [endpointKey(r), Number(r.first_seen_ms)]));
    },
    /** Names of the companies given (a deleted one is missing). */
    async companyNames(ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const rows = await k.selectFrom('companies').select(['id', 'name']).where('id', 'in', ids).execute();
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    /** Every endpoint row of a company (the company is being deleted; no foreign keys here). */
    async deleteForCompany(companyId: string): Promise<void> {
      for (const t of ['endpoint_rollups', 'endpoint_rollups_hourly', 'endpoint_rollups_daily', 'api_endpoints'] as const)
        await k.deleteFrom(t).where('company_id', '=', companyId).execute();
    },
    /** Minute rows before beforeMs, the hours and days that ended by then (first-seen times are kept). */
    async deleteOlderThan(companyId: string, beforeMs: number): Promise<void> {
      await k
        .deleteFrom('endpoint_rollups_daily')
        .where('company_id', '=', companyId)
        .where('minute_ms', '<=', beforeMs - DAY_MS)
        .execute();
      await k
        .deleteFrom('endpoint_rollups_hourly')
        .where('company_id', '=', companyId)
        .where('minute_ms', '<=', beforeMs - HOUR_MS)
        .execute();
      await k.deleteFrom('endpoint_rollups').where('company_id', '=', companyId).where('minute_ms', '<', beforeMs).execute();
    },
  };
}

/** The key firstSeen answers by. */
export { endpointKey };
