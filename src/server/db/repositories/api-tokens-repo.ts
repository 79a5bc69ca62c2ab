// SQL for API tokens (SHA-256 hashes only). A token is its user's credential: every list and
// revocation is limited to that user.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import type { ApiTokensTable } from '../schema/identity.ts';

export type ApiTokenRow = Selectable<ApiTokensTable>;

/** A token with the state of its user and company, for authenticating a request. */
export interface ApiTokenAuthRow {
  id: string;
  scope: 'read' | 'write';
  expires_at: number | null;
  revoked_at: number | null;
  last_used_at: number | null;
  user_id: string;
  email: string;
  full_name: string;
  user_type: number;
  company_id: string | null;
  is_active: boolean;
  company_active: boolean | null;
  company_subdomain: string | null;
}

export function apiTokensRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: Insertable<ApiTokensTable>): Promise<void> {
      await k.insertInto('api_tokens').values(row).execute();
    },
    /** The user's tokens that are not revoked, newest first (expired ones included, marked by the caller). */
    listForUser(userId: string): Promise<ApiTokenRow[]> {
      return k
        .selectFrom('api_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .execute();
    },
    countLiveForUser(userId: string): Promise<number> {
      return k
        .selectFrom('api_tokens')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    },
    findByHash(tokenHash: string): Promise<ApiTokenAuthRow | undefined> {
      return k
        .selectFrom('api_tokens as t')
        .innerJoin('users as u', 'u.id', 't.user_id')
        .leftJoin('companies as c', 'c.id', 'u.company_id')
        .select([
          't.id',
          't.scope',
          't.expires_at',
          't.revoked_at',
          't.last_used_at',
          'u.id as user_id',
          'u.email',
          'u.full_name',
          'u.user_type',
          'u.company_id',
          'u.is_active',
          'c.is_active as company_active',
          'c.subdomain as company_subdomain',
        ])
        .where('t.token_hash', '=', tokenHash)
        .executeTakeFirst();
    },
    /** Revokes one of the user's live tokens: 0 when there is none with that id. */
    async revoke(userId: string, id: string, now: number): Promise<number> {
      const r = await k
        .updateTable('api_tokens')
        .set({ revoked_at: now })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    /** Revokes every live token of a user (deactivation by SCIM): how many were revoked. */
    async revokeAllForUser(userId: string, now: number): Promise<number> {
      const r = await k
        .updateTable('api_tokens')
        .set({ revoked_at: now })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
    async touch(id: string, now: number): Promise<void> {
      await k.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
    },
  };
}
