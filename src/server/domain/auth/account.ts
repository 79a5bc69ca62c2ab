// The auth calls: login (with the cross-host handoff of section 4), me, logout, refresh,
// forgot-password, reset-password, change-password and the handoff link home (signup is in
// signup.ts, the unlock link in unlock.ts).
import type { Ctx } from '../context.ts';
import { DomainError } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { requireActor } from '../authz.ts';
import { roleOfUserType } from '../../../lib/permissions.ts';
import { classifyHost, mainOrigin, tenantOrigin } from '../../../lib/hosts.ts';
import { usersRepo, type UserRow } from '../../db/repositories/users-repo.ts';
import { companiesRepo, type CompanyRow } from '../../db/repositories/companies-repo.ts';
import { authCodesRepo } from '../../db/repositories/auth-codes-repo.ts';
import { refreshTokensRepo } from '../../db/repositories/refresh-tokens-repo.ts';
import { dummyHash, hashPassword, verifyPassword } from './password.ts';
import { tooManyAttempts } from './throttle.ts';
import {
  assertMaySignIn,
  claimsOf,
  endSession,
  endUserSessions,
  issueSession,
  rotateRefreshToken,
  type IssuedSession,
} from './sessions.ts';
import { createHandoffCode } from './handoff.ts';
import { checkSecondFactor } from './two-factor.ts';
import type { AssertionInput } from './passkey-ceremony.ts';
import { accountOrigin, isCompanyLinkHost } from './account-links.ts';
import { mailUnlockLink } from './unlock.ts';
import { RESET_SECONDS, hashSecret, newSecret } from './tokens.ts';
import { auditFromCtx, recordAudit } from '../audit/record.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { toCompanyRef } from '../company/present.ts';
import { newPasswordProblem } from '../users/rules.ts';
import { sendMail } from '../../notify/mailer.ts';
import { passwordRefusedBySso } from '../sso/require-sso.ts';
import { SSO_REQUIRED_MESSAGE } from '../../../lib/sso-messages.ts';

export const INVALID_CREDENTIALS = 'Invalid email or password.';
/** Said to every address paused by an attack on the account, whether the account exists or not. */
const ACCOUNT_PAUSED = ' If this is your account, the link we have e-mailed you lets you sign in now.';

export interface CurrentUserView {
  id: string;
  email: string;
  user_type: '1' | '2' | '3';
  company_id: string | null;
  full_name: string;
  role: 'super_admin' | 'customer_admin' | 'customer_viewer';
  company: ReturnType<typeof toCompanyRef> | null;
  claims?: { sub: string; email: string; role: string; tenantId: string | null; exp: number; iat: number; session_expires_at: number };
  is_active?: boolean;
  created_at?: string;
  updated_at?: string;
}

export function toCurrentUser(
  user: Pick<UserRow, 'id' | 'email' | 'user_type' | 'company_id' | 'full_name'>,
  company: CompanyRow | null | undefined,
  claims?: IssuedSession['claims'],
): CurrentUserView {
  return {
    id: user.id,
    email: user.email,
    user_type: String(user.user_type) as '1' | '2' | '3',
    company_id: user.company_id,
    full_name: user.full_name,
    role: roleOfUserType(user.user_type)!,
    company: company ? toCompanyRef(company) : null,
    ...(claims
      ? {
          claims: {
            sub: claims.sub,
            email: claims.email,
            role: claims.role,
            tenantId: claims.tenantId,
            exp: claims.exp,
            iat: claims.iat,
            session_expires_at: claims.sxp,
          },
        }
      : {}),
  };
}

export interface LoginResult {
  session: IssuedSession;
  body: { user: CurrentUserView; redirect_to: string; expires_in: number };
}

/** Where the console goes after signing in on this host (section 4), with a handoff code when that is another host. */
async function landingFor(
  ctx: Ctx,
  db: DbScope,
  user: UserRow,
  company: CompanyRow | undefined,
  port: string,
  remember: boolean,
): Promise<string> {
  const { config } = ctx.services;
  const here = classifyHost(ctx.host, config.productDomain);
  if (user.user_type === 1) {
    if (here.kind !== 'tenant') return '/dashboard';
    const code = await createHandoffCode(ctx.services, user, config.productDomain, remember, db);
    return `${mainOrigin(config.publicScheme, config.productDomain, port)}/auth/handoff?code=${code}`;
  }
  if (here.kind === 'tenant' || !company?.subdomain) return '/dashboard';
  const target = `${company.subdomain}.${config.productDomain}`;
  const code = await createHandoffCode(ctx.services, user, target, remember, db);
  return `${tenantOrigin(config.publicScheme, company.subdomain, config.productDomain, port)}/auth/handoff?code=${code}`;
}

export async function login(
  ctx: Ctx,
  input: { email: string; password: string; remember?: boolean; totp_code?: string; recovery_code?: string; passkey?: AssertionInput },
  port: string,
): Promise<LoginResult> {
  const { services } = ctx;
  const now = services.now();
  const email = input.email.trim().toLowerCase();
  if (!email) throw new DomainError('validation', 'Email is required.', { fields: { email: 'Email is required.' } });
  if (!input.password) throw new DomainError('validation', 'Password is required.', { fields: { password: 'Password is required.' } });
  const guard = services.state.throttles.login;
  const gate = await guard.check(email, ctx.ip, now);
  if (!gate.allowed) throw tooManyAttempts(gate.retryAfter, undefined, gate.reason === 'account' ? ACCOUNT_PAUSED : '');

  const hostCompany = await hostCompanyOf(ctx);

  const user = await usersRepo(services.db).findByEmail(email);
  // Unknown emails cost the same argon2 verification as known ones.
  const ok = await verifyPassword(user?.password_hash ?? (await dummyHash()), input.password);
  if (!user || !ok) {
    // Not awaited: the answer must not take longer for known emails than for unknown ones.
    if ((await guard.failed(email, ctx.ip, now)).underAttack) void mailUnlockLink(services, email, port).catch(() => undefined);
    throw new DomainError('unauthorized', INVALID_CREDENTIALS);
  }
  await assertMaySignIn(services, user);
  assertSignsInHere(user, hostCompany);
  // Said only to someone who knew the password: it tells nothing about accounts to others.
  if (await passwordRefusedBySso(services, user)) throw new DomainError('forbidden', SSO_REQUIRED_MESSAGE);
  // Before any session or handoff code exists: the handoff link to the other host is issued
  // below, so it cannot carry a sign-in past the second factor.
  await checkSecondFactor(services, user.id, { email, ip: ctx.ip, port, host: ctx.host, userAgent: ctx.userAgent }, input);
  await guard.succeeded(email, ctx.ip, now);
  return finishSignIn(ctx, user, port, input.remember === true, {});
}

/** The company whose host this is (404 when it is not active), or undefined on the main host. */
export async function hostCompanyOf(ctx: Ctx): Promise<CompanyRow | undefined> {
  const here = classifyHost(ctx.host, ctx.services.config.productDomain);
  if (here.kind !== 'tenant') return undefined;
  const company = await companiesRepo(ctx.services.db).findBySubdomain(here.subdomain);
  if (!company?.is_active) throw new DomainError('not_found', 'Company not found or inactive');
  return company;
}

/** On a company's host only that company's users (and the super admin) sign in. */
export function assertSignsInHere(user: UserRow, hostCompany: CompanyRow | undefined): void {
  if (user.user_type !== 1 && hostCompany && hostCompany.id !== user.company_id) {
    throw new DomainError('forbidden', "This account belongs to another company. Please sign in at your company's address.");
  }
}

/** A sign-in that passed every check: the session, its landing (maybe a handoff link) and its audit row. */
export async function finishSignIn(
  ctx: Ctx,
  user: UserRow,
  port: string,
  remember: boolean,
  auditDetails: Record<string, unknown>,
): Promise<LoginResult> {
  const { services } = ctx;
  const now = services.now();
  const company = user.company_id ? await companiesRepo(services.db).findById(user.company_id) : undefined;
  // The sign-in, its session, its handoff code and its audit row commit together.
  const { session, redirectTo } = await withTransaction(services.db, async (tx) => {
    await usersRepo(tx).recordLogin(user.id, now);
    const issued = await issueSession(services, user, ctx.host, { remember, userAgent: ctx.userAgent }, tx);
    const landing = await landingFor(ctx, tx, user, company, port, remember);
    await auditFromCtx(
      tx,
      ctx,
      'user_login',
      { host: ctx.host, remember, ...auditDetails },
      { userId: user.id, role: issued.claims.role, tenantId: user.company_id, sessionId: issued.familyId },
    );
    return { session: issued, redirectTo: landing };
  });
  return {
    session,
    body: { user: toCurrentUser(user, company, session.claims), redirect_to: redirectTo, expires_in: session.accessMaxAge },
  };
}

export async function getMe(ctx: Ctx): Promise<CurrentUserView> {
  const actor = requireActor(ctx);
  const company = actor.companyId ? await companiesRepo(ctx.services.db).findById(actor.companyId) : undefined;
  const c = claimsOf(actor);
  const view = toCurrentUser(
    { id: actor.userId, email: actor.email, user_type: actor.userType, company_id: actor.companyId, full_name: actor.fullName },
    company,
  );
  if (c)
    view.claims = {
      sub: c.sub,
      email: actor.email,
      role: actor.role,
      tenantId: actor.companyId,
      exp: c.exp,
      iat: c.iat,
      session_expires_at: c.sxp,
    };
  // The diagnostic page also shows these (section 3: diagnostic claims).
  const row = await usersRepo(ctx.services.db).findById(actor.userId);
  if (row) Object.assign(view, { is_active: row.is_active, created_at: toIso(row.created_at), updated_at: toIso(row.updated_at) });
  return view;
}

export async function logout(ctx: Ctx, refreshPresented: string | null): Promise<void> {
  await withTransaction(ctx.services.db, async (tx) => {
    const family = await endSession(ctx.services, ctx.actor, refreshPresented, tx);
    if (ctx.actor) await auditFromCtx(tx, ctx, 'user_logout', { host: ctx.host });
    else if (family)
      await recordAudit(tx, ctx.services, {
        event: 'user_logout',
        source: 'server',
        sessionId: family,
        userAgent: ctx.userAgent,
        ip: ctx.ip,
        details: { host: ctx.host },
      });
  });
}

export async function refresh(ctx: Ctx, refreshPresented: string | null): Promise<LoginResult> {
  const { session, user } = await rotateRefreshToken(ctx.services, refreshPresented ?? '', ctx.host, ctx.userAgent, ctx.ip);
  const company = user.company_id ? await companiesRepo(ctx.services.db).findById(user.company_id) : undefined;
  return {
    session,
    body: { user: toCurrentUser(user, company, session.claims), redirect_to: '/dashboard', expires_in: session.accessMaxAge },
  };
}

export const FORGOT_PASSWORD_ANSWER =
  'If an account exists for this email, we have sent a link to reset the password. The link is valid for 30 minutes.';

/** Always the same answer; a link (30 min, single use) goes out by email or to the server log. */
export async function forgotPassword(ctx: Ctx, input: { email: string }, port: string): Promise<void> {
  const { services } = ctx;
  const now = services.now();
  const email = input.email.trim().toLowerCase();
  const lim = services.state.throttles;
  const wait = await lim.forgotIp.retryAfter(ctx.ip, now);
  if (wait > 0) throw tooManyAttempts(wait, 'Too many password reset requests.');
  await lim.forgotIp.hit(ctx.ip, now);
  if ((await lim.forgotEmail.retryAfter(email, now)) > 0) return;
  await lim.forgotEmail.hit(email, now);
  const user = await usersRepo(services.db).findByEmail(email);
  if (!user?.is_active) return;
  const at = await accountOrigin(services, user, port);
  if (!at) return;
  const { config } = services;
  if (await passwordRefusedBySso(services, user)) {
    // Same answer as for everyone; the owner learns by mail why no link came.
    void sendMail(services, {
      to: user.email,
      subject: `Your ${config.productName} sign-in uses single sign-on`,
      text: `Hello ${user.full_name},\n\nSomeone asked to reset the password of your ${config.productName} account. Your company signs in with single sign-on, so there is no password to reset: open ${at.origin}/login and choose "Sign in with SSO".\n`,
      kind: 'password_reset',
      link: `${at.origin}/login`,
      companyId: user.company_id,
    }).catch(() => undefined);
    return;
  }
  const secret = newSecret();
  await authCodesRepo(services.db).insert({
    id: newId(),
    kind: 'reset',
    code_hash: secret.hash,
    user_id: user.id,
    host: at.host,
    remember: false,
    session_version: user.session_version,
    created_at: now,
    expires_at: now + RESET_SECONDS * 1000,
    used_at: null,
  });
  const link = `${at.origin}/reset-password?token=${secret.value}`;
  // Not awaited: the answer must not take longer for known emails than for unknown ones.
  void sendMail(services, {
    to: user.email,
    subject: `Reset your ${config.productName} password`,
    text: `Hello ${user.full_name},\n\nSomeone asked to reset the password of your ${config.productName} account. Open this link within 30 minutes to choose a new password:\n\n${link}\n\nIf it was not you, ignore this email; your password stays as it is.\n`,
    kind: 'password_reset',
    link,
    companyId: user.company_id,
  }).catch(() => undefined);
}

export const RESET_INVALID = 'This password reset link is invalid or has expired. Please ask for a new one.';

export async function resetPassword(ctx: Ctx, input: { token: string; new_password: string }): Promise<void> {
  const { services } = ctx;
  const pw = newPasswordProblem(input.new_password);
  if (pw) throw new DomainError('validation', pw, { fields: { new_password: pw } });
  const codes = authCodesRepo(services.db);
  const row = input.token ? await codes.findByHash('reset', hashSecret(input.token)) : undefined;
  if (!row || row.used_at !== null || row.expires_at <= services.now())
    throw new DomainError('validation', RESET_INVALID, { fields: { token: RESET_INVALID } });
  const user = await usersRepo(services.db).findById(row.user_id);
  if (!user || user.session_version !== row.session_version || !user.is_active)
    throw new DomainError('validation', RESET_INVALID, { fields: { token: RESET_INVALID } });
  // only on the address it was mailed to: another company's host does not know this link
  if (!(await isCompanyLinkHost(services, user.user_type === 1 ? null : user.company_id, ctx.host)))
    throw new DomainError('validation', RESET_INVALID, { fields: { token: RESET_INVALID } });
  if (await passwordRefusedBySso(services, user)) throw new DomainError('forbidden', SSO_REQUIRED_MESSAGE);
  // Hashed before the transaction: argon2 takes a while, and a transaction holds the writer.
  const passwordHash = await hashPassword(input.new_password);
  // The link is used up together with the change it makes: a failed change leaves it usable.
  await withTransaction(services.db, async (tx) => {
    if ((await authCodesRepo(tx).consume(row.id, services.now())) === 0)
      throw new DomainError('validation', RESET_INVALID, { fields: { token: RESET_INVALID } });
    await usersRepo(tx).update(user.id, { password_hash: passwordHash, updated_at: services.now() });
    await endUserSessions(services, user.id, tx);
    await authCodesRepo(tx).invalidateUser(user.id, 'reset', services.now());
    await recordAudit(tx, services, {
      event: 'user_update',
      source: 'server',
      userId: user.id,
      userRole: roleOfUserType(user.user_type),
      tenantId: user.company_id,
      userAgent: ctx.userAgent,
      ip: ctx.ip,
      details: { user_id: user.id, change: 'password_reset_by_link' },
    });
  });
}

/** The signed-in user changes their own password: every session ends, this one starts afresh. */
export async function changePassword(ctx: Ctx, input: { current_password: string; new_password: string }): Promise<IssuedSession> {
  const actor = requireActor(ctx);
  const { services } = ctx;
  const users = usersRepo(services.db);
  const user = await users.findById(actor.userId);
  if (!user) throw new DomainError('unauthorized', 'Authentication required. Please sign in.');
  const now = services.now();
  const guard = services.state.throttles.login;
  const gate = await guard.check(user.email, ctx.ip, now);
  if (!gate.allowed) throw tooManyAttempts(gate.retryAfter);
  if (!input.current_password)
    throw new DomainError('validation', 'Current Password is required.', { fields: { current_password: 'Current Password is required.' } });
  if (!(await verifyPassword(user.password_hash, input.current_password))) {
    // A stolen session guessing the password counts like sign-in failures from its address.
    await guard.failed(user.email, ctx.ip, now);
    const msg = 'The current password is not correct.';
    throw new DomainError('validation', msg, { fields: { current_password: msg } });
  }
  const pw = newPasswordProblem(input.new_password);
  if (pw) throw new DomainError('validation', pw, { fields: { new_password: pw } });
  // Hashed before the transaction: argon2 takes a while, and a transaction holds the writer.
  const passwordHash = await hashPassword(input.new_password);
  // The new password, the end of the old sessions, the audit row and the new session commit together.
  return withTransaction(services.db, async (tx) => {
    await usersRepo(tx).update(user.id, { password_hash: passwordHash, updated_at: now });
    await endUserSessions(services, user.id, tx);
    await authCodesRepo(tx).invalidateUser(user.id, 'reset', now);
    await auditFromCtx(tx, ctx, 'user_update', { user_id: user.id, change: 'password_changed_by_user' });
    const fresh = (await usersRepo(tx).findById(user.id))!;
    return issueSession(services, fresh, ctx.host, { remember: false, userAgent: ctx.userAgent }, tx);
  });
}

/**
 * Where the signed-in user belongs, from this host: their company's subdomain for company users
 * on the main host, the main host for super admins on a subdomain (with a fresh one-time code),
 * else /dashboard here. Lets the console move a user who arrives on the wrong host.
 */
export async function handoffHome(ctx: Ctx, port: string): Promise<{ redirect_to: string }> {
  const actor = requireActor(ctx);
  const user = await usersRepo(ctx.services.db).findById(actor.userId);
  if (!user) throw new DomainError('unauthorized', 'Authentication required. Please sign in.');
  const company = user.company_id ? await companiesRepo(ctx.services.db).findById(user.company_id) : undefined;
  const remember = await refreshTokensRepo(ctx.services.db).familyRemembered(actor.sessionId);
  return { redirect_to: await landingFor(ctx, ctx.services.db, user, company, port, remember) };
}
