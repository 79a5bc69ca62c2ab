// SQL for the per-minute and hourly RED rollups (requests, errors, summed duration, latency
// sketch) and the monitor uptime the RED card shows beside them.
import { sql, type Insertable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { RedRollupsTable } from '../schema/telemetry.ts';
import { rollupsWithMonitors } from './rollups-repo.ts';
import { LatencySketch } from '../../../lib/latency-sketch.ts';

export type NewRollup = Insertable<RedRollupsTable>;

export interface RollupFilter {
  /** null = every company (super admin) */
  companyId: string | null;
  fromMs: number;
  toMs: number;
  service?: string;
  operation?: string;
}

export interface RedTotals {
  requests: number;
  errors: number;
  sumMs: number;
  /** Latencies of every request in the window, merged from the rows' sketches */
  sketch: LatencySketch;
}

const CHUNK = 500;
const HOUR_MS = 3_600_000;

type RollupTable = 'red_rollups' | 'red_rollups_hourly';
const emptyTotals = (): RedTotals => ({ requests: 0, errors: 0, sumMs: 0, sketch: new LatencySketch() });
const keyOf = (r: { company_id: string; minute_ms: number; service: string; operation: string }) =>
  `${r.company_id}\u0000${Number(r.minute_ms)}\u0000${r.service}\u0000${r.operation}`;

/** The rows folded into their hours (keyed by the hour's first minute), sketches merged. */
function hourlyOf(rows: NewRollup[]): NewRollup[] {
  const byKey = new Map<string, { row: NewRollup; sketch: LatencySketch }>();
  for (const r of rows) {
    const hour = r.minute_ms - (r.minute_ms % HOUR_MS);
    const key = keyOf({ ...r, minute_ms: hour });
    let acc = byKey.get(key);
    if (!acc) byKey.set(key, (acc = { row: { ...r, minute_ms: hour, requests: 0, errors: 0, sum_ms: 0 }, sketch: new LatencySketch() }));
    acc.row.requests += r.requests;
    acc.row.errors += r.errors;
    acc.row.sum_ms += r.sum_ms;
    acc.sketch.mergeText(r.hist ?? '');
  }
  return [...byKey.values()].map(({ row, sketch }) => ({ ...row, hist: sketch.serialize() }));
}

export function redRepo(db: DbScope) {
  const k = db.k;
  /**
   * Totals per company since sinceMs: the whole hours from the hourly rollups (30 days are 720
   * rows per operation, not 43,200), the minutes before the first whole hour from the minute
   * rows. Counts are summed in SQL and the sketch texts joined with commas, which parse as their
   * merge: one row and one string per company and table.
   */
  async function totals(companyId: string | null, sinceMs: number): Promise<Map<string, RedTotals>> {
    const firstHour = Math.ceil(sinceMs / HOUR_MS) * HOUR_MS;
    const joined = db.kind === 'postgres' ? sql<string>`string_agg(hist, ',')` : sql<string>`group_concat(hist, ',')`;
    const part = (table: RollupTable, from: number, to: number | null) => {
      let q = k
        .selectFrom(table)
        .select([
          'company_id',
          sql<number>`sum(requests)`.as('requests'),
          sql<number>`sum(errors)`.as('errors'),
          sql<number>`sum(sum_ms)`.as('sum_ms'),
          joined.as('hist'),
        ])
        .where('minute_ms', '>=', from);
      if (to !== null) q = q.where('minute_ms', '<', to);
      if (companyId) q = q.where('company_id', '=', companyId);
      return q.groupBy('company_id').execute();
    };
    const rows = [
      ...(firstHour > sinceMs ? await part('red_rollups', sinceMs, firstHour) : []),
      ...(await part('red_rollups_hourly', firstHour, null)),
    ];
    const out = new Map<string, RedTotals>();
    for (const r of rows) {
      let t = out.get(r.company_id);
      if (!t) out.set(r.company_id, (t = emptyTotals()));
      t.requests += Number(r.requests);
      t.errors += Number(r.errors);
      t.sumMs += Number(r.sum_ms);
      t.sketch.mergeText(r.hist ?? '');
    }
    return out;
  }
  /** Hours serve buckets of whole hours (7 and 30 days: far fewer rows than minutes). */
  function filtered(f: RollupFilter, bucketMs = 0) {
    const hourly = bucketMs >= HOUR_MS && bucketMs % HOUR_MS === 0 && f.fromMs % HOUR_MS === 0;
    let q = k
      .selectFrom(hourly ? 'red_rollups_hourly' : 'red_rollups')
      .where('minute_ms', '>=', f.fromMs)
      .where('minute_ms', '<', f.toMs);
    if (f.companyId) q = q.where('company_id', '=', f.companyId);
    if (f.service) q = q.where('service', '=', f.service);
    if (f.operation) q = q.where('operation', '=', f.operation);
    return q;
  }

  async function upsert(table: RollupTable, rows: NewRollup[]): Promise<void> {
    // One order for every writer, so two processes lock shared rows in the same order.
    const sorted = rows.map((r) => [keyOf(r), r] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (let i = 0; i < sorted.length; i += CHUNK) {
      const chunk = sorted.slice(i, i + CHUNK).map(([, r]) => r);
      let existing = k
        .selectFrom(table)
        .select(['company_id', 'minute_ms', 'service', 'operation', 'hist'])
        .where('company_id', 'in', [...new Set(chunk.map((r) => r.company_id))])
        .where('minute_ms', 'in', [...new Set(chunk.map((r) => r.minute_ms))])
        .where('operation', 'in', [...new Set(chunk.map((r) => r.operation))])
        .orderBy('company_id')
        .orderBy('minute_ms')
        .orderBy('service')
        .orderBy('operation');
      if (db.kind === 'postgres') existing = existing.forUpdate();
      const stored = new Map((await existing.execute()).map((r) => [keyOf(r), r.hist]));
      const fresh: NewRollup[] = [];
      for (const r of chunk) {
        const hist = stored.get(keyOf(r));
        if (hist === undefined) {
          fresh.push(r);
          continue;
        }
        await k
          .updateTable(table)
          .set({
            requests: sql`requests + ${r.requests}`,
            errors: sql`errors + ${r.errors}`,
            sum_ms: sql`sum_ms + ${r.sum_ms}`,
            hist: LatencySketch.parse(hist)
              .mergeText(r.hist ?? '')
              .serialize(),
          })
          .where('company_id', '=', r.company_id)
          .where('minute_ms', '=', r.minute_ms)
          .where('service', '=', r.service)
          .where('operation', '=', r.operation)
          .execute();
      }
      if (fresh.length === 0) continue;
      await k
        .insertInto(table)
        .values(fresh)
        .onConflict((oc) =>
          oc.columns(['company_id', 'minute_ms', 'service', 'operation']).doUpdateSet({
            requests: sql`${sql.ref(`${table}.requests`)} + excluded.requests`,
            errors: sql`${sql.ref(`${table}.errors`)} + excluded.errors`,
            sum_ms: sql`${sql.ref(`${table}.sum_ms`)} + excluded.sum_ms`,
            hist: sql`${sql.ref(`${table}.hist`)} || ',' || excluded.hist`,
          }),
        )
        .execute();
    }
  }
  return {
    /**
     * The window's minute rows folded into buckets of bucketMs counted from fromMs. Counts are
     * summed in SQL; SQL cannot add sparse sketches, but it can join their texts with commas,
     * which parse as their merge: one row and one string per bucket instead of one object per
     * minute row (30 days hold millions of rows).
     */
    async buckets(f: RollupFilter, bucketMs: number): Promise<Map<number, RedTotals>> {
      const bucket = sql<number>`(minute_ms - ${sql.lit(f.fromMs)}) / ${sql.lit(bucketMs)}`;
      const joined = db.kind === 'postgres' ? sql<string>`string_agg(hist, ',')` : sql<string>`group_concat(hist, ',')`;
      const rows = await filtered(f, bucketMs)
        .select([
          bucket.as('b'),
          sql<number>`sum(requests)`.as('requests'),
          sql<number>`sum(errors)`.as('errors'),
          sql<number>`sum(sum_ms)`.as('sum_ms'),
          joined.as('hist'),
        ])
        .groupBy(sql`1`)
        .execute();
      const out = new Map<number, RedTotals>();
      for (const r of rows) {
        out.set(f.fromMs + Number(r.b) * bucketMs, {
          requests: Number(r.requests),
          errors: Number(r.errors),
          sumMs: Number(r.sum_ms),
          sketch: LatencySketch.parse(r.hist ?? ''),
        });
      }
      return out;
    },
    /** The services and operations with requests in the window (for the screen's filters). */
    async endpoints(
      f: Omit<RollupFilter, 'service' | 'operation'>,
      bucketMs: number,
      limit: number,
    ): Promise<Array<{ service: string; operation: string }>> {
      return filtered(f, bucketMs)
        .select(['service', 'operation'])
        .distinct()
        .orderBy('service')
        .orderBy('operation')
        .limit(limit)
        .execute();
    },
    /**
     * Adds each row to its (company, minute, service, operation) rollup, and to its hour's.
     * Rows that exist are read (locked on PostgreSQL) and rewritten with the merged sketch, so
     * a stored sketch stays one compact text; new rows are inserted, and should another process
     * insert the same row first, the conflict appends our sketch to its text, which parses as
     * the exact merge.
     */
    async add(rows: NewRollup[]): Promise<void> {
      await upsert('red_rollups', rows);
      await upsert('red_rollups_hourly', hourlyOf(rows));
    },
    async totalsForCompany(companyId: string, sinceMs: number): Promise<RedTotals> {
      return (await totals(companyId, sinceMs)).get(companyId) ?? emptyTotals();
    },
    /** Totals of every company with rollups in the window, with its name (null once deleted). */
    async totalsByCompany(sinceMs: number): Promise<Array<RedTotals & { companyId: string; companyName: string | null }>> {
      const byCompany = await totals(null, sinceMs);
      if (byCompany.size === 0) return [];
      const names = new Map(
        (
          await k
            .selectFrom('companies')
            .select(['id', 'name'])
            .where('id', 'in', [...byCompany.keys()])
            .execute()
        ).map((c) => [c.id, c.name]),
      );
      return [...byCompany].map(([id, t]) => ({ ...t, companyId: id, companyName: names.get(id) ?? null }));
    },
    /** Checks and failures of the company's monitors (hourly rollups) since the hour given. */
    async monitorChecks(companyId: string, sinceHourMs: number): Promise<{ checks: number; failures: number; maintenance: number }> {
      const r = await rollupsWithMonitors(db, 'hourly')
        .select([
          sql<number>`coalesce(sum(r.checks), 0)`.as('checks'),
          sql<number>`coalesce(sum(r.failures), 0)`.as('failures'),
          sql<number>`coalesce(sum(r.maintenance), 0)`.as('maintenance'),
        ])
        .where('m.company_id', '=', companyId)
        .where('r.hour_start', '>=', sinceHourMs)
        .executeTakeFirstOrThrow();
      return { checks: Number(r.checks), failures: Number(r.failures), maintenance: Number(r.maintenance) };
    },
    /** Every rollup of a company (the company is being deleted; rollups carry no foreign key). */
    async deleteForCompany(companyId: string): Promise<number> {
      await k.deleteFrom('red_rollups_hourly').where('company_id', '=', companyId).execute();
      const r = await k.deleteFrom('red_rollups').where('company_id', '=', companyId).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Minute rows before beforeMs and the hours that ended by then; answers the minute rows deleted. */
    async deleteOlderThan(companyId: string, beforeMs: number): Promise<number> {
      await k
        .deleteFrom('red_rollups_hourly')
        .where('company_id', '=', companyId)
        .where('minute_ms', '<=', beforeMs - HOUR_MS)
        .execute();
      const r = await k.deleteFrom('red_rollups').where('company_id', '=', companyId).where('minute_ms', '<', beforeMs).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
