// SQL for a user's authenticator (TOTP) and recovery codes (SHA-256 hashes).
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { UserTotpTable } from '../schema/identity.ts';

export type UserTotpRow = Selectable<UserTotpTable>;

export function totpRepo(db: DbScope) {
  const k = db.k;
  return {
    find(userId: string): Promise<UserTotpRow | undefined> {
      return k.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst();
    },
    /** A new pending enrolment replaces any earlier pending one (never an enabled one). */
    async startEnrolment(userId: string, secretEnc: string, now: number): Promise<void> {
      await k.deleteFrom('user_totp').where('user_id', '=', userId).where('enabled_at', 'is', null).execute();
      await k.insertInto('user_totp').values({ user_id: userId, secret_enc: secretEnc, created_at: now }).execute();
    },
    async enable(userId: string, step: number, now: number): Promise<number> {
      const r = await k
        .updateTable('user_totp')
        .set({ enabled_at: now, last_step: step })
        .where('user_id', '=', userId)
        .where('enabled_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Accepts a time step once: 0 when this or a later step was accepted already (a replay). */
    async acceptStep(userId: string, step: number): Promise<number> {
      const r = await k
        .updateTable('user_totp')
        .set({ last_step: step })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async remove(userId: string): Promise<void> {
      await k.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
      await k.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    },
    /** Removes the authenticator app only; the recovery codes stay (they also stand in for passkeys). */
    async removeAuthenticator(userId: string): Promise<void> {
      await k.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    },
    /** Removes the recovery codes (the last second factor is gone). */
    async removeRecoveryCodes(userId: string): Promise<void> {
      await k.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
    },
    async replaceRecoveryCodes(userId: string, rows: Array<{ id: string; code_hash: string }>, now: number): Promise<void> {
      await k.deleteFrom('totp_recovery_codes').where('user_id', '=', userId).execute();
      await k
        .insertInto('totp_recovery_codes')
        .values(rows.map((r) => ({ ...r, user_id: userId, created_at: now })))
        .execute();
    },
    /** Spends a recovery code once: 0 when it is unknown, another user's or used. */
    async spendRecoveryCode(userId: string, codeHash: string, now: number): Promise<number> {
      const r = await k
        .updateTable('totp_recovery_codes')
        .set({ used_at: now })
        .where('user_id', '=', userId)
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    countUnusedRecoveryCodes(userId: string): Promise<number> {
      return k
        .selectFrom('totp_recovery_codes')
        .where('user_id', '=', userId)
        .where('used_at', 'is', null)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
  };
}
