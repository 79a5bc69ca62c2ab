// SQL for refresh tokens (stored as SHA-256 hashes) and the per-request session check.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { RefreshTokensTable } from '../schema/identity.ts';

export type RefreshTokenRow = Selectable<RefreshTokensTable>;

export interface SessionState {
  id: string;
  email: string;
  full_name: string;
  user_type: number;
  company_id: string | null;
  is_active: boolean;
  session_version: number;
  company_active: boolean | null;
  company_subdomain: string | null;
  /** refresh-token rows of the family that are neither revoked nor expired */
  live_tokens: number;
}

export function refreshTokensRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<RefreshTokensTable>): Promise<void> {
      await k.insertInto('refresh_tokens').values(row).execute();
    },
    findByHash(tokenHash: string): Promise<RefreshTokenRow | undefined> {
      return k.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    },
    /** Marks a token used; 0 when it was already used or revoked (a concurrent reuse). */
    async markUsed(id: string, now: number): Promise<number> {
      const r = await k
        .updateTable('refresh_tokens')
        .set({ used_at: now })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Whether a login session was started with "remember me". */
    async familyRemembered(familyId: string): Promise<boolean> {
      const r = await k
        .selectFrom('refresh_tokens')
        .select('remember')
        .where('family_id', '=', familyId)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
      return r?.remember === true;
    },
    async revokeFamily(familyId: string, now: number): Promise<void> {
      await k
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
    },
    async revokeUser(userId: string, now: number): Promise<void> {
      await k
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .execute();
    },
    async revokeCompany(companyId: string, now: number): Promise<void> {
      await k
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('revoked_at', 'is', null)
        .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('company_id', '=', companyId))
        .execute();
    },
    /** The user's live sessions: the one unused, unrevoked, unexpired token of each family, latest renewal first. */
    listLive(userId: string, now: number) {
      return k
        .selectFrom('refresh_tokens')
        .select(['family_id', 'host', 'user_agent', 'created_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .where('used_at', 'is', null)
        .where('expires_at', '>', now)
        .orderBy('created_at', 'desc')
        .orderBy('family_id')
        .execute();
    },
    /** Ends every session of the user but one (sign out other sessions). */
    async revokeUserExcept(userId: string, keepFamilyId: string, now: number): Promise<void> {
      await k
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('family_id', '!=', keepFamilyId)
        .where('revoked_at', 'is', null)
        .execute();
    },
    /** Expired or revoked rows older than `before` are of no further use. */
    async purge(before: number): Promise<void> {
      await k.deleteFrom('refresh_tokens').where('expires_at', '<', before).execute();
    },
    /** Everything the per-request session check needs, in one query. */
    sessionState(userId: string, familyId: string, now: number): Promise<SessionState | undefined> {
      return k
        .selectFrom('users as u')
        .leftJoin('companies as c', 'c.id', 'u.company_id')
        .select([
          'u.id',
          'u.email',
          'u.full_name',
          'u.user_type',
          'u.company_id',
          'u.is_active',
          'u.session_version',
          'c.is_active as company_active',
          'c.subdomain as company_subdomain',
        ])
        .select((eb) =>
          eb
            .selectFrom('refresh_tokens as r')
            .select((e2) => e2.fn.countAll<number>().as('n'))
            .where('r.family_id', '=', familyId)
            .where('r.user_id', '=', userId)
            .where('r.revoked_at', 'is', null)
            .where('r.expires_at', '>', now)
            .as('live_tokens'),
        )
        .where('u.id', '=', userId)
        .executeTakeFirst()
        .then((r) => (r ? { ...r, live_tokens: Number(r.live_tokens ?? 0) } : undefined));
    },
  };
}
