// A company's single sign-on settings (issue 31, Settings screen): company admins read, save and
// remove them; saving fetches and validates the provider's discovery document, checks that every
// e-mail domain is one the company has verified in the security suite, seals the client secret
// (never returned) and, when Require SSO goes on, ends the sessions of the company's users except
// the named break-glass admin. Plan-gated by the plan feature `sso`; every change is audited.
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { toIso } from '../ids.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';
import { companiesRepo, type CompanyRow } from '../../db/repositories/companies-repo.ts';
import { companySsoRepo, type CompanySsoRow } from '../../db/repositories/company-sso-repo.ts';
import { securityAssetsRepo } from '../../db/repositories/security-assets-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { monitorSecretsKey, seal } from '../../engine/kinds/secret-box.ts';
import { planHasFeature } from '../../../lib/plans.ts';
import { tenantOrigin, mainOrigin } from '../../../lib/hosts.ts';
import { endUserSessions } from '../auth/sessions.ts';
import { SSO_PROTOCOLS } from './protocols.ts';
import { SsoProtocolError } from './protocol.ts';
import { parseSsoSettings, type GroupRole, type OidcSettings, type SsoRole } from './settings-model.ts';

export const CALLBACK_PATH = '/api/v1/auth/sso/callback';
const PLAN_REQUIRED = 'Single sign-on is part of the Enterprise plan. Ask the platform administrator to change your plan.';

export interface SsoSettingsView {
  configured: boolean;
  plan_allows: boolean;
  /** where the identity provider sends users back: register it there */
  redirect_uri: string;
  /** the company's verified domains (the only ones SSO may sign in for) */
  verified_domains: string[];
  protocol: 'oidc' | null;
  issuer: string | null;
  client_id: string | null;
  client_secret_set: boolean;
  scopes: string[];
  group_claim: string | null;
  group_roles: GroupRole[];
  default_role: SsoRole;
  domains: string[];
  require_sso: boolean;
  break_glass_user_id: string | null;
  updated_at: string | null;
}

export interface SsoSettingsInput {
  protocol: 'oidc';
  issuer: string;
  client_id: string;
  client_secret?: string;
  scopes?: string[];
  group_claim?: string | null;
  group_roles?: GroupRole[];
  default_role: SsoRole;
  domains: string[];
  require_sso?: boolean;
  break_glass_user_id?: string | null;
}

async function companyOf(ctx: Ctx, requested: string | undefined): Promise<CompanyRow> {
  const companyId = companyScope(ctx, requested ?? null);
  if (!companyId)
    throw new DomainError('validation', 'company_id is required: choose the company whose sign-in this is.', {
      fields: { company_id: 'company_id is required' },
    });
  const company = await companiesRepo(ctx.services.db).findById(companyId);
  if (!company) throw notFound('Company');
  return company;
}

/** The callback address of a company's host (the address to register at the provider). */
export function callbackUrl(ctx: Pick<Ctx, 'services'>, company: Pick<CompanyRow, 'subdomain'>, port: string): string {
  const { config } = ctx.services;
  const origin = company.subdomain
    ? tenantOrigin(config.publicScheme, company.subdomain, config.productDomain, port)
    : mainOrigin(config.publicScheme, config.productDomain, port);
  return `${origin}${CALLBACK_PATH}`;
}

export function ssoAllowedByPlan(ctx: Pick<Ctx, 'services'>, company: Pick<CompanyRow, 'plan'>): boolean {
  return planHasFeature(ctx.services.config.planFeatures, company.plan, 'sso');
}

async function verifiedDomains(ctx: Ctx, companyId: string): Promise<string[]> {
  const rows = await securityAssetsRepo(ctx.services.db).listVerified(companyId);
  return [...new Set(rows.map((r) => r.hostname))].sort();
}

function view(ctx: Ctx, company: CompanyRow, row: CompanySsoRow | undefined, verified: string[], port: string): SsoSettingsView {
  const base = { plan_allows: ssoAllowedByPlan(ctx, company), redirect_uri: callbackUrl(ctx, company, port), verified_domains: verified };
  if (!row)
    return {
      ...base,
      configured: false,
      protocol: null,
      issuer: null,
      client_id: null,
      client_secret_set: false,
      scopes: ['openid', 'email', 'profile'],
      group_claim: null,
      group_roles: [],
      default_role: 'viewer',
      domains: [],
      require_sso: false,
      break_glass_user_id: null,
      updated_at: null,
    };
  const s = parseSsoSettings(row.settings);
  return {
    ...base,
    configured: true,
    protocol: s.protocol,
    issuer: s.issuer,
    client_id: s.client_id,
    client_secret_set: row.client_secret !== null,
    scopes: s.scopes,
    group_claim: s.group_claim,
    group_roles: s.group_roles,
    default_role: s.default_role,
    domains: JSON.parse(row.domains) as string[],
    require_sso: row.require_sso,
    break_glass_user_id: row.break_glass_user_id,
    updated_at: toIso(row.updated_at),
  };
}

export async function getSsoSettings(ctx: Ctx, port: string, companyIdAsked?: string): Promise<SsoSettingsView> {
  requirePermission(ctx, 'update', 'settings', 'view single sign-on settings');
  const company = await companyOf(ctx, companyIdAsked);
  const row = await companySsoRepo(ctx.services.db).get(company.id);
  return view(ctx, company, row, await verifiedDomains(ctx, company.id), port);
}

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/;
const CLAIM = /^[A-Za-z0-9_:./-]{1,100}$/;

/** Normalised settings, or the per-field messages of what is wrong. */
function checkInput(input: SsoSettingsInput, hasSecret: boolean): { settings: OidcSettings; domains: string[] } {
  const fields: Record<string, string> = {};
  const issuer = (input.issuer ?? '').trim().replace(/\/+$/, '');
  try {
    const u = new URL(issuer);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') fields.issuer = 'The issuer is an https:// address';
    if (u.search || u.hash || u.username) fields.issuer = 'The issuer has no query, fragment or credentials';
  } catch {
    fields.issuer = 'Enter the issuer URL from your identity provider, e.g. https://example.okta.com';
  }
  const clientId = (input.client_id ?? '').trim();
  if (!clientId || clientId.length > 255) fields.client_id = 'Enter the client ID of the application registered for StatusWatch';
  if (input.client_secret !== undefined && input.client_secret.length > 1000) fields.client_secret = 'At most 1,000 characters';
  if (input.client_secret === undefined && !hasSecret) fields.client_secret = 'Enter the client secret of the application';
  const scopes = [...new Set((input.scopes ?? ['openid', 'email', 'profile']).map((s) => s.trim()).filter(Boolean))];
  if (!scopes.includes('openid')) scopes.unshift('openid');
  if (scopes.length > 20 || scopes.some((s) => !SCOPE.test(s))) fields.scopes = 'Scopes are single words (at most 20)';
  const groupClaim = input.group_claim?.trim() || null;
  if (groupClaim && !CLAIM.test(groupClaim)) fields.group_claim = 'A claim name: letters, digits and _ : . / -';
  const groupRoles = (input.group_roles ?? []).map((g) => ({ group: g.group.trim(), role: g.role }));
  if (groupRoles.length > 50 || groupRoles.some((g) => !g.group || g.group.length > 200))
    fields.group_roles = 'Each mapping names a group (at most 50 mappings)';
  else if (groupRoles.length > 0 && !groupClaim) fields.group_claim = 'Name the claim that carries the groups you map';
  const domains = [...new Set((input.domains ?? []).map((d) => d.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean))];
  if (domains.length === 0) fields.domains = 'Name at least one e-mail domain your people sign in with';
  if (Object.keys(fields).length > 0) throw new DomainError('validation', Object.values(fields)[0], { fields });
  return {
    settings: {
      protocol: 'oidc',
      issuer,
      client_id: clientId,
      scopes,
      group_claim: groupClaim,
      group_roles: groupRoles,
      default_role: input.default_role,
    },
    domains,
  };
}

export async function putSsoSettings(ctx: Ctx, input: SsoSettingsInput, port: string, companyIdAsked?: string): Promise<SsoSettingsView> {
  requirePermission(ctx, 'update', 'settings', 'change single sign-on settings');
  const company = await companyOf(ctx, companyIdAsked);
  if (!ssoAllowedByPlan(ctx, company)) throw new DomainError('forbidden', PLAN_REQUIRED);
  const s = ctx.services;
  const before = await companySsoRepo(s.db).get(company.id);
  const { settings, domains } = checkInput(input, !!before?.client_secret);
  const verified = await verifiedDomains(ctx, company.id);
  const unverified = domains.filter((d) => !verified.includes(d));
  if (unverified.length)
    throw new DomainError(
      'validation',
      `Verify ${unverified.join(', ')} in Security > Assets first: SSO signs in only for domains your company has proven it controls.`,
      {
        fields: { domains: `Not verified by your company: ${unverified.join(', ')}` },
      },
    );
  const requireSso = input.require_sso === true;
  const breakGlass = input.break_glass_user_id ?? null;
  if (breakGlass) {
    const u = await usersRepo(s.db).findById(breakGlass);
    if (!u || u.company_id !== company.id || u.user_type !== 2 || !u.is_active)
      throw new DomainError('validation', 'The break-glass account is an active admin of your company.', {
        fields: { break_glass_user_id: 'Choose an active admin of your company' },
      });
  }
  if (requireSso && !breakGlass)
    throw new DomainError(
      'validation',
      'Name a break-glass admin who can still sign in with a password if the identity provider is down.',
      {
        fields: { break_glass_user_id: 'Required when Require SSO is on' },
      },
    );
  const secret = input.client_secret;
  // The provider must answer with a valid discovery document for this issuer before anything is saved.
  try {
    await SSO_PROTOCOLS[settings.protocol].check(s, settings, secret ?? null);
  } catch (e) {
    const detail = e instanceof SsoProtocolError ? e.detail : String(e);
    throw new DomainError('validation', `The identity provider's discovery document could not be used: ${detail.slice(0, 300)}`, {
      fields: { issuer: `No valid OpenID Connect discovery document at ${settings.issuer}/.well-known/openid-configuration` },
    });
  }
  const now = s.now();
  const sealed =
    secret !== undefined ? (secret === '' ? null : seal(monitorSecretsKey(s.config), secret)) : (before?.client_secret ?? null);
  const switchedOn = requireSso && !before?.require_sso;
  await withTransaction(s.db, async (tx) => {
    await companySsoRepo(tx).put({
      company_id: company.id,
      protocol: settings.protocol,
      settings: JSON.stringify(settings),
      client_secret: sealed,
      domains: JSON.stringify(domains),
      require_sso: requireSso,
      break_glass_user_id: breakGlass,
      created_at: before?.created_at ?? now,
      updated_at: now,
    });
    let ended = 0;
    if (switchedOn) {
      // Passwords stop working for them now: sessions signed in with one end too.
      for (const u of await usersRepo(tx).list({ companyId: company.id })) {
        if (u.id === breakGlass || u.user_type === 1) continue;
        await endUserSessions(s, u.id, tx);
        ended++;
      }
    }
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      {
        sso: before ? 'update' : 'create',
        protocol: settings.protocol,
        issuer: settings.issuer,
        client_id: settings.client_id,
        client_secret: secret !== undefined ? 'replaced' : 'kept',
        domains,
        default_role: settings.default_role,
        group_claim: settings.group_claim,
        group_roles: settings.group_roles,
        require_sso: requireSso,
        break_glass_user_id: breakGlass,
        ...(switchedOn ? { sessions_ended_for_users: ended } : {}),
      },
      undefined,
      company.id,
    );
  });
  return view(ctx, company, await companySsoRepo(s.db).get(company.id), verified, port);
}

export async function deleteSsoSettings(ctx: Ctx, companyIdAsked?: string): Promise<void> {
  requirePermission(ctx, 'update', 'settings', 'remove single sign-on');
  const company = await companyOf(ctx, companyIdAsked);
  const removed = await withTransaction(ctx.services.db, async (tx) => {
    const gone = await companySsoRepo(tx).remove(company.id);
    if (gone) await auditFromCtx(tx, ctx, 'settings_update', { sso: 'delete' }, undefined, company.id);
    return gone;
  });
  if (!removed) throw notFound('Single sign-on configuration');
}
