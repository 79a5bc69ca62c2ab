// Per-company ingest API keys. The secret is answered once at creation and stored as SHA-256
// (keys are 192 random bits, so a fast hash is enough). Company admins manage their own
// company's keys; super admins any company's (naming company_id on creation). Revoking a key
// is an update of api_intelligence (company admins have no delete right; the revoked key stays
// on record with its time).
import { createHash, randomBytes } from 'node:crypto';
import type { Ctx, Services } from '../context.ts';
import { companyScope, requirePermission } from '../authz.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso, toIsoOrNull } from '../ids.ts';
import { apiKeysRepo, type ApiKeyRow } from '../../db/repositories/api-keys-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { allowedOriginsOf, parseStoredOrigins } from './browser-origins.ts';

export const KEY_PREFIX = 'sw_live_';
const MAX_KEYS_PER_COMPANY = 50;
const TOUCH_EVERY_MS = 60_000;

export interface ApiKeyView {
  id: string;
  name: string;
  scope: 'ingest';
  prefix: string;
  company_id: string;
  created_at: string;
  last_used_at: string | null;
  allowed_origins: string[];
}

const view = (r: ApiKeyRow): ApiKeyView => ({
  id: r.id,
  name: r.name,
  scope: r.scope,
  prefix: r.prefix,
  company_id: r.company_id,
  created_at: toIso(r.created_at),
  last_used_at: toIsoOrNull(r.last_used_at),
  allowed_origins: parseStoredOrigins(r.allowed_origins),
});

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export async function listApiKeys(ctx: Ctx, input: { company_id?: string }): Promise<ApiKeyView[]> {
  requirePermission(ctx, 'view', 'api_intelligence', 'view ingest keys');
  const rows = await apiKeysRepo(ctx.services.db).listActive(companyScope(ctx, input.company_id));
  return rows.map(view);
}

export async function createApiKey(
  ctx: Ctx,
  input: { name: string; scope: 'ingest'; company_id?: string; allowed_origins?: string[] },
): Promise<ApiKeyView & { key: string }> {
  const actor = requirePermission(ctx, 'create', 'api_intelligence', 'create ingest keys');
  const companyId = companyScope(ctx, input.company_id);
  if (!companyId)
    throw new DomainError('validation', 'company_id is required: choose the company the key sends data for.', {
      fields: { company_id: 'company_id is required' },
    });
  if (!(await companiesRepo(ctx.services.db).findById(companyId))) throw notFound('Company');
  const name = input.name.trim();
  if (!name) throw new DomainError('validation', 'Name is required.', { fields: { name: 'Name is required' } });
  const origins = allowedOriginsOf(input.allowed_origins ?? []);
  const repo = apiKeysRepo(ctx.services.db);
  if ((await repo.countActive(companyId)) >= MAX_KEYS_PER_COMPANY) {
    throw new DomainError('limit_exceeded', `A company may have at most ${MAX_KEYS_PER_COMPANY} active API keys; revoke one first.`);
  }
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  const row: ApiKeyRow = {
    id: newId(),
    company_id: companyId,
    name,
    scope: input.scope,
    prefix: key.slice(0, KEY_PREFIX.length + 4),
    key_hash: hashKey(key),
    created_by: actor.userId,
    created_at: ctx.services.now(),
    last_used_at: null,
    revoked_at: null,
    allowed_origins: JSON.stringify(origins),
  };
  await repo.insert(row);
  return { ...view(row), key };
}

/** Renames a key or replaces its allowed browser origins (an update of api_intelligence). */
export async function updateApiKey(ctx: Ctx, id: string, input: { name?: string; allowed_origins?: string[] }): Promise<ApiKeyView> {
  requirePermission(ctx, 'update', 'api_intelligence', 'change ingest keys');
  const set: { name?: string; allowed_origins?: string } = {};
  if (input.name !== undefined) {
    set.name = input.name.trim();
    if (!set.name) throw new DomainError('validation', 'Name is required.', { fields: { name: 'Name is required' } });
  }
  if (input.allowed_origins !== undefined) set.allowed_origins = JSON.stringify(allowedOriginsOf(input.allowed_origins));
  const repo = apiKeysRepo(ctx.services.db);
  const row = Object.keys(set).length
    ? await repo.update(id, companyScope(ctx), set)
    : (await repo.listActive(companyScope(ctx))).find((r) => r.id === id);
  if (!row) throw notFound('API key');
  return view(row);
}

export async function revokeApiKey(ctx: Ctx, id: string): Promise<void> {
  requirePermission(ctx, 'update', 'api_intelligence', 'revoke ingest keys');
  const n = await apiKeysRepo(ctx.services.db).revoke(id, companyScope(ctx), ctx.services.now());
  if (n === 0) throw notFound('API key');
}

const INVALID_KEY = 'Invalid or missing API key. Send it as Authorization: Bearer <key>.';

/**
 * The company an ingest request writes for, from its bearer key alone. Unknown, revoked and
 * inactive-company keys get the same answer, so a caller learns nothing about companies.
 */
export async function authenticateIngestKey(
  services: Services,
  authorization: string | undefined,
): Promise<{ companyId: string; plan: string; allowedOrigins: string }> {
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  const key = m?.[1];
  if (!key?.startsWith(KEY_PREFIX) || key.length > 200) throw new DomainError('unauthorized', INVALID_KEY);
  const repo = apiKeysRepo(services.db);
  const found = await repo.findActiveByHash(hashKey(key));
  if (!found) throw new DomainError('unauthorized', INVALID_KEY);
  const now = services.now();
  if (found.last_used_at === null || now - found.last_used_at > TOUCH_EVERY_MS) await repo.touch(found.id, now);
  return { companyId: found.company_id, plan: found.plan, allowedOrigins: found.allowed_origins };
}
