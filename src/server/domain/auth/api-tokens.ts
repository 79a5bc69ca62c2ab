// API tokens for the management API: a user's own credential (`swt_` + 256 random bits) that
// acts as that user, with their role and company, limited to safe methods when its scope is
// `read`. Only the SHA-256 hash is stored; the token is answered once, at creation.
import type { Actor, Ctx, Services } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { requireActor } from '../authz.ts';
import { roleOfUserType } from '../../../lib/permissions.ts';
import { classifyHost } from '../../../lib/hosts.ts';
import { apiTokensRepo, type ApiTokenRow } from '../../db/repositories/api-tokens-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { hashSecret, newSecret } from './tokens.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';

export const API_TOKEN_PREFIX = 'swt_';
const MAX_LIVE_TOKENS = 50;
/** last_used_at is written at most once a minute per token: a busy script must not write on every call. */
const TOUCH_EVERY_MS = 60_000;
const INVALID = 'This API token is invalid, expired or revoked.';

export interface ApiTokenView {
  id: string;
  name: string;
  scope: 'read' | 'write';
  prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  expired: boolean;
}

function toView(row: ApiTokenRow, now: number): ApiTokenView {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.token_prefix,
    created_at: toIso(row.created_at),
    expires_at: row.expires_at === null ? null : toIso(row.expires_at),
    last_used_at: row.last_used_at === null ? null : toIso(row.last_used_at),
    expired: row.expires_at !== null && row.expires_at <= now,
  };
}

/** Tokens are managed from a signed-in session only: a token must not mint or revoke tokens. */
function requireSessionActor(ctx: Ctx): Actor {
  const actor = requireActor(ctx);
  if (actor.apiToken) throw new DomainError('forbidden', 'API tokens cannot manage API tokens. Sign in to the console.');
  return actor;
}

export async function listApiTokens(ctx: Ctx): Promise<ApiTokenView[]> {
  const actor = requireSessionActor(ctx);
  const now = ctx.services.now();
  return (await apiTokensRepo(ctx.services.db).listForUser(actor.userId)).map((r) => toView(r, now));
}

export async function createApiToken(
  ctx: Ctx,
  input: { name: string; scope: 'read' | 'write'; expires_at?: string | null },
): Promise<ApiTokenView & { token: string }> {
  const actor = requireSessionActor(ctx);
  const { services } = ctx;
  const now = services.now();
  const name = input.name.trim();
  if (!name) throw new DomainError('validation', 'Name is required.', { fields: { name: 'Name is required.' } });
  let expiresAt: number | null = null;
  if (input.expires_at) {
    expiresAt = Date.parse(input.expires_at);
    if (!Number.isFinite(expiresAt) || expiresAt <= now) {
      throw new DomainError('validation', 'The expiry must be a time in the future.', {
        fields: { expires_at: 'Choose a time in the future.' },
      });
    }
  }
  const repo = apiTokensRepo(services.db);
  if ((await repo.countLiveForUser(actor.userId)) >= MAX_LIVE_TOKENS) {
    throw new DomainError('limit_exceeded', `You have ${MAX_LIVE_TOKENS} API tokens. Revoke one you no longer use first.`);
  }
  const token = `${API_TOKEN_PREFIX}${newSecret().value}`;
  const row: ApiTokenRow = {
    id: newId(),
    user_id: actor.userId,
    name,
    scope: input.scope,
    token_hash: hashSecret(token),
    token_prefix: token.slice(0, 12),
    created_at: now,
    expires_at: expiresAt,
    last_used_at: null,
    revoked_at: null,
  };
  await withTransaction(ctx.services.db, async (tx) => {
    await apiTokensRepo(tx).insert(row);
    await auditFromCtx(tx, ctx, 'settings_update', { what: 'api_token_create', token_id: row.id, name, scope: input.scope });
  });
  return { ...toView(row, now), token };
}

export async function revokeApiToken(ctx: Ctx, id: string): Promise<void> {
  const actor = requireSessionActor(ctx);
  await withTransaction(ctx.services.db, async (tx) => {
    if ((await apiTokensRepo(tx).revoke(actor.userId, id, ctx.services.now())) === 0) throw notFound('API token');
    await auditFromCtx(tx, ctx, 'settings_update', { what: 'api_token_revoke', token_id: id });
  });
}

export interface VerifiedApiToken {
  actor: Actor;
  /** a company user's token on the main host: only the calls of the redirect flow are served */
  mainHostCompanyUser: boolean;
  companySubdomain: string | null;
}

/**
 * The user a bearer token acts as on this host, under the same rules as a session: an active
 * user of an active company, on that company's subdomain (or the main host, limited like a
 * session there). Throws 401 for an unknown, expired or revoked token or a deactivated user or
 * company; 403 on another company's host.
 */
export async function verifyApiToken(services: Services, presented: string, host: string): Promise<VerifiedApiToken> {
  if (!presented.startsWith(API_TOKEN_PREFIX) || presented.length > 200) throw new DomainError('unauthorized', INVALID);
  const now = services.now();
  const row = await apiTokensRepo(services.db).findByHash(hashSecret(presented));
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) throw new DomainError('unauthorized', INVALID);
  const role = roleOfUserType(row.user_type);
  if (!row.is_active || !role) throw new DomainError('unauthorized', 'The account of this API token is disabled.');
  const where = classifyHost(host, services.config.productDomain);
  if (where.kind === 'invalid') throw new DomainError('unauthorized', INVALID);
  let mainHostCompanyUser = false;
  if (row.user_type !== 1) {
    if (!row.company_id || !row.company_active) throw new DomainError('unauthorized', 'The company of this API token is inactive.');
    if (where.kind === 'tenant' && where.subdomain !== row.company_subdomain) {
      throw new DomainError('forbidden', "This API token belongs to another company. Use it on your company's address.");
    }
    mainHostCompanyUser = where.kind === 'root';
  } else if (where.kind === 'tenant') {
    const company = await companiesRepo(services.db).findBySubdomain(where.subdomain);
    if (!company?.is_active) throw new DomainError('forbidden', 'Company not found or inactive');
  }
  if (row.last_used_at === null || now - row.last_used_at >= TOUCH_EVERY_MS) await apiTokensRepo(services.db).touch(row.id, now);
  const iat = Math.floor(now / 1000);
  return {
    actor: {
      userId: row.user_id,
      email: row.email,
      fullName: row.full_name,
      userType: row.user_type as 1 | 2 | 3,
      role,
      companyId: row.user_type === 1 ? null : row.company_id,
      sessionId: `apitoken:${row.id}`,
      apiToken: { id: row.id, scope: row.scope },
      iat,
      exp: row.expires_at === null ? iat + 3600 : Math.floor(row.expires_at / 1000),
    },
    mainHostCompanyUser,
    companySubdomain: row.company_subdomain,
  };
}
