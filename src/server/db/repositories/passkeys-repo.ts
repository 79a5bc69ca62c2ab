// SQL for a user's passkeys (WebAuthn credentials) and the challenges issued for them.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { UserPasskeysTable, WebauthnChallengesTable } from '../schema/identity.ts';

export type PasskeyRow = Selectable<UserPasskeysTable>;
export type ChallengeRow = Selectable<WebauthnChallengesTable>;

export function passkeysRepo(db: DbScope) {
  const k = db.k;
  return {
    listForUser(userId: string): Promise<PasskeyRow[]> {
      return k.selectFrom('user_passkeys').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id').execute();
    },
    countForUser(userId: string): Promise<number> {
      return k
        .selectFrom('user_passkeys')
        .where('user_id', '=', userId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
    /** One of the user's own passkeys; another user's id reads as missing. */
    findOwn(userId: string, id: string): Promise<PasskeyRow | undefined> {
      return k.selectFrom('user_passkeys').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    },
    findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
      return k.selectFrom('user_passkeys').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
    },
    async insert(row: Insertable<UserPasskeysTable>): Promise<void> {
      await k.insertInto('user_passkeys').values(row).execute();
    },
    async rename(userId: string, id: string, name: string): Promise<number> {
      const r = await k.updateTable('user_passkeys').set({ name }).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async remove(userId: string, id: string): Promise<number> {
      const r = await k.deleteFrom('user_passkeys').where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
    /**
     * Records a use: the counter moves only forward. 0 when another sign-in with the same or a
     * higher counter got there first (a cloned authenticator racing the real one).
     */
    async recordUse(id: string, seenCounter: number, newCounter: number, now: number): Promise<number> {
      const r = await k
        .updateTable('user_passkeys')
        .set({ counter: newCounter, last_used_at: now })
        .where('id', '=', id)
        .where('counter', '=', seenCounter)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async insertChallenge(row: ChallengeRow): Promise<void> {
      await k.insertInto('webauthn_challenges').values(row).execute();
    },
    /** Takes a challenge once: whoever deletes it owns it; a second caller gets nothing. */
    async consumeChallenge(id: string): Promise<ChallengeRow | undefined> {
      const row = await k.selectFrom('webauthn_challenges').selectAll().where('id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const r = await k.deleteFrom('webauthn_challenges').where('id', '=', id).executeTakeFirst();
      return Number(r.numDeletedRows) === 1 ? row : undefined;
    },
    async purgeChallenges(now: number): Promise<void> {
      await k.deleteFrom('webauthn_challenges').where('expires_at', '<=', now).execute();
    },
  };
}
