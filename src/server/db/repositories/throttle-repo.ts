// SQL for throttle_hits: the counted events of the sign-in, signup, password-reset,
// second-factor and subscription-mail throttles, shared by every process on the database.
import { sql } from 'kysely';
import { withTransaction, type DbScope } from '../scope.ts';

/** Thrown inside addUnderLimit's transaction to undo its insert. */
class OverLimit extends Error {
  readonly recent: number[];
  constructor(recent: number[]) {
    super('over the limit');
    this.recent = recent;
  }
}

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
    /**
     * Adds an event unless the key has `limit` events after `from` already, as one step for all
     * processes (PostgreSQL: an advisory lock on the key; SQLite: the insert takes the database's
     * write lock before the count). Answers null when added, else the latest `limit` times.
     */
    async addUnderLimit(
      scope: string,
      keyHash: string,
      from: number,
      limit: number,
      at: number,
      expiresAt: number,
    ): Promise<number[] | null> {
      try {
        await withTransaction(db, async (tx) => {
          if (tx.kind === 'postgres') await sql`select pg_advisory_xact_lock(hashtextextended(${`${scope}\n${keyHash}`}, 0))`.execute(tx.k);
          await tx.k.insertInto('throttle_hits').values({ scope, key_hash: keyHash, at, expires_at: expiresAt }).execute();
          const times = await throttleRepo(tx).recent(scope, keyHash, from, limit + 1);
          if (times.length > limit) throw new OverLimit(times.slice(1));
        });
        return null;
      } catch (e) {
        if (e instanceof OverLimit) return e.recent;
        throw e;
      }
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
