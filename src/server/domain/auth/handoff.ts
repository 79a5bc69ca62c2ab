// Moving a signed-in user between the main host and a company subdomain: a one-time code
// (60 s, single use, bound to the user and the target host) instead of any shared cookie.
import type { Services } from '../context.ts';
import { newId } from '../ids.ts';
import { authCodesRepo } from '../../db/repositories/auth-codes-repo.ts';
import { usersRepo, type UserRow } from '../../db/repositories/users-repo.ts';
import { HANDOFF_SECONDS, hashSecret, newSecret } from './tokens.ts';
import { assertMaySignIn, issueSession, type IssuedSession } from './sessions.ts';
import { recordAudit } from '../audit/record.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';

/** Written in `db`: the transaction of the sign-in or change that hands the user over, or its own. */
export async function createHandoffCode(
  services: Services,
  user: UserRow,
  targetHost: string,
  remember: boolean,
  db: DbScope = services.db,
): Promise<string> {
  const now = services.now();
  const secret = newSecret();
  await authCodesRepo(db).insert({
    id: newId(),
    kind: 'handoff',
    code_hash: secret.hash,
    user_id: user.id,
    host: targetHost,
    remember,
    session_version: user.session_version,
    created_at: now,
    expires_at: now + HANDOFF_SECONDS * 1000,
    used_at: null,
  });
  return secret.value;
}

/** Redeems a handoff code on this host; null when it is unknown, used, expired or for another host. */
export async function redeemHandoffCode(
  services: Services,
  code: string,
  host: string,
  userAgent: string,
  ip: string,
): Promise<{ session: IssuedSession; user: UserRow } | null> {
  if (!code || code.length > 200) return null;
  const repo = authCodesRepo(services.db);
  const row = await repo.findByHash('handoff', hashSecret(code));
  if (!row || row.host !== host) return null;
  if ((await repo.consume(row.id, services.now())) === 0) return null;
  const user = await usersRepo(services.db).findById(row.user_id);
  if (!user || user.session_version !== row.session_version) return null;
  try {
    await assertMaySignIn(services, user);
  } catch {
    return null;
  }
  // A new session on this host, logged like a password sign-in (with how it came about); the
  // session and its audit row commit together.
  const session = await withTransaction(services.db, async (tx) => {
    const issued = await issueSession(services, user, host, { remember: row.remember, userAgent }, tx);
    await recordAudit(tx, services, {
      event: 'user_login',
      source: 'server',
      userId: user.id,
      userRole: issued.claims.role,
      tenantId: user.company_id,
      sessionId: issued.familyId,
      userAgent,
      ip,
      details: { host, remember: row.remember, via: 'handoff' },
    });
    return issued;
  });
  return { session, user };
}
