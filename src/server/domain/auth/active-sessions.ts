// The signed-in user's active sessions (one per login: a refresh-token family) and "sign out
// other sessions", which ends every one but the current at once (their next request is 401)
// together with any handoff link they issued.
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { toIso } from '../ids.ts';
import { requireActor } from '../authz.ts';
import { refreshTokensRepo } from '../../db/repositories/refresh-tokens-repo.ts';
import { authCodesRepo } from '../../db/repositories/auth-codes-repo.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';

export interface ActiveSessionView {
  id: string;
  host: string;
  user_agent: string | null;
  last_active_at: string;
  expires_at: string;
  current: boolean;
}

function requireSession(ctx: Ctx) {
  const actor = requireActor(ctx);
  if (actor.apiToken) throw new DomainError('forbidden', 'API tokens have no sessions. Sign in to the console.');
  return actor;
}

export async function listActiveSessions(ctx: Ctx): Promise<ActiveSessionView[]> {
  const actor = requireSession(ctx);
  const rows = await refreshTokensRepo(ctx.services.db).listLive(actor.userId, ctx.services.now());
  return rows.map((r) => ({
    id: r.family_id,
    host: r.host,
    user_agent: r.user_agent,
    // a session renews its refresh token at least every 15 minutes while in use
    last_active_at: toIso(r.created_at),
    expires_at: toIso(r.expires_at),
    current: r.family_id === actor.sessionId,
  }));
}

export async function signOutOtherSessions(ctx: Ctx): Promise<void> {
  const actor = requireSession(ctx);
  const now = ctx.services.now();
  await withTransaction(ctx.services.db, async (tx) => {
    await refreshTokensRepo(tx).revokeUserExcept(actor.userId, actor.sessionId, now);
    await authCodesRepo(tx).invalidateUser(actor.userId, 'handoff', now);
    await auditFromCtx(tx, ctx, 'user_logout', { host: ctx.host, scope: 'other_sessions' });
  });
}
