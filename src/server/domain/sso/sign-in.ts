// Single sign-on, whatever the protocol (issue 31): where a sign-in starts (the company's host, or
// the main host by a verified e-mail domain, or a private status page), and what happens when the
// identity provider sends the browser back: the one-time request is consumed, the protocol module
// checks the answer, then the same rules for every protocol: a verified e-mail in one of the
// configured domains, an existing user linked only within the company, a new one created just in
// time within max_users with the role its groups map to, and a normal session (the provider did
// the second factor). Throttled like password sign-ins; each refusal is audited with its reason
// and shown to the user as a short message (lib/sso-messages.ts).
import { randomBytes } from 'node:crypto';
import type { Ctx, Services } from '../context.ts';
import { newId } from '../ids.ts';
import { classifyHost, tenantOrigin } from '../../../lib/hosts.ts';
import { roleOfUserType } from '../../../lib/permissions.ts';
import type { SsoErrorCode } from '../../../lib/sso-messages.ts';
import { companiesRepo, type CompanyRow } from '../../db/repositories/companies-repo.ts';
import { companySsoRepo, ssoRequestsRepo, type CompanySsoRow } from '../../db/repositories/company-sso-repo.ts';
import { securityAssetsRepo } from '../../db/repositories/security-assets-repo.ts';
import { usersRepo, type UserRow } from '../../db/repositories/users-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { auditFromCtx, recordAudit } from '../audit/record.ts';
import { issueSession, type IssuedSession } from '../auth/sessions.ts';
import { hashPassword } from '../auth/password.ts';
import { hashSecret } from '../auth/tokens.ts';
import { SSO_PROTOCOLS } from './protocols.ts';
import { SsoProtocolError, type SsoIdentity, type SsoProtocolName, type SsoRequestSecrets } from './protocol.ts';
import { parseSsoSettings, roleForGroups, USER_TYPE_OF_ROLE, type SsoRole } from './settings-model.ts';
import { CALLBACK_PATH, callbackUrl, ssoAllowedByPlan } from './settings.ts';
import { samlRequestsRepo, ssoJitUsersRepo } from '../../db/repositories/saml-repo.ts';
import type { SsoRequestRow } from '../../db/repositories/company-sso-repo.ts';

const REQUEST_MS = 10 * 60_000;

/** A refused sign-in: `code` picks the user's message, `detail` is for the audit log. */
export class SsoFailure extends Error {
  readonly code: SsoErrorCode;
  readonly detail: string;
  readonly companyId: string | null;
  readonly userId: string | null;
  constructor(code: SsoErrorCode, detail: string, companyId: string | null = null, userId: string | null = null) {
    super(detail);
    this.code = code;
    this.detail = detail;
    this.companyId = companyId;
    this.userId = userId;
  }
}

export type SsoStart = { kind: 'provider'; location: string; stateCookie: string } | { kind: 'redirect'; location: string };

/** 256 random bits, base64url (43 characters: a valid PKCE verifier too). */
const oneTimeValue = () => randomBytes(32).toString('base64url');

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

/** Only a path on this host: never an address elsewhere. */
function safeReturnTo(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || value.length > 500) return '/dashboard';
  return value;
}

/** The company whose SSO signs in people of this e-mail domain (a domain it configured and still has verified). */
async function companyForDomain(services: Services, domain: string): Promise<{ company: CompanyRow; sso: CompanySsoRow } | null> {
  for (const sso of await companySsoRepo(services.db).withDomain(domain)) {
    if (!(JSON.parse(sso.domains) as string[]).includes(domain)) continue;
    const verified = await securityAssetsRepo(services.db).listVerified(sso.company_id);
    if (!verified.some((a) => a.hostname === domain)) continue;
    const company = await companiesRepo(services.db).findById(sso.company_id);
    if (company?.is_active) return { company, sso };
  }
  return null;
}

async function auditFailure(ctx: Ctx, f: SsoFailure, extra: Record<string, unknown> = {}): Promise<void> {
  await recordAudit(ctx.services.db, ctx.services, {
    event: 'sso_login_failed',
    source: 'server',
    userId: f.userId,
    tenantId: f.companyId,
    userAgent: ctx.userAgent,
    ip: ctx.ip,
    details: { reason: f.code, detail: f.detail.slice(0, 1000), host: ctx.host, ...extra },
  });
}

/** Audits a refusal (and counts it like a failed password) before it is shown. */
export async function recordSsoFailure(ctx: Ctx, f: SsoFailure, email: string | null): Promise<void> {
  await auditFailure(ctx, f, email ? { email } : {});
  if (f.code !== 'throttled') await ctx.services.state.throttles.login.failed(email ?? `sso:${ctx.host}`, ctx.ip, ctx.services.now());
}

/**
 * Starts a sign-in on this host: on a company's host with its provider; on the main host, by
 * the e-mail's domain, sending the browser to that company's host to start there (the session
 * and the callback belong to the company's host).
 */
export async function startSso(
  ctx: Ctx,
  input: { email?: string; return_to?: string; remember?: boolean },
  port: string,
): Promise<SsoStart> {
  const { services } = ctx;
  const now = services.now();
  const email = input.email?.trim().toLowerCase() || null;
  const gate = await services.state.throttles.login.check(email ?? `sso:${ctx.host}`, ctx.ip, now);
  if (!gate.allowed) throw new SsoFailure('throttled', `throttled (${gate.reason}), retry after ${gate.retryAfter} s`);
  const here = classifyHost(ctx.host, services.config.productDomain);
  let company: CompanyRow | undefined;
  let sso: CompanySsoRow | undefined;
  if (here.kind === 'tenant') {
    company = await companiesRepo(services.db).findBySubdomain(here.subdomain);
    if (!company?.is_active) throw new SsoFailure('not_configured', `no active company at ${ctx.host}`);
    sso = await companySsoRepo(services.db).get(company.id);
  } else if (here.kind === 'root') {
    if (!email || !email.includes('@')) throw new SsoFailure('unknown_domain', 'no e-mail given on the main host');
    const found = await companyForDomain(services, domainOf(email));
    if (!found) throw new SsoFailure('unknown_domain', `no company signs in ${domainOf(email)} with SSO`);
    ({ company, sso } = found);
    if (company.subdomain) {
      // The e-mail stays behind (it came in a form body, kept out of addresses and access logs):
      // the company's host needs only to start its provider's sign-in.
      const q = new URLSearchParams(input.remember ? { remember: 'true' } : {});
      const origin = tenantOrigin(services.config.publicScheme, company.subdomain, services.config.productDomain, port);
      return { kind: 'redirect', location: `${origin}/api/v1/auth/sso/start${q.size ? `?${q}` : ''}` };
    }
  } else {
    throw new SsoFailure('not_configured', `${ctx.host} is not a product host`);
  }
  if (!sso) throw new SsoFailure('not_configured', 'the company has no SSO configuration', company.id);
  if (!ssoAllowedByPlan(ctx, company)) throw new SsoFailure('plan', `plan ${company.plan} has no sso feature`, company.id);
  const state = oneTimeValue();
  const secrets: SsoRequestSecrets = {
    state,
    nonce: oneTimeValue(),
    codeVerifier: oneTimeValue(),
    redirectUri: callbackUrl(ctx, company, port),
  };
  let location: URL;
  try {
    location = await SSO_PROTOCOLS[sso.protocol as SsoProtocolName].begin(services, sso, secrets);
  } catch (e) {
    throw new SsoFailure('provider', e instanceof SsoProtocolError ? e.detail : String(e), company.id);
  }
  if (email && sso.protocol === 'oidc') location.searchParams.set('login_hint', email);
  await ssoRequestsRepo(services.db).insert({
    id: newId(),
    state_hash: hashSecret(state),
    company_id: company.id,
    protocol: sso.protocol,
    nonce: secrets.nonce,
    code_verifier: secrets.codeVerifier,
    host: ctx.host,
    return_to: safeReturnTo(input.return_to),
    remember: input.remember === true,
    created_at: now,
    expires_at: now + REQUEST_MS,
    used_at: null,
  });
  return { kind: 'provider', location: location.href, stateCookie: state };
}

export interface SsoSignedIn {
  session: IssuedSession;
  user: UserRow;
  returnTo: string;
}

/**
 * A user SSO created just in time has the role its groups map to at each sign-in (when the company
 * maps groups): moved between groups at the IdP, the role follows. People created otherwise, and
 * the break-glass admin, keep the role an admin gave them. A change is audited.
 */
async function refreshedRole(ctx: Ctx, company: CompanyRow, sso: CompanySsoRow, user: UserRow, groups: string[]): Promise<UserRow> {
  const { services } = ctx;
  const mapping = parseSsoSettings(sso.settings);
  if (!mapping.group_claim || mapping.group_roles.length === 0 || user.id === sso.break_glass_user_id) return user;
  if (user.user_type !== 2 && user.user_type !== 3) return user;
  if (!(await ssoJitUsersRepo(services.db).isJit(user.id, company.id))) return user;
  const role: SsoRole = roleForGroups(mapping, groups);
  const userType = USER_TYPE_OF_ROLE[role];
  if (userType === user.user_type) return user;
  const now = services.now();
  await withTransaction(services.db, async (tx) => {
    await usersRepo(tx).update(user.id, { user_type: userType, updated_at: now });
    await recordAudit(tx, services, {
      event: 'user_update',
      source: 'server',
      userId: user.id,
      userRole: roleOfUserType(userType),
      tenantId: company.id,
      userAgent: ctx.userAgent,
      ip: ctx.ip,
      details: {
        email: user.email,
        via: 'sso',
        protocol: sso.protocol,
        role: { from: roleOfUserType(user.user_type), to: roleOfUserType(userType) },
        groups: groups.slice(0, 50),
      },
    });
  });
  return (await usersRepo(services.db).findById(user.id))!;
}

/** The account the identity may use in this company: linked, created just in time, or refused. */
async function accountFor(
  ctx: Ctx,
  company: CompanyRow,
  sso: CompanySsoRow,
  identity: { email: string; name: string | null; groups: string[]; subject: string },
): Promise<{ user: UserRow; created: boolean }> {
  const { services } = ctx;
  const existing = await usersRepo(services.db).findByEmail(identity.email);
  if (existing) {
    // Linking by e-mail only within the company: another company's IdP never reaches this account.
    if (existing.user_type === 1 || existing.company_id !== company.id)
      throw new SsoFailure(
        'other_company',
        `${identity.email} is an account of another company (or a platform admin)`,
        company.id,
        existing.id,
      );
    if (!existing.is_active) throw new SsoFailure('disabled', `${identity.email} is disabled`, company.id, existing.id);
    return { user: await refreshedRole(ctx, company, sso, existing, identity.groups), created: false };
  }
  const role = roleForGroups(parseSsoSettings(sso.settings), identity.groups);
  const now = services.now();
  const id = newId();
  // An SSO user has no password: the hash of 32 random bytes nobody knows.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  await withTransaction(services.db, async (tx) => {
    const locked = await companiesRepo(tx).lockById(company.id);
    if (!locked) throw new SsoFailure('not_configured', 'the company is gone', company.id);
    const used = await usersRepo(tx).countByCompany(company.id);
    if (used >= locked.max_users)
      throw new SsoFailure('full', `${used} of ${locked.max_users} users: no room for ${identity.email}`, company.id);
    await usersRepo(tx).insert({
      id,
      email: identity.email,
      full_name: (identity.name?.trim() || identity.email.slice(0, identity.email.indexOf('@'))).slice(0, 100),
      user_type: USER_TYPE_OF_ROLE[role],
      company_id: company.id,
      is_active: true,
      password_hash: passwordHash,
      session_version: 1,
      created_at: now,
      updated_at: now,
      last_login_at: null,
    });
    await ssoJitUsersRepo(tx).insert({
      user_id: id,
      company_id: company.id,
      protocol: sso.protocol,
      subject: identity.subject.slice(0, 512),
      created_at: now,
    });
    await recordAudit(tx, services, {
      event: 'user_create',
      source: 'server',
      userId: id,
      userRole: roleOfUserType(USER_TYPE_OF_ROLE[role]),
      tenantId: company.id,
      userAgent: ctx.userAgent,
      ip: ctx.ip,
      details: {
        email: identity.email,
        via: 'sso',
        protocol: sso.protocol,
        role,
        groups: identity.groups.slice(0, 50),
        subject: identity.subject,
      },
    });
  });
  return { user: (await usersRepo(services.db).findById(id))!, created: true };
}

/** The provider's answer on the callback: a session on this host, or an SsoFailure. */
export async function finishSso(ctx: Ctx, callback: URL, stateCookie: string | null): Promise<SsoSignedIn> {
  const { services } = ctx;
  const state = callback.searchParams.get('state') ?? '';
  // The state must be the one this browser was given when it left (no sign-in planted by a link).
  if (!state || !stateCookie || state !== stateCookie) throw new SsoFailure('expired', 'state missing or not the one of this browser');
  const requests = ssoRequestsRepo(services.db);
  const req = await requests.findByStateHash(hashSecret(state));
  if (!req || req.host !== ctx.host) throw new SsoFailure('expired', 'unknown state');
  if ((await requests.consume(req.id, services.now())) === 0)
    throw new SsoFailure(
      'expired',
      req.used_at !== null ? 'state already used (replayed callback)' : 'sign-in request expired',
      req.company_id,
    );
  const company = await companiesRepo(services.db).findById(req.company_id);
  const sso = await companySsoRepo(services.db).get(req.company_id);
  if (!company?.is_active || !sso || sso.protocol !== req.protocol)
    throw new SsoFailure('not_configured', 'SSO was removed or changed meanwhile', req.company_id);
  if (!ssoAllowedByPlan(ctx, company)) throw new SsoFailure('plan', `plan ${company.plan} has no sso feature`, company.id);
  const providerError = callback.searchParams.get('error');
  if (providerError)
    throw new SsoFailure(
      'provider',
      `provider answered ${providerError}: ${(callback.searchParams.get('error_description') ?? '').slice(0, 300)}`,
      company.id,
    );
  const secrets: SsoRequestSecrets = {
    state,
    nonce: req.nonce,
    codeVerifier: req.code_verifier,
    redirectUri: `${callback.origin}${CALLBACK_PATH}`,
  };
  let identity;
  try {
    identity = await SSO_PROTOCOLS[sso.protocol as SsoProtocolName].finish(services, sso, { url: callback, form: null }, secrets);
  } catch (e) {
    const detail = e instanceof SsoProtocolError ? e.detail : String(e);
    throw new SsoFailure(detail.startsWith('discovery') ? 'provider' : 'token', detail, company.id);
  }
  return signInAs(ctx, company, sso, identity, req);
}

/**
 * A SAML answer posted to this host's ACS (HTTP-POST binding). No cookie comes with it (the IdP's
 * form post is cross-site), so the request it answers is named by the signed InResponseTo and
 * checked here: this company's, on this host, unused, in time, with its RelayState. An answer to
 * no request (IdP-initiated) only where the company allows it; either way audience, recipient,
 * times and the replay cache were checked by the protocol module.
 */
export async function finishSamlSso(ctx: Ctx, acsUrl: URL, form: URLSearchParams): Promise<SsoSignedIn> {
  const { services } = ctx;
  const here = classifyHost(ctx.host, services.config.productDomain);
  const company = here.kind === 'tenant' ? await companiesRepo(services.db).findBySubdomain(here.subdomain) : undefined;
  if (!company?.is_active) throw new SsoFailure('not_configured', `no active company at ${ctx.host}`);
  const sso = await companySsoRepo(services.db).get(company.id);
  if (!sso || sso.protocol !== 'saml') throw new SsoFailure('not_configured', 'the company has no SAML configuration', company.id);
  if (!ssoAllowedByPlan(ctx, company)) throw new SsoFailure('plan', `plan ${company.plan} has no sso feature`, company.id);
  let identity: SsoIdentity;
  try {
    identity = await SSO_PROTOCOLS.saml.finish(services, sso, { url: acsUrl, form }, null);
  } catch (e) {
    throw new SsoFailure('token', e instanceof SsoProtocolError ? e.detail : String(e), company.id);
  }
  const relayState = form.get('RelayState') ?? '';
  let req: SsoRequestRow | null = null;
  if (identity.inResponseTo) {
    const requestId = identity.inResponseTo;
    const found = requestId.startsWith('_') ? await samlRequestsRepo(services.db).find(company.id, requestId.slice(1)) : undefined;
    if (!found || found.host !== ctx.host)
      throw new SsoFailure('expired', `InResponseTo ${requestId.slice(0, 100)} is not a request of this company`, company.id);
    if (found.state_hash !== hashSecret(relayState))
      throw new SsoFailure('expired', 'the RelayState is not the one of the request it answers', company.id);
    if ((await ssoRequestsRepo(services.db).consume(found.id, services.now())) === 0)
      throw new SsoFailure(
        'expired',
        found.used_at !== null ? `InResponseTo ${requestId.slice(0, 100)} was already used (replayed)` : 'the sign-in request expired',
        company.id,
      );
    req = found;
  } else if (!parseSamlAllowsUnsolicited(sso)) {
    throw new SsoFailure('unsolicited', 'an unsolicited (IdP-initiated) response, and the company does not accept them', company.id);
  }
  // IdP-initiated: the RelayState an IdP sends is where to land (a path on this host only).
  return signInAs(ctx, company, sso, identity, req ?? { remember: false, return_to: safeReturnTo(relayState || undefined) });
}

function parseSamlAllowsUnsolicited(sso: CompanySsoRow): boolean {
  const s = parseSsoSettings(sso.settings);
  return s.protocol === 'saml' && s.allow_idp_initiated;
}

/** The same rules for every protocol once the provider vouched for `identity`: e-mail, domain, account, session. */
async function signInAs(
  ctx: Ctx,
  company: CompanyRow,
  sso: CompanySsoRow,
  identity: SsoIdentity,
  req: Pick<SsoRequestRow, 'remember' | 'return_to'>,
): Promise<SsoSignedIn> {
  const { services } = ctx;
  if (!identity.email) throw new SsoFailure('email_unverified', `the answer for ${identity.subject} has no e-mail`, company.id);
  if (!identity.emailVerified) throw new SsoFailure('email_unverified', `${identity.email}: email_verified is not true`, company.id);
  const domains = JSON.parse(sso.domains) as string[];
  const domain = domainOf(identity.email);
  const verified = await securityAssetsRepo(services.db).listVerified(company.id);
  if (!domains.includes(domain) || !verified.some((a) => a.hostname === domain))
    throw new SsoFailure('domain', `${identity.email}: ${domain} is not a configured, verified domain (${domains.join(', ')})`, company.id);
  const { user, created } = await accountFor(ctx, company, sso, { ...identity, email: identity.email });
  const now = services.now();
  await services.state.throttles.login.succeeded(identity.email, ctx.ip, now);
  const session = await withTransaction(services.db, async (tx) => {
    await usersRepo(tx).recordLogin(user.id, now);
    const issued = await issueSession(services, user, ctx.host, { remember: req.remember, userAgent: ctx.userAgent }, tx);
    await auditFromCtx(
      tx,
      ctx,
      'user_login',
      {
        host: ctx.host,
        remember: req.remember,
        via: 'sso',
        protocol: sso.protocol,
        subject: identity.subject,
        ...(created ? { created: true } : {}),
      },
      { userId: user.id, role: issued.claims.role, tenantId: user.company_id, sessionId: issued.familyId },
    );
    return issued;
  });
  return { session, user, returnTo: req.return_to };
}
