// SQL for check results: batched inserts of recent results (rows), their compaction into one
// chunk per monitor and UTC hour (src/lib/check-chunk.ts), a monitor's history read from both,
// and retention pruning.
import { sql, type ExpressionBuilder, type Insertable, type Selectable } from 'kysely';
import type { Database } from '../schema/index.ts';
import { decodeChecks, encodeChecks, type ChunkCheck } from '../../../lib/check-chunk.ts';
import { HOUR_MS, hourStart } from '../../../lib/timeline.ts';
import { PLAN_NAMES } from '../../../lib/plans.ts';
import type { DbScope } from '../scope.ts';
import { monitorNumbers } from './monitor-numbers.ts';
import type { CheckResultsTable, CheckStatus } from '../schema/monitoring.ts';
import { upsertRows, type BulkTable } from './bulk-rows.ts';

/** check_results as the result writer inserts it */
const CHECK_ROWS: BulkTable<keyof CheckResultsTable & string> = {
  table: 'check_results',
  columns: {
    monitor_id: 'varchar',
    checked_at: 'bigint',
    company_id: 'varchar',
    status: 'varchar',
    response_time_ms: 'real',
    http_code: 'integer',
    error: 'varchar',
    timings: 'text',
    cert_expires_at: 'bigint',
    location: 'integer',
  },
  key: ['monitor_id', 'checked_at'],
  update: 'nothing',
};

export type CheckRow = Selectable<CheckResultsTable>;

/** Chunks read per query while walking a monitor's history backwards. */
const CHUNK_PAGE = 8;

const toChunkCheck = (r: CheckRow): ChunkCheck => ({
  checked_at: Number(r.checked_at),
  status: r.status,
  response_time_ms: r.response_time_ms,
  http_code: r.http_code,
  error: r.error,
  timings: r.timings,
  cert_expires_at: r.cert_expires_at === null ? null : Number(r.cert_expires_at),
  location: Number(r.location),
});

const fromChunkCheck = (monitorId: string, companyId: string, c: ChunkCheck): CheckRow => ({
  monitor_id: monitorId,
  checked_at: c.checked_at,
  company_id: companyId,
  status: c.status as CheckStatus,
  response_time_ms: c.response_time_ms,
  http_code: c.http_code,
  error: c.error,
  timings: c.timings,
  cert_expires_at: c.cert_expires_at,
  location: c.location,
});

/** Rows of check_chunks whose (monitor number, hour) key is one of these. */
const chunkKeyIn = (keys: Array<{ monitorNum: number; start: number }>) => (eb: ExpressionBuilder<Database, 'check_chunks'>) =>
  eb.or(keys.map((g) => eb.and([eb('monitor_num', '=', g.monitorNum), eb('chunk_start', '=', g.start)])));

export function checksRepo(db: DbScope) {
  const k = db.k;
  const monitorsOf = <C extends 'id' | 'num'>(plan: string, defaultPlan: boolean, column: C) =>
    k
      .selectFrom('monitors')
      .select(`monitors.${column}` as `monitors.${C}`)
      .where('monitors.company_id', 'in', (eb) =>
        eb
          .selectFrom('companies')
          .select('companies.id')
          .where((w) => (defaultPlan ? w.or([w('plan', '=', plan), w('plan', 'not in', [...PLAN_NAMES])]) : w('plan', '=', plan))),
      );
  return {
    async insertMany(rows: Insertable<CheckResultsTable>[]): Promise<void> {
      if (rows.length === 0) return;
      // Same monitor and millisecond twice (a heartbeat and a scheduled check) keeps the first.
      await upsertRows(
        db,
        CHECK_ROWS,
        rows.map((r) => ({ ...r, location: r.location ?? 0 })),
      );
    },

    /**
     * A monitor's results, newest first, from the recent rows and the chunks together; only the
     * chunks that can hold one of the `limit` newest results are read and decoded.
     */
    async list(monitorId: string, opts: { limit: number; before?: number; since?: number; location?: number }): Promise<CheckRow[]> {
      const { limit, before, since, location } = opts;
      const inRange = (t: number) => (before === undefined || t < before) && (since === undefined || t >= since);
      let q = k.selectFrom('check_results').selectAll().where('monitor_id', '=', monitorId);
      if (before !== undefined) q = q.where('checked_at', '<', before);
      if (since !== undefined) q = q.where('checked_at', '>=', since);
      if (location !== undefined) q = q.where('location', '=', location);
      const rows = await q.orderBy('checked_at', 'desc').limit(limit).execute();
      const byTime = new Map(rows.map((r) => [Number(r.checked_at), r]));
      let found = rows.map((r) => Number(r.checked_at));

      // Chunks are keyed by the monitor's number (migration 0115).
      const monitor = await k.selectFrom('monitors').select(['num', 'company_id']).where('id', '=', monitorId).executeTakeFirst();
      if (!monitor) return rows;
      let below = before; // chunks starting before this
      for (;;) {
        let cq = k.selectFrom('check_chunks').select(['chunk_start', 'data']).where('monitor_num', '=', Number(monitor.num));
        if (below !== undefined) cq = cq.where('chunk_start', '<', below);
        if (since !== undefined) cq = cq.where('chunk_start', '>', since - HOUR_MS);
        const chunks = await cq.orderBy('chunk_start', 'desc').limit(CHUNK_PAGE).execute();
        for (const c of chunks) {
          const start = Number(c.chunk_start);
          // Everything in this chunk (and older ones) is older than the limit-th result found.
          if (found.length >= limit && found[limit - 1] >= start + HOUR_MS) return found.slice(0, limit).map((t) => byTime.get(t)!);
          for (const check of decodeChecks(c.data)) {
            if (!inRange(check.checked_at)) continue;
            const row = fromChunkCheck(monitorId, monitor.company_id, check);
            if (location !== undefined && row.location !== location) continue;
            // A row of the same millisecond as a compacted check came second: the first one stays.
            byTime.set(check.checked_at, row);
          }
          found = [...byTime.keys()].sort((a, b) => b - a);
          below = start;
        }
        if (chunks.length < CHUNK_PAGE) return found.slice(0, limit).map((t) => byTime.get(t)!);
      }
    },

    /**
     * Moves the rows of these monitors checked before `cutoff` into their hours' chunks, merging
     * with a chunk already there. The rows are deleted by the same statement that reads them
     * (DELETE ... RETURNING), so a row written meanwhile is either moved or left, never lost;
     * run it in a transaction, so a crash leaves rows and chunks as they were. Answers the
     * number of checks moved. One compactor at a time (the job's lease): two would race on a chunk.
     */
    async compact(monitorIds: string[], cutoff: number): Promise<number> {
      if (monitorIds.length === 0) return 0;
      const moved = await k
        .deleteFrom('check_results')
        .where('monitor_id', 'in', monitorIds)
        .where('checked_at', '<', cutoff)
        .returningAll()
        .execute();
      if (moved.length === 0) return 0;
      const nums = await monitorNumbers(db, [...new Set(moved.map((r) => r.monitor_id))]);
      const groups = new Map<string, { monitorNum: number; start: number; rows: CheckRow[] }>();
      for (const r of moved) {
        const monitorNum = nums.get(r.monitor_id);
        // The monitor was deleted meanwhile: its rows go with it, as its chunks do.
        if (monitorNum === undefined) continue;
        const start = hourStart(Number(r.checked_at));
        const key = `${monitorNum}:${start}`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { monitorNum, start, rows: [] }));
        g.rows.push(r);
      }
      const existing = new Map<string, Uint8Array>();
      const wanted = [...groups.values()];
      for (let i = 0; i < wanted.length; i += 200) {
        const part = wanted.slice(i, i + 200);
        const found = await k.selectFrom('check_chunks').select(['monitor_num', 'chunk_start', 'data']).where(chunkKeyIn(part)).execute();
        for (const c of found) existing.set(`${c.monitor_num}:${Number(c.chunk_start)}`, c.data);
      }
      const values = [...groups].map(([key, g]) => {
        const old = existing.get(key);
        const checks = old ? decodeChecks(old) : [];
        // Two locations may check in the same millisecond: a check is its time and location.
        const seen = new Set(checks.map((c) => `${c.location}:${c.checked_at}`));
        for (const r of g.rows) if (!seen.has(`${r.location}:${r.checked_at}`)) checks.push(toChunkCheck(r));
        checks.sort((a, b) => a.checked_at - b.checked_at);
        return {
          monitor_num: g.monitorNum,
          chunk_start: g.start,
          checks: checks.length,
          data: encodeChecks(checks),
        };
      });
      // A closed hour's chunk is written anew (deleted, then inserted) rather than updated: it
      // lands densely at the table's end, and the pages the growing chunk of the open hour
      // fragmented go back to be reused by the next open hour (SQLite; 1.5 bytes a check).
      const closed = values.filter((v) => v.chunk_start + HOUR_MS <= cutoff && existing.has(`${v.monitor_num}:${v.chunk_start}`));
      for (let i = 0; i < closed.length; i += 200) {
        const part = closed.slice(i, i + 200);
        await k
          .deleteFrom('check_chunks')
          .where(chunkKeyIn(part.map((v) => ({ monitorNum: v.monitor_num, start: v.chunk_start }))))
          .execute();
      }
      // Closed hours first, then the open hour's chunks: interleaved, each open chunk growing in
      // place over the next hour split the pages of the closed ones beside it (SQLite: 20 bytes
      // a check on a second day instead of 11 with a one-minute grace).
      const ordered = [...values].sort((a, b) => a.chunk_start - b.chunk_start);
      for (let i = 0; i < ordered.length; i += 200) {
        await k
          .insertInto('check_chunks')
          .values(ordered.slice(i, i + 200))
          .onConflict((oc) =>
            oc
              .columns(['monitor_num', 'chunk_start'])
              .doUpdateSet((eb) => ({ checks: eb.ref('excluded.checks'), data: eb.ref('excluded.data') })),
          )
          .execute();
      }
      return moved.length;
    },

    /** Monitors (by id, after `afterId`) that have rows checked before `cutoff`: the compactor's next batch. */
    async monitorsWithRowsBefore(cutoff: number, afterId: string | null, limit: number): Promise<string[]> {
      let q = k
        .selectFrom('monitors')
        .select('id')
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('check_results')
              .select(sql`1`.as('x'))
              .whereRef('check_results.monitor_id', '=', 'monitors.id')
              .where('check_results.checked_at', '<', cutoff),
          ),
        );
      if (afterId !== null) q = q.where('id', '>', afterId);
      return (await q.orderBy('id').limit(limit).execute()).map((r) => r.id);
    },

    /**
     * Deletes results older than each company's plan retention: rows checked before `cutoff` and
     * whole chunks whose hour ended by then (a chunk across the cutoff waits for the next hour).
     * Answers the number of checks deleted.
     */
    async pruneOlderThan(plan: string, cutoff: number, defaultPlan: boolean): Promise<number> {
      const rows = await k
        .deleteFrom('check_results')
        .where('monitor_id', 'in', monitorsOf(plan, defaultPlan, 'id'))
        .where('checked_at', '<', cutoff)
        .executeTakeFirst();
      const chunks = await k
        .deleteFrom('check_chunks')
        .where('monitor_num', 'in', monitorsOf(plan, defaultPlan, 'num'))
        .where('chunk_start', '<=', cutoff - HOUR_MS)
        .returning('checks')
        .execute();
      return Number(rows.numDeletedRows) + chunks.reduce((a, c) => a + c.checks, 0);
    },

    /**
     * PostgreSQL: vacuums the tables a compaction just changed, so the space of the rows it moved
     * (most of `check_results`) and of the chunks' old versions is reused by the next minutes'
     * writes at once rather than when autovacuum comes round (the rows waiting for it were the
     * largest fixed cost of check storage). Only pages changed since the last vacuum are read.
     * Nothing to do on SQLite, which reuses freed pages itself. Must run outside a transaction.
     */
    async reclaimSpace(): Promise<void> {
      if (db.kind !== 'postgres') return;
      await sql`vacuum (skip_locked) check_results, check_chunks`.execute(k);
    },

    /** Checks stored, rows and compacted. */
    async count(): Promise<number> {
      const r = await k.selectFrom('check_results').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
      const c = await k.selectFrom('check_chunks').select(sql<number>`coalesce(sum(checks), 0)`.as('n')).executeTakeFirstOrThrow();
      return Number(r.n) + Number(c.n);
    },
  };
}
