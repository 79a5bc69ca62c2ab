// SQL for the leases of timed jobs: taking a job's lease is one atomic UPDATE that succeeds only
// when the lease is free, expired or already ours, so of several processes racing for the same
// period exactly one wins (row lock on PostgreSQL, the single writer on SQLite).
import type { Db } from '../connect.ts';

export function jobLeasesRepo(db: Db) {
  const k = db.k;
  return {
    /** Holds `name` for `holder` until `until` when nobody else holds it at `now`; answers whether it did. */
    async acquire(name: string, holder: string, now: number, until: number): Promise<boolean> {
      // A job's row appears on its first attempt: adding a job needs no migration.
      await k
        .insertInto('job_leases')
        .values({ name, holder: '', expires_at: 0 })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      const r = await k
        .updateTable('job_leases')
        .set({ holder, expires_at: until })
        .where('name', '=', name)
        .where((eb) => eb.or([eb('expires_at', '<=', now), eb('holder', '=', holder)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    /** When the current holder's lease of `name` ends (0 when nobody ever held it). */
    async expiresAt(name: string): Promise<number> {
      const row = await k.selectFrom('job_leases').select('expires_at').where('name', '=', name).executeTakeFirst();
      return Number(row?.expires_at ?? 0);
    },
  };
}
