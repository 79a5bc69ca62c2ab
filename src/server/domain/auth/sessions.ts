// Sessions: a short access token (JWT) plus a rotating refresh token whose family is the login
// session. Reusing a refresh token revokes its family; bumping users.session_version ends every
// session of a user. Every request re-checks the user, the company and the family in one query.
import { throttleRepo } from '../../db/repositories/throttle-repo.ts';
import type { Actor, Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId } from '../ids.ts';
import { roleOfUserType } from '../../../lib/permissions.ts';
import { classifyHost } from '../../../lib/hosts.ts';
import { refreshTokensRepo } from '../../db/repositories/refresh-tokens-repo.ts';
import { usersRepo, type UserRow } from '../../db/repositories/users-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { pendingSignupsRepo } from '../../db/repositories/pending-signups-repo.ts';
import { authCodesRepo } from '../../db/repositories/auth-codes-repo.ts';
import { passkeysRepo } from '../../db/repositories/passkeys-repo.ts';
import { ssoRequestsRepo } from '../../db/repositories/company-sso-repo.ts';
import {
  ACCESS_TOKEN_SECONDS,
  REMEMBER_SECONDS,
  SESSION_SECONDS,
  hashSecret,
  newSecret,
  signAccessToken,
  verifyAccessToken,
  type AccessClaims,
} from './tokens.ts';
import { recordAudit } from '../audit/record.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';

export interface IssuedSession {
  accessToken: string;
  /** seconds the access cookie lives */
  accessMaxAge: number;
  refreshToken: string;
  /** seconds the refresh cookie lives; null = browser-session cookie (no "remember me") */
  refreshMaxAge: number | null;
  familyId: string;
  claims: Pick<AccessClaims, 'sub' | 'email' | 'role' | 'tenantId' | 'iat' | 'exp' | 'sxp'>;
}

const SESSION_ENDED = 'Your session has ended. Please sign in again.';

/** Deletes expired refresh tokens, one-time codes and pending sign-ups (the session-sweep job). */
export async function sweepExpiredSessions(services: Services, now: number): Promise<void> {
  // a day of grace keeps reuse detection working for tokens that just expired
  await refreshTokensRepo(services.db).purge(now - 86_400_000);
  await authCodesRepo(services.db).purge(now - 86_400_000);
  await pendingSignupsRepo(services.db).purge(now - 86_400_000);
  await ssoRequestsRepo(services.db).purge(now - 86_400_000);
  // throttle events past their window count no more
  await throttleRepo(services.db).purge(now);
  // passkey challenges past their five minutes
  await passkeysRepo(services.db).purgeChallenges(now);
}

/**
 * Starts a session (new family) or continues one (rotation keeps family and absolute expiry),
 * written in `db`: the transaction that also records the sign-in, or one of its own.
 */
export async function issueSession(
  services: Services,
  user: UserRow,
  host: string,
  opts: { remember: boolean; userAgent: string; familyId?: string; expiresAt?: number },
  db: DbScope = services.db,
): Promise<IssuedSession> {
  const now = services.now();
  const familyId = opts.familyId ?? newId();
  const expiresAt = opts.expiresAt ?? now + (opts.remember ? REMEMBER_SECONDS : SESSION_SECONDS) * 1000;
  const secret = newSecret();
  await refreshTokensRepo(db).insert({
    id: newId(),
    family_id: familyId,
    user_id: user.id,
    token_hash: secret.hash,
    host,
    remember: opts.remember,
    user_agent: opts.userAgent.slice(0, 512) || null,
    created_at: now,
    expires_at: expiresAt,
    used_at: null,
    revoked_at: null,
  });
  const role = roleOfUserType(user.user_type);
  if (!role) throw new DomainError('forbidden', 'This account has no role. Please contact support.');
  const sxp = Math.floor(expiresAt / 1000);
  const base = {
    sub: user.id,
    email: user.email,
    role,
    tenantId: user.company_id,
    user_type: user.user_type as 1 | 2 | 3,
    sv: user.session_version,
    sid: familyId,
    host,
    sxp,
  };
  const { token, iat, exp } = await signAccessToken(services.config.sessionSecret, base, now);
  const secondsLeft = Math.max(1, Math.floor((expiresAt - now) / 1000));
  return {
    accessToken: token,
    accessMaxAge: Math.min(ACCESS_TOKEN_SECONDS, secondsLeft),
    refreshToken: secret.value,
    refreshMaxAge: opts.remember ? secondsLeft : null,
    familyId,
    claims: { sub: user.id, email: user.email, role, tenantId: user.company_id, iat, exp, sxp },
  };
}

/** Refuses users and companies that may not hold a session on this host. */
export async function assertMaySignIn(services: Services, user: UserRow): Promise<void> {
  if (!user.is_active) throw new DomainError('forbidden', 'This account is disabled. Please contact your administrator.');
  if (user.user_type !== 1) {
    const company = user.company_id ? await companiesRepo(services.db).findById(user.company_id) : undefined;
    if (!company?.is_active) throw new DomainError('forbidden', 'Company not found or inactive');
  }
}

/** The main host, or the subdomain of an active company: where a session may live. */
async function hostServesSessions(services: Services, host: string): Promise<boolean> {
  const where = classifyHost(host, services.config.productDomain);
  if (where.kind === 'root') return true;
  if (where.kind === 'invalid') return false;
  const company = await companiesRepo(services.db).findBySubdomain(where.subdomain);
  return company?.is_active === true;
}

/** Rotates a refresh token. A token seen twice (or on another host) revokes its whole family. */
export async function rotateRefreshToken(
  services: Services,
  presented: string,
  host: string,
  userAgent: string,
  ip: string,
): Promise<{ session: IssuedSession; user: UserRow }> {
  const now = services.now();
  const repo = refreshTokensRepo(services.db);
  const row = presented ? await repo.findByHash(hashSecret(presented)) : undefined;
  if (!row || row.revoked_at !== null || row.expires_at <= now) throw new DomainError('unauthorized', SESSION_ENDED);
  const reused = row.used_at !== null || row.host !== host || (await repo.markUsed(row.id, now)) === 0;
  if (reused) {
    // Theft is suspected: the family ends, and so do the handoff codes it may have issued.
    await withTransaction(services.db, async (tx) => {
      await refreshTokensRepo(tx).revokeFamily(row.family_id, now);
      await authCodesRepo(tx).invalidateUser(row.user_id, 'handoff', now);
      await recordAudit(tx, services, {
        event: 'session_expired',
        source: 'server',
        userId: row.user_id,
        sessionId: row.family_id,
        userAgent,
        ip,
        details: { reason: row.host !== host ? 'refresh token presented on another host' : 'refresh token reused; session revoked' },
      });
    });
    throw new DomainError('unauthorized', SESSION_ENDED);
  }
  const user = await usersRepo(services.db).findById(row.user_id);
  if (!user) throw new DomainError('unauthorized', SESSION_ENDED);
  try {
    await assertMaySignIn(services, user);
    if (!(await hostServesSessions(services, host))) throw new DomainError('unauthorized', SESSION_ENDED);
  } catch {
    await repo.revokeFamily(row.family_id, now);
    throw new DomainError('unauthorized', SESSION_ENDED);
  }
  const session = await issueSession(services, user, host, {
    remember: row.remember,
    userAgent,
    familyId: row.family_id,
    expiresAt: row.expires_at,
  });
  return { session, user };
}

/**
 * Ends the session a refresh token or access token belongs to, and its user's outstanding
 * handoff codes: a code issued by the session must not sign the browser in again after it
 * signed out (the code lives 60 s; other sessions of the user keep working). Written in `db`,
 * the caller's transaction or one of its own.
 */
export async function endSession(
  services: Services,
  actor: Pick<Actor, 'sessionId' | 'userId'> | null,
  refreshPresented: string | null,
  db: DbScope = services.db,
): Promise<string | null> {
  const repo = refreshTokensRepo(db);
  let family = actor?.sessionId ?? null;
  let userId = actor?.userId ?? null;
  if (!family && refreshPresented) {
    const row = await repo.findByHash(hashSecret(refreshPresented));
    family = row?.family_id ?? null;
    userId = row?.user_id ?? null;
  }
  const now = services.now();
  await withTransaction(db, async (tx) => {
    if (family) await refreshTokensRepo(tx).revokeFamily(family, now);
    if (userId) await authCodesRepo(tx).invalidateUser(userId, 'handoff', now);
  });
  return family;
}

/**
 * Ends every session of a user (password change, reset, deactivation, role change), in `db`: the
 * transaction of the change that ends them, or one of its own.
 */
export async function endUserSessions(services: Services, userId: string, db: DbScope = services.db): Promise<void> {
  const now = services.now();
  await withTransaction(db, async (tx) => {
    await usersRepo(tx).bumpSessionVersion(userId, now);
    await refreshTokensRepo(tx).revokeUser(userId, now);
    await authCodesRepo(tx).invalidateUser(userId, 'handoff', now);
  });
}

/** Ends every session of every user of a company (deactivation, a new subdomain), in `db` as above. */
export async function endCompanySessions(services: Services, companyId: string, db: DbScope = services.db): Promise<void> {
  const now = services.now();
  await withTransaction(db, async (tx) => {
    await usersRepo(tx).bumpCompanySessions(companyId, now);
    await refreshTokensRepo(tx).revokeCompany(companyId, now);
    await authCodesRepo(tx).invalidateCompany(companyId, 'handoff', now);
  });
}

export interface VerifiedSession {
  actor: Actor;
  claims: AccessClaims;
  /** a company user on the main host: only the calls of the redirect flow are served */
  mainHostCompanyUser: boolean;
  companySubdomain: string | null;
}

const claimsByActor = new WeakMap<Actor, AccessClaims>();

/** The verified claims an actor was built from (for `me` and the diagnostic page). */
export function claimsOf(actor: Actor): AccessClaims | undefined {
  return claimsByActor.get(actor);
}

/**
 * The session of an access token on this host, or null for anything untrusted: bad or expired
 * token, another host, a newer session version, a revoked family, an inactive user or company,
 * a company user on another company's subdomain, anyone on the subdomain of a company that is
 * not active (any more), or a host outside the product domain.
 */
export async function verifySession(services: Services, token: string, host: string): Promise<VerifiedSession | null> {
  if (!token || token.length > 4096) return null;
  const now = services.now();
  const claims = await verifyAccessToken(services.config.sessionSecret, token, now);
  if (!claims || claims.host !== host) return null;
  const state = await refreshTokensRepo(services.db).sessionState(claims.sub, claims.sid, now);
  if (!state?.is_active || state.session_version !== claims.sv || state.live_tokens === 0) return null;
  const role = roleOfUserType(state.user_type);
  if (!role) return null;
  let mainHostCompanyUser = false;
  const where = classifyHost(host, services.config.productDomain);
  if (where.kind === 'invalid') return null;
  if (state.user_type !== 1) {
    if (!state.company_id || !state.company_active) return null;
    if (where.kind === 'tenant') {
      if (where.subdomain !== state.company_subdomain) return null;
    } else {
      mainHostCompanyUser = true;
    }
  } else if (where.kind === 'tenant' && !(await hostServesSessions(services, host))) {
    // A super admin may work on any active company's subdomain; once that company is
    // deactivated, deleted or moved to another subdomain, the session there ends (the main host
    // keeps working).
    return null;
  }
  const actor: Actor = {
    userId: state.id,
    email: state.email,
    fullName: state.full_name,
    userType: state.user_type as 1 | 2 | 3,
    role,
    companyId: state.user_type === 1 ? null : state.company_id,
    sessionId: claims.sid,
    iat: claims.iat,
    exp: claims.exp,
  };
  claimsByActor.set(actor, claims);
  return { actor, claims, mainHostCompanyUser, companySubdomain: state.company_subdomain };
}
