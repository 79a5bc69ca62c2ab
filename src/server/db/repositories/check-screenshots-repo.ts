// SQL for browser checks' screenshots (migration 0128): kept by the result writer, read one by
// one through the API (tenant-scoped), pruned by age and by each company's byte budget.
import type { DbScope } from '../scope.ts';

export interface NewScreenshot {
  id: string;
  company_id: string;
  monitor_id: string;
  checked_at: number;
  step_index: number;
  png: Buffer;
}

export function checkScreenshotsRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(rows: readonly NewScreenshot[]): Promise<void> {
      if (rows.length === 0) return;
      await k
        .insertInto('check_screenshots')
        .values(rows.map((r) => ({ ...r, size: r.png.length })))
        .execute();
    },
    /** The image of the monitor's screenshot in the company (undefined: none such there). */
    async find(companyId: string | null, monitorId: string, id: string): Promise<{ png: Buffer; checked_at: number } | undefined> {
      let q = k.selectFrom('check_screenshots').select(['png', 'checked_at']).where('id', '=', id).where('monitor_id', '=', monitorId);
      if (companyId) q = q.where('company_id', '=', companyId);
      const row = await q.executeTakeFirst();
      return row ? { png: Buffer.from(row.png), checked_at: Number(row.checked_at) } : undefined;
    },
    /** Deletes every image taken before `before`; answers how many. */
    async deleteOlderThan(before: number): Promise<number> {
      const r = await k.deleteFrom('check_screenshots').where('checked_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /** Each company's bytes kept, with its plan. */
    async bytesByCompany(): Promise<Array<{ company_id: string; plan: string | null; bytes: number }>> {
      const rows = await k
        .selectFrom('check_screenshots')
        .innerJoin('companies', 'companies.id', 'check_screenshots.company_id')
        .select((eb) => ['check_screenshots.company_id', 'companies.plan', eb.fn.sum<number>('check_screenshots.size').as('bytes')])
        .groupBy(['check_screenshots.company_id', 'companies.plan'])
        .execute();
      return rows.map((r) => ({ company_id: r.company_id, plan: r.plan, bytes: Number(r.bytes) }));
    },
    /**
     * Deletes the company's oldest images until at most `budget` bytes are kept; answers how many.
     * Reads ids and sizes only, newest first, and keeps what fits.
     */
    async trimToBudget(companyId: string, budget: number): Promise<number> {
      const rows = await k
        .selectFrom('check_screenshots')
        .select(['id', 'size'])
        .where('company_id', '=', companyId)
        .orderBy('checked_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      let kept = 0;
      const drop: string[] = [];
      for (const r of rows) {
        if (drop.length === 0 && kept + Number(r.size) <= budget) kept += Number(r.size);
        else drop.push(r.id);
      }
      for (let i = 0; i < drop.length; i += 500)
        await k
          .deleteFrom('check_screenshots')
          .where('id', 'in', drop.slice(i, i + 500))
          .execute();
      return drop.length;
    },
  };
}
