// SQL for hourly and daily rollups: read-merge-write inside the batch transaction (the rows of
// one batch's monitors are locked), and range reads for uptime, dashboards and status pages.
// Rows are keyed by the monitor's number and hold their latency figures as one binary value
// (migration 0114, src/lib/rollup-detail.ts); records keep the monitor's id and company.
import { decodeRollupDetail, decodeRollupDetailLive, encodeRollupDetail, type RollupDetail } from '../../../lib/rollup-detail.ts';
import type { LatencySketch } from '../../../lib/latency-sketch.ts';
import type { DbScope } from '../scope.ts';
import { anyOf } from './any-of.ts';
import { monitorNumbers } from './monitor-numbers.ts';
import { type BulkTable, upsertRows } from './bulk-rows.ts';
import type { CheckStatus } from '../schema/monitoring.ts';

export type RollupGrain = 'hourly' | 'daily';

export interface RollupRecord {
  monitor_id: string;
  company_id: string;
  start: number;
  checks: number;
  failures: number;
  degraded: number;
  maintenance: number;
  sum_response_ms: number;
  min_response_ms: number | null;
  max_response_ms: number | null;
  /** Latency sketch text of the timed responses ('' without any) */
  response_sketch: string;
  p95_response_ms: number | null;
  last_status: CheckStatus | null;
  last_http_code: number | null;
  last_checked_at: number | null;
  /** JSON PhaseSums (engine/rollup-math.ts); null in rows written before migration 0106 */
  phase_sums: string | null;
  /** The result writer's records: the sketch and phase sums as objects (their texts left empty) */
  sketch?: LatencySketch;
  phases?: Record<string, [number, number]>;
}

export const ROLLUP_TABLE = { hourly: 'monitor_rollups_hourly', daily: 'monitor_rollups_daily' } as const;
/** The column holding each grain's period start */
export const ROLLUP_START = { hourly: 'hour_start', daily: 'day_start' } as const;

/**
 * A grain's rollup rows (`r`) joined to their monitors (`m`): rows are keyed by the monitor's
 * number (migration 0114), readers filter and label them by its id and company.
 */
export function rollupsWithMonitors(db: DbScope, grain: RollupGrain) {
  return db.k.selectFrom(`${ROLLUP_TABLE[grain] as 'monitor_rollups_hourly'} as r`).innerJoin('monitors as m', 'm.num', 'r.monitor_num');
}

/** The columns every rollup table shares, with their PostgreSQL types (bulk-rows.ts) */
export const ROLLUP_COLUMNS = {
  checks: 'integer',
  failures: 'integer',
  degraded: 'integer',
  maintenance: 'integer',
  last_http_code: 'integer',
  data: 'bytea',
} as const;
const ROLLUP_VALUES = Object.keys(ROLLUP_COLUMNS) as Array<keyof typeof ROLLUP_COLUMNS>;

/** Each grain's table as putMany writes it */
const rollupRows = (grain: RollupGrain): BulkTable<string> => ({
  table: ROLLUP_TABLE[grain],
  columns: { monitor_num: 'integer', [ROLLUP_START[grain]]: 'bigint', ...ROLLUP_COLUMNS },
  key: ['monitor_num', ROLLUP_START[grain]],
  update: ROLLUP_VALUES,
});
const ROLLUP_ROWS: Record<RollupGrain, BulkTable<string>> = { hourly: rollupRows('hourly'), daily: rollupRows('daily') };

export interface StoredRow {
  monitor_id: string;
  company_id: string;
  start: number | string;
  checks: number;
  failures: number;
  degraded: number;
  maintenance: number;
  last_http_code: number | null;
  data: Uint8Array;
}

/**
 * A stored row as a record whose sketch and phase sums stay objects (`sketch`, `phases`), for the
 * result writer's read-add-write (rollup-detail.ts decodeRollupDetailLive says why): its
 * response_sketch is '' and its phase_sums null, only the writer reads it.
 */
export function toLiveRecord(row: StoredRow): RollupRecord & { sketch: LatencySketch } {
  const d = decodeRollupDetailLive(row.data, Number(row.start));
  return { ...d, ...countsOf(row), last_status: d.last_status as CheckStatus | null };
}

/** The columns SQL reads of a stored row (its detail is decoded by the callers). */
function countsOf(row: StoredRow) {
  return {
    monitor_id: row.monitor_id,
    company_id: row.company_id,
    start: Number(row.start),
    checks: row.checks,
    failures: row.failures,
    degraded: row.degraded,
    maintenance: row.maintenance,
    last_http_code: row.last_http_code,
  };
}

/**
 * The batch's keys by monitor number (the rollup tables' key), for the result writer's reads
 * (shared with location-rollups-repo.ts); keys of monitors not in `nums` are left out.
 */
export function keysByNum(
  keys: ReadonlyArray<{ monitorId: string; companyId: string }>,
  nums: ReadonlyMap<string, number>,
): Map<number, { monitorId: string; companyId: string }> {
  const byNum = new Map<number, { monitorId: string; companyId: string }>();
  for (const x of keys) {
    const num = nums.get(x.monitorId);
    if (num !== undefined) byNum.set(num, x);
  }
  return byNum;
}

/** A stored row as a record (shared with the per-location rollups, location-rollups-repo.ts). */
export function toRecord(row: StoredRow): RollupRecord {
  return {
    ...countsOf(row),
    ...(decodeRollupDetail(row.data, Number(row.start)) as Omit<RollupDetail, 'last_status'> & { last_status: CheckStatus | null }),
  };
}

/** A rollup row's own columns (`r`), as every reader of both rollup tables selects them */
export const ROW_COLUMNS = ['r.checks', 'r.failures', 'r.degraded', 'r.maintenance', 'r.last_http_code', 'r.data'] as const;

const STORED = ['m.id as monitor_id', 'm.company_id', ...ROW_COLUMNS] as const;

export function rollupsRepo(db: DbScope) {
  const k = db.k;
  return {
    /**
     * The rows of these (monitor, start) keys, by the monitors' numbers (`nums`, from the rows the
     * caller read). Not locked: their one writer, the result writer, holds its monitors' rows
     * locked (monitors-repo.ts lockForState) for the whole transaction, so two writers of one
     * monitor's rollups take turns there.
     */
    async getMany(
      grain: RollupGrain,
      keys: Array<{ monitorId: string; companyId: string; start: number }>,
      nums: ReadonlyMap<string, number>,
    ): Promise<RollupRecord[]> {
      const byNum = keysByNum(keys, nums);
      if (byNum.size === 0) return [];
      const key = ROLLUP_START[grain] as 'hour_start';
      const rows = await k
        .selectFrom(`${ROLLUP_TABLE[grain] as 'monitor_rollups_hourly'} as r`)
        .select(['r.monitor_num', `r.${key} as start`, ...ROW_COLUMNS])
        .where(anyOf(db, 'r.monitor_num', [...byNum.keys()], 'bigint'))
        .where(anyOf(db, `r.${key}`, [...new Set(keys.map((x) => x.start))], 'bigint'))
        .execute();
      return rows.map((row) => {
        const m = byNum.get(Number(row.monitor_num))!;
        return toLiveRecord({ ...row, monitor_id: m.monitorId, company_id: m.companyId });
      });
    },
    /**
     * Inserts or replaces rows in one statement (records of deleted monitors are dropped).
     * `known` maps monitor ids to their numbers when the caller has the monitor rows already.
     */
    async putMany(grain: RollupGrain, recs: RollupRecord[], known?: ReadonlyMap<string, number>): Promise<void> {
      if (recs.length === 0) return;
      const key = ROLLUP_START[grain];
      const ids = [...new Set(recs.map((r) => r.monitor_id))];
      const nums = known && ids.every((id) => known.has(id)) ? known : await monitorNumbers(db, ids);
      const values = recs
        .filter((r) => nums.has(r.monitor_id))
        .map((r) => ({
          monitor_num: nums.get(r.monitor_id)!,
          [key]: r.start,
          checks: r.checks,
          failures: r.failures,
          degraded: r.degraded,
          maintenance: r.maintenance,
          last_http_code: r.last_http_code,
          data: encodeRollupDetail(r, r.start),
        }));
      if (values.length === 0) return;
      await upsertRows(db, ROLLUP_ROWS[grain], values);
    },
    async range(grain: RollupGrain, monitorIds: string[], from: number, to: number): Promise<RollupRecord[]> {
      if (monitorIds.length === 0) return [];
      const key = ROLLUP_START[grain] as 'hour_start';
      const rows = await rollupsWithMonitors(db, grain)
        .select([...STORED, `r.${key} as start`])
        .where('m.id', 'in', monitorIds)
        .where(`r.${key}`, '>=', from)
        .where(`r.${key}`, '<', to)
        .orderBy(`r.${key}`)
        .execute();
      return rows.map(toRecord);
    },
  };
}
