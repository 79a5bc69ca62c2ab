// SQL for the hourly rollups of each location of a monitor (monitor_location_rollups_hourly,
// migration 0119): the same columns and binary detail as the monitor's own hourly rollups
// (rollups-repo.ts), keyed by monitor number, location and hour. They give a location's own
// uptime and latency; the monitor's rollups hold the quorum's view.
import { encodeRollupDetail } from '../../../lib/rollup-detail.ts';
import type { DbScope } from '../scope.ts';
import { anyOf } from './any-of.ts';
import { keysByNum, ROLLUP_COLUMNS, ROW_COLUMNS, toLiveRecord, toRecord, type RollupRecord } from './rollups-repo.ts';
import { type BulkTable, upsertRows } from './bulk-rows.ts';

const LOCATION_ROLLUP_ROWS: BulkTable<string> = {
  table: 'monitor_location_rollups_hourly',
  columns: { monitor_num: 'integer', location: 'integer', hour_start: 'bigint', ...ROLLUP_COLUMNS },
  key: ['monitor_num', 'location', 'hour_start'],
  update: Object.keys(ROLLUP_COLUMNS),
};

export interface LocationRollupRecord extends RollupRecord {
  location: number;
}

const STORED = ['m.id as monitor_id', 'm.company_id', 'r.location', 'r.hour_start as start', ...ROW_COLUMNS] as const;

export function locationRollupsRepo(db: DbScope) {
  const k = db.k;
  const joined = () => k.selectFrom('monitor_location_rollups_hourly as r').innerJoin('monitors as m', 'm.num', 'r.monitor_num');
  return {
    /**
     * The rows of these (monitor, location, hour) keys, by the monitors' numbers; not locked, as
     * the monitor's own rollups are not (rollups-repo.ts getMany says why).
     */
    async getMany(
      keys: Array<{ monitorId: string; companyId: string; location: number; start: number }>,
      nums: ReadonlyMap<string, number>,
    ): Promise<LocationRollupRecord[]> {
      const byNum = keysByNum(keys, nums);
      if (byNum.size === 0) return [];
      const rows = await k
        .selectFrom('monitor_location_rollups_hourly as r')
        .select(['r.monitor_num', 'r.location', 'r.hour_start as start', ...ROW_COLUMNS])
        .where(anyOf(db, 'r.monitor_num', [...byNum.keys()], 'bigint'))
        .where(anyOf(db, 'r.location', [...new Set(keys.map((x) => x.location))], 'integer'))
        .where(anyOf(db, 'r.hour_start', [...new Set(keys.map((x) => x.start))], 'bigint'))
        .execute();
      return rows.map((row) => {
        const m = byNum.get(Number(row.monitor_num))!;
        return { ...toLiveRecord({ ...row, monitor_id: m.monitorId, company_id: m.companyId }), location: Number(row.location) };
      });
    },
    /** Inserts or replaces rows; `nums` maps monitor ids to their numbers (records of others are dropped). */
    async putMany(recs: LocationRollupRecord[], nums: ReadonlyMap<string, number>): Promise<void> {
      const values = recs
        .filter((r) => nums.has(r.monitor_id))
        .map((r) => ({
          monitor_num: nums.get(r.monitor_id)!,
          location: r.location,
          hour_start: r.start,
          checks: r.checks,
          failures: r.failures,
          degraded: r.degraded,
          maintenance: r.maintenance,
          last_http_code: r.last_http_code,
          data: encodeRollupDetail(r, r.start),
        }));
      if (values.length === 0) return;
      await upsertRows(db, LOCATION_ROLLUP_ROWS, values);
    },
    /** A monitor's rows of every location within [from, to), oldest first. */
    async range(monitorIds: string[], from: number, to: number): Promise<LocationRollupRecord[]> {
      if (monitorIds.length === 0) return [];
      const rows = await joined()
        .select([...STORED])
        .where('m.id', 'in', monitorIds)
        .where('r.hour_start', '>=', from)
        .where('r.hour_start', '<', to)
        .orderBy('r.hour_start')
        .execute();
      return rows.map((row) => ({ ...toRecord(row), location: Number(row.location) }));
    },
  };
}
