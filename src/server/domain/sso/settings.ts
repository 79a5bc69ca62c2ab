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
import {
  parseSsoSettings,
  type GroupRole,
  type OidcSettings,
  type SamlSettings,
  type SsoRole,
  type SsoSettings,
} from './settings-model.ts';
import { samlSpOf, SAML_METADATA_PATH } from './saml-sp.ts';
import { certificateBodies, certificateSummaries, checkCertificate, type CertSummary } from './saml-certs.ts';
import { readIdpMetadata } from './saml-idp-metadata.ts';
import { generateServiceProviderMetadata } from '@node-saml/node-saml';

export const CALLBACK_PATH = '/api/v1/auth/sso/callback';
const PLAN_REQUIRED = 'Single sign-on is part of the Enterprise plan. Ask the platform administrator to change your plan.';

export interface SsoSettingsView {
  configured: boolean;
  plan_allows: boolean;
  /** where the identity provider sends users back: register it there */
  redirect_uri: string;
  /** the company's verified domains (the only ones SSO may sign in for) */
  verified_domains: string[];
  /** SAML: our entity ID, ACS address and metadata download (the company's host) */
  sp_entity_id: string;
  acs_url: string;
  metadata_url: string;
  protocol: 'oidc' | 'saml' | null;
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
  /** the identity provider's SAML values (null unless protocol is saml) */
  saml: SamlView | null;
}

export interface SamlView {
  idp_sso_url: string;
  idp_entity_id: string;
  idp_certificates: CertSummary[];
  email_attribute: string | null;
  allow_idp_initiated: boolean;
}

interface CommonInput {
  group_claim?: string | null;
  group_roles?: GroupRole[];
  default_role: SsoRole;
  domains: string[];
  require_sso?: boolean;
  break_glass_user_id?: string | null;
}

export interface OidcSettingsInput extends CommonInput {
  protocol: 'oidc';
  issuer: string;
  client_id: string;
  client_secret?: string;
  scopes?: string[];
}

export interface SamlSettingsInput extends CommonInput {
  protocol: 'saml';
  /** the IdP's metadata XML: fills what the fields below leave out */
  idp_metadata_xml?: string;
  idp_sso_url?: string;
  idp_entity_id?: string;
  /** PEM (one or more certificates); left out: the stored ones are kept */
  idp_certificates?: string;
  email_attribute?: string | null;
  allow_idp_initiated?: boolean;
}

export type SsoSettingsInput = OidcSettingsInput | SamlSettingsInput;

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

/** The origin of a company's host (its sign-in, callback and SAML ACS live there). */
export function companyOrigin(ctx: Pick<Ctx, 'services'>, company: Pick<CompanyRow, 'subdomain'>, port: string): string {
  const { config } = ctx.services;
  return company.subdomain
    ? tenantOrigin(config.publicScheme, company.subdomain, config.productDomain, port)
    : mainOrigin(config.publicScheme, config.productDomain, port);
}

/** The callback address of a company's host (the address to register at the provider). */
export function callbackUrl(ctx: Pick<Ctx, 'services'>, company: Pick<CompanyRow, 'subdomain'>, port: string): string {
  return `${companyOrigin(ctx, company, port)}${CALLBACK_PATH}`;
}

export function ssoAllowedByPlan(ctx: Pick<Ctx, 'services'>, company: Pick<CompanyRow, 'plan'>): boolean {
  return planHasFeature(ctx.services.config.planFeatures, company.plan, 'sso');
}

async function verifiedDomains(ctx: Ctx, companyId: string): Promise<string[]> {
  const rows = await securityAssetsRepo(ctx.services.db).listVerified(companyId);
  return [...new Set(rows.map((r) => r.hostname))].sort();
}

function view(ctx: Ctx, company: CompanyRow, row: CompanySsoRow | undefined, verified: string[], port: string): SsoSettingsView {
  const origin = companyOrigin(ctx, company, port);
  const sp = samlSpOf(origin);
  const base = {
    plan_allows: ssoAllowedByPlan(ctx, company),
    redirect_uri: callbackUrl(ctx, company, port),
    verified_domains: verified,
    sp_entity_id: sp.entityId,
    acs_url: sp.acsUrl,
    metadata_url: `${origin}${SAML_METADATA_PATH}`,
  };
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
      saml: null,
    };
  const s = parseSsoSettings(row.settings);
  return {
    ...base,
    configured: true,
    protocol: s.protocol,
    issuer: s.protocol === 'oidc' ? s.issuer : null,
    client_id: s.protocol === 'oidc' ? s.client_id : null,
    client_secret_set: row.client_secret !== null,
    scopes: s.protocol === 'oidc' ? s.scopes : [],
    group_claim: s.group_claim,
    group_roles: s.group_roles,
    default_role: s.default_role,
    domains: JSON.parse(row.domains) as string[],
    require_sso: row.require_sso,
    break_glass_user_id: row.break_glass_user_id,
    updated_at: toIso(row.updated_at),
    saml:
      s.protocol === 'saml'
        ? {
            idp_sso_url: s.idp_sso_url,
            idp_entity_id: s.idp_entity_id,
            idp_certificates: certificateSummaries(s.idp_certs),
            email_attribute: s.email_attribute,
            allow_idp_initiated: s.allow_idp_initiated,
          }
        : null,
  };
}

/**
 * Our SAML service provider metadata for the company (entity ID, ACS with the HTTP-POST binding,
 * e-mail NameID): what an IdP imports to set StatusWatch up. Available before SAML is configured,
 * since the IdP side is usually set up first.
 */
export async function getSamlSpMetadata(ctx: Ctx, port: string, companyIdAsked?: string): Promise<{ xml: string; filename: string }> {
  requirePermission(ctx, 'update', 'settings', 'download the SAML service provider metadata');
  const company = await companyOf(ctx, companyIdAsked);
  const sp = samlSpOf(companyOrigin(ctx, company, port));
  const xml = generateServiceProviderMetadata({
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    wantAssertionsSigned: true,
  });
  return { xml, filename: `statuswatch-${company.subdomain ?? 'sp'}-saml-metadata.xml` };
}

export async function getSsoSettings(ctx: Ctx, port: string, companyIdAsked?: string): Promise<SsoSettingsView> {
  requirePermission(ctx, 'update', 'settings', 'view single sign-on settings');
  const company = await companyOf(ctx, companyIdAsked);
  const row = await companySsoRepo(ctx.services.db).get(company.id);
  return view(ctx, company, row, await verifiedDomains(ctx, company.id), port);
}

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/;
// SAML attribute names are often URIs (http://schemas.xmlsoap.org/claims/Group)
const CLAIM = /^[A-Za-z0-9_:./#-]{1,200}$/;

type Fields = Record<string, string>;

/** The role mapping and domains, common to every protocol. */
function checkCommon(input: CommonInput, fields: Fields) {
  const groupClaim = input.group_claim?.trim() || null;
  if (groupClaim && !CLAIM.test(groupClaim)) fields.group_claim = 'A claim or attribute name: letters, digits and _ : . / -';
  const groupRoles = (input.group_roles ?? []).map((g) => ({ group: g.group.trim(), role: g.role }));
  if (groupRoles.length > 50 || groupRoles.some((g) => !g.group || g.group.length > 200))
    fields.group_roles = 'Each mapping names a group (at most 50 mappings)';
  else if (groupRoles.length > 0 && !groupClaim) fields.group_claim = 'Name the claim (or SAML attribute) that carries the groups you map';
  const domains = [...new Set((input.domains ?? []).map((d) => d.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean))];
  if (domains.length === 0) fields.domains = 'Name at least one e-mail domain your people sign in with';
  return { mapping: { group_claim: groupClaim, group_roles: groupRoles, default_role: input.default_role }, domains };
}

function refuseIfAny(fields: Fields): void {
  if (Object.keys(fields).length > 0) throw new DomainError('validation', Object.values(fields)[0], { fields });
}

/** Normalised OIDC settings, or the per-field messages of what is wrong. */
function checkOidcInput(input: OidcSettingsInput, hasSecret: boolean): { settings: OidcSettings; domains: string[] } {
  const fields: Fields = {};
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
  const { mapping, domains } = checkCommon(input, fields);
  refuseIfAny(fields);
  return { settings: { protocol: 'oidc', issuer, client_id: clientId, scopes, ...mapping }, domains };
}

/**
 * Normalised SAML settings: the fields given, else the values of the pasted IdP metadata, else
 * (certificates only) the stored ones; every certificate parses and is valid now.
 */
function checkSamlInput(input: SamlSettingsInput, stored: SsoSettings | null, now: number): { settings: SamlSettings; domains: string[] } {
  const fields: Fields = {};
  const previous = stored?.protocol === 'saml' ? stored : null;
  let meta: ReturnType<typeof readIdpMetadata> = null;
  if (input.idp_metadata_xml?.trim()) {
    meta = readIdpMetadata(input.idp_metadata_xml);
    if (!meta) fields.idp_metadata_xml = 'This is not SAML identity provider metadata (an EntityDescriptor with an IDPSSODescriptor)';
  }
  const ssoUrl = (input.idp_sso_url?.trim() || meta?.ssoUrl || '').trim();
  try {
    const u = new URL(ssoUrl);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') fields.idp_sso_url = 'The single sign-on URL is an https:// address';
  } catch {
    fields.idp_sso_url =
      meta && !meta.ssoUrl
        ? 'The metadata has no SingleSignOnService with the HTTP-Redirect binding: enter the single sign-on URL'
        : 'Enter the identity provider’s single sign-on URL (SAML 2.0 endpoint, HTTP-Redirect)';
  }
  const entityId = (input.idp_entity_id?.trim() || meta?.entityId || '').trim();
  if (!entityId || entityId.length > 500) fields.idp_entity_id = 'Enter the identity provider’s entity ID (issuer)';
  let certs: string[] = [];
  const bodies = input.idp_certificates?.trim() ? certificateBodies(input.idp_certificates) : (meta?.certs ?? []);
  if (bodies.length > 0) {
    const problems: string[] = [];
    bodies.slice(0, 5).forEach((b, i) => {
      const r = checkCertificate(b, now);
      if ('error' in r) problems.push(`${bodies.length > 1 ? `Certificate ${i + 1}` : 'The certificate'} ${r.error}`);
      else certs.push(r.pem);
    });
    if (bodies.length > 5) problems.push('At most 5 certificates');
    if (problems.length) fields[input.idp_certificates?.trim() ? 'idp_certificates' : 'idp_metadata_xml'] = problems.join('; ');
  } else if (previous) certs = previous.idp_certs;
  else
    fields.idp_certificates = meta
      ? 'The metadata has no signing certificate: paste the identity provider’s signing certificate'
      : 'Paste the identity provider’s signing certificate (PEM)';
  const emailAttribute = input.email_attribute?.trim() || null;
  if (emailAttribute && (emailAttribute.length > 200 || /\s/.test(emailAttribute)))
    fields.email_attribute = 'An attribute name, without spaces';
  const { mapping, domains } = checkCommon(input, fields);
  if (mapping.group_claim && mapping.group_claim.length > 200) fields.group_claim = 'At most 200 characters';
  refuseIfAny(fields);
  return {
    settings: {
      protocol: 'saml',
      idp_sso_url: ssoUrl,
      idp_entity_id: entityId,
      idp_certs: certs,
      email_attribute: emailAttribute,
      allow_idp_initiated: input.allow_idp_initiated === true,
      ...mapping,
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
  const { settings, domains } =
    input.protocol === 'saml'
      ? checkSamlInput(input, before ? parseSsoSettings(before.settings) : null, s.now())
      : checkOidcInput(input, !!before?.client_secret);
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
  const secret = input.protocol === 'oidc' ? input.client_secret : '';
  // The provider must answer with a valid discovery document for this issuer before anything is saved.
  try {
    await SSO_PROTOCOLS[settings.protocol].check(s, settings, secret ?? null);
  } catch (e) {
    if (settings.protocol === 'saml') throw e;
    const detail = e instanceof SsoProtocolError ? e.detail : String(e);
    throw new DomainError('validation', `The identity provider's discovery document could not be used: ${detail.slice(0, 300)}`, {
      fields: {
        issuer: `No valid OpenID Connect discovery document at ${(settings as OidcSettings).issuer}/.well-known/openid-configuration`,
      },
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
        ...(settings.protocol === 'oidc'
          ? { issuer: settings.issuer, client_id: settings.client_id, client_secret: secret !== undefined ? 'replaced' : 'kept' }
          : {
              idp_entity_id: settings.idp_entity_id,
              idp_sso_url: settings.idp_sso_url,
              idp_certificates: certificateSummaries(settings.idp_certs).map((c) => c.fingerprint_sha256),
              email_attribute: settings.email_attribute,
              allow_idp_initiated: settings.allow_idp_initiated,
            }),
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
