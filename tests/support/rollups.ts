// Seeds monitor rollups the way the result writer stores them (rollupsRepo.putMany: keyed by the
// monitor's number, latency figures in the binary `data` value), from rows in the shape of the
// rollup records, with the fields a test does not care about left empty.
import type { DbScope } from '../../src/server/db/scope.ts';
import { rollupsRepo, type RollupGrain, type RollupRecord } from '../../src/server/db/repositories/rollups-repo.ts';

export type SeedRollup = Partial<Omit<RollupRecord, 'start' | 'company_id'>> & {
  monitor_id: string;
  company_id?: string;
  hour_start?: number;
  day_start?: number;
};

export async function insertRollups(db: DbScope, grain: RollupGrain, rows: SeedRollup | SeedRollup[]): Promise<void> {
  const list = Array.isArray(rows) ? rows : [rows];
  await rollupsRepo(db).putMany(
    grain,
    list.map(({ hour_start, day_start, ...r }) => ({
      company_id: '',
      checks: 0,
      failures: 0,
      degraded: 0,
      maintenance: 0,
      sum_response_ms: 0,
      min_response_ms: null,
      max_response_ms: null,
      response_sketch: '',
      p95_response_ms: null,
      last_status: null,
      last_http_code: null,
      last_checked_at: null,
      phase_sums: null,
      ...r,
      start: (grain === 'hourly' ? hour_start : day_start) as number,
    })),
  );
}

/** One stored rollup row read back through the repository (null when there is none). */
export async function readRollup(db: DbScope, grain: RollupGrain, monitorId: string, start: number): Promise<RollupRecord | null> {
  const m = await db.k.selectFrom('monitors').select(['num', 'company_id']).where('id', '=', monitorId).executeTakeFirst();
  if (!m) return null;
  return (
    (await rollupsRepo(db).getMany(grain, [{ monitorId, companyId: m.company_id, start }], new Map([[monitorId, Number(m.num)]])))[0] ??
    null
  );
}
