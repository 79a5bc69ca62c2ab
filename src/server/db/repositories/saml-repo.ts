// SQL of SAML sign-in (migration 0011): the replay cache of accepted assertion IDs, the SAML
// requests out at the identity provider (rows of sso_requests whose nonce is the AuthnRequest ID),
// and the users single sign-on created just in time (any protocol).
import type { DbScope } from '../scope.ts';
import type { SsoRequestRow } from './company-sso-repo.ts';

export function samlReplayRepo(db: DbScope) {
  const k = db.k;
  return {
    /**
     * Records an accepted assertion; false when this company already accepted that ID (a replay).
     * The primary key decides, so two processes receiving the same assertion cannot both accept it.
     */
    async remember(companyId: string, assertionId: string, expiresAt: number, now: number): Promise<boolean> {
      await k.deleteFrom('saml_assertions_seen').where('expires_at', '<', now).execute();
      const r = await k
        .insertInto('saml_assertions_seen')
        .values({ company_id: companyId, assertion_id: assertionId, expires_at: expiresAt })
        .onConflict((oc) => oc.columns(['company_id', 'assertion_id']).doNothing())
        .executeTakeFirst();
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}

export function samlRequestsRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The company's SAML request with this AuthnRequest ID (used or not: the caller says which). */
    find(companyId: string, requestId: string): Promise<SsoRequestRow | undefined> {
      return k
        .selectFrom('sso_requests')
        .selectAll()
        .where('company_id', '=', companyId)
        .where('protocol', '=', 'saml')
        .where('nonce', '=', requestId)
        .executeTakeFirst();
    },
  };
}

export function ssoJitUsersRepo(db: DbScope) {
  const k = db.k;
  return {
    async insert(row: { user_id: string; company_id: string; protocol: string; subject: string; created_at: number }): Promise<void> {
      await k.insertInto('sso_jit_users').values(row).execute();
    },
    async isJit(userId: string, companyId: string): Promise<boolean> {
      const r = await k
        .selectFrom('sso_jit_users')
        .select('user_id')
        .where('user_id', '=', userId)
        .where('company_id', '=', companyId)
        .executeTakeFirst();
      return r !== undefined;
    },
  };
}
