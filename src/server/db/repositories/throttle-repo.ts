// SQL for throttle_hits: the counted events of the sign-in, signup, password-reset and
// second-factor throttles, shared by every process on the database.
import type { DbScope } from '../scope.ts';

export function throttleRepo(db: DbScope) {
  const k = db.k;
  return {
    /** Times of the key's latest `limit` events after `from`, newest first. */
    async recent(scope: string, keyHash: string, from: number, limit: number): Promise<number[]> {
      const rows = await k
        .selectFrom('throttle_hits')
        .select('at')
        .where('scope', '=', scope)
        .where('key_hash', '=', keyHash)
        .where('at', '>', from)
        .orderBy('at', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => Number(r.at));
    },
    async add(scope: string, keyHash: string, at: number, expiresAt: number): Promise<void> {
      await k.insertInto('throttle_hits').values({ scope, key_hash: keyHash, at, expires_at: expiresAt }).execute();
    },
    async clear(scope: string, keyHash: string): Promise<void> {
      await k.deleteFrom('throttle_hits').where('scope', '=', scope).where('key_hash', '=', keyHash).execute();
    },
    /** Deletes the events that no longer count; answers how many. */
    async purge(now: number): Promise<number> {
      const r = await k.deleteFrom('throttle_hits').where('expires_at', '<=', now).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
