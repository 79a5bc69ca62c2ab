// SQL for the ids of results taken from a location's probes (issue 27, probe_results_seen), so a
// batch sent again after a lost answer is stored once.
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';

export function probeResultsSeenRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Records the ids; answers those not seen before (the others were taken already). */
    async claim(location: number, ids: string[], now: number): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      // PostgreSQL takes the whole list as one array parameter: one short statement to parse and
      // bind instead of 1,500 parameters a chunk (a delivery's ids arrive 1,000 at a time).
      if (db.kind === 'postgres') {
        const rows = await sql<{ result_id: string }>`
          insert into probe_results_seen (location, result_id, received_at)
          select ${location}, id, ${now} from unnest(${ids}::text[]) as id
          on conflict (location, result_id) do nothing
          returning result_id`.execute(k);
        return new Set(rows.rows.map((r) => r.result_id));
      }
      const fresh = new Set<string>();
      // Chunks keep each statement under SQLite's and PostgreSQL's parameter limits.
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await k
          .insertInto('probe_results_seen')
          .values(ids.slice(i, i + 500).map((result_id) => ({ location, result_id, received_at: now })))
          .onConflict((oc) => oc.columns(['location', 'result_id']).doNothing())
          .returning('result_id')
          .execute();
        for (const r of rows) fresh.add(r.result_id);
      }
      return fresh;
    },
    /** Forgets ids received before `before`; answers how many. */
    async prune(before: number): Promise<number> {
      const r = await k.deleteFrom('probe_results_seen').where('received_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
