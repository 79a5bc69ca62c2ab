// SQL for signups waiting for their email to be confirmed (codes stored as SHA-256 hashes).
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { PendingSignupsTable } from '../schema/identity.ts';

export type PendingSignupRow = Selectable<PendingSignupsTable>;

export function pendingSignupsRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<PendingSignupsTable>): Promise<void> {
      await k.insertInto('pending_signups').values(row).execute();
    },
    findByHash(codeHash: string): Promise<PendingSignupRow | undefined> {
      return k.selectFrom('pending_signups').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
    },
    /** Uses every open link of the email at once: 0 when this one was used already or has expired. */
    async consume(id: string, email: string, now: number): Promise<number> {
      const r = await k
        .updateTable('pending_signups')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 1)
        await k.updateTable('pending_signups').set({ used_at: now }).where('email', '=', email).where('used_at', 'is', null).execute();
      return Number(r.numUpdatedRows);
    },
    async purge(before: number): Promise<void> {
      await k.deleteFrom('pending_signups').where('expires_at', '<', before).execute();
    },
  };
}
