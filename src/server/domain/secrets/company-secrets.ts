// Company secrets (issue 29): values a company's synthetic monitors name as {{secrets.NAME}}.
// Any member sees the names and which monitors use them, never a value; company admins create,
// replace and delete them (audited as settings changes, with the name only). A secret a monitor
// still names cannot be deleted (the answer names the monitors), and a monitor cannot be saved
// naming one the company does not have.
import { companySecretsRepo } from '../../db/repositories/company-secrets-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { probeAssignmentsRepo } from '../../db/repositories/probe-assignments-repo.ts';
import { withTransaction, type DbScope } from '../../db/scope.ts';
import { stepSecretNames } from '../../engine/checkers/api-flow.ts';
import { monitorSecretsKey, seal } from '../../engine/kinds/secret-box.ts';
import { auditFromCtx } from '../audit/record.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { toIso } from '../ids.ts';

/** As the API names them: an upper-case letter, then upper-case letters, digits and _ (64 at most). */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;
const MAX_VALUE_CHARS = 10_000;
/** Secrets of one company: enough for every test account and token a journey needs. */
const MAX_SECRETS_PER_COMPANY = 100;

export interface CompanySecretView {
  name: string;
  created_at: string;
  updated_at: string;
  used_by: string[];
}

/** The company a secrets call is about: the actor's own; a super admin names one. */
async function companyOf(ctx: Ctx, requested: string | undefined): Promise<string> {
  const companyId = companyScope(ctx, requested ?? null);
  if (!companyId)
    throw new DomainError('validation', 'company_id is required: choose the company whose secrets these are.', {
      fields: { company_id: 'company_id is required' },
    });
  if (!(await companiesRepo(ctx.services.db).findById(companyId))) throw notFound('Company');
  return companyId;
}

function checkName(name: string): void {
  if (!SECRET_NAME.test(name))
    throw new DomainError(
      'validation',
      'A secret name is an upper-case letter, then upper-case letters, digits and _ (at most 64), e.g. API_TOKEN.',
      {
        fields: { name: 'Use upper-case letters, digits and _, starting with a letter' },
      },
    );
}

/** Secret name → the ids of the company's monitors whose steps name it. */
async function usage(db: DbScope, companyId: string): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  for (const m of await companySecretsRepo(db).monitorsNamingSecrets(companyId)) {
    let config: { steps?: unknown } = {};
    try {
      config = JSON.parse(m.config) as { steps?: unknown };
    } catch {
      continue;
    }
    for (const name of stepSecretNames(config.steps)) out.set(name, [...(out.get(name) ?? []), m.id]);
  }
  return out;
}

export async function listSecrets(ctx: Ctx, input: { company_id?: string } = {}): Promise<CompanySecretView[]> {
  requirePermission(ctx, 'view', 'monitors', 'view company secrets');
  const companyId = await companyOf(ctx, input.company_id);
  const [rows, used] = await Promise.all([companySecretsRepo(ctx.services.db).list(companyId), usage(ctx.services.db, companyId)]);
  return rows.map((r) => ({
    name: r.name,
    created_at: toIso(r.created_at),
    updated_at: toIso(r.updated_at),
    used_by: used.get(r.name) ?? [],
  }));
}

export async function putSecret(ctx: Ctx, name: string, input: { value: string }, companyIdAsked?: string): Promise<CompanySecretView> {
  requirePermission(ctx, 'update', 'settings', 'change company secrets');
  checkName(name);
  const companyId = await companyOf(ctx, companyIdAsked);
  const value = typeof input.value === 'string' ? input.value : '';
  if (value.length === 0 || value.length > MAX_VALUE_CHARS)
    throw new DomainError('validation', `A secret's value is 1 to ${MAX_VALUE_CHARS} characters.`, {
      fields: { value: 'Enter the value (at most 10,000 characters)' },
    });
  const s = ctx.services;
  const repo = companySecretsRepo(s.db);
  const existing = await repo.list(companyId);
  if (!existing.some((r) => r.name === name) && existing.length >= MAX_SECRETS_PER_COMPANY)
    throw new DomainError('limit_exceeded', `A company may have at most ${MAX_SECRETS_PER_COMPANY} secrets; delete one first.`);
  const now = s.now();
  const sealed = seal(monitorSecretsKey(s.config), value);
  const users = (await usage(s.db, companyId)).get(name) ?? [];
  const { created } = await withTransaction(s.db, async (tx) => {
    const r = await companySecretsRepo(tx).put(companyId, name, sealed, now);
    // Probes hold the opened value with each assignment: the monitors naming it are sent again.
    await probeAssignmentsRepo(tx).bump(users);
    // The name only: the value never reaches the audit log.
    await auditFromCtx(tx, ctx, 'settings_update', { secret: name, action: r.created ? 'create' : 'replace' }, undefined, companyId);
    return r;
  });
  const before = existing.find((r) => r.name === name);
  return { name, created_at: toIso(created || !before ? now : before.created_at), updated_at: toIso(now), used_by: users };
}

export async function deleteSecret(ctx: Ctx, name: string, companyIdAsked?: string): Promise<void> {
  requirePermission(ctx, 'update', 'settings', 'delete company secrets');
  const companyId = await companyOf(ctx, companyIdAsked);
  const s = ctx.services;
  const users = (await usage(s.db, companyId)).get(name) ?? [];
  if (users.length > 0) {
    const names = await companySecretsRepo(s.db).monitorNames(companyId, users);
    throw new DomainError(
      'conflict',
      `Secret ${name} is used by ${names.length === 1 ? 'the monitor' : 'the monitors'} ${names.map((n) => `"${n}"`).join(', ')}: change ${names.length === 1 ? 'it' : 'them'} first.`,
    );
  }
  const removed = await withTransaction(s.db, async (tx) => {
    const gone = await companySecretsRepo(tx).remove(companyId, name);
    if (gone) await auditFromCtx(tx, ctx, 'settings_update', { secret: name, action: 'delete' }, undefined, companyId);
    return gone;
  });
  if (!removed) throw notFound('Secret');
}

/**
 * Refuses a monitor config whose steps name a secret the company does not have, on the `steps`
 * field (a check would fail "secret X is not defined" from its first run).
 */
export async function requireKnownSecrets(db: DbScope, companyId: string | null, config: object): Promise<void> {
  const names = stepSecretNames((config as { steps?: unknown }).steps);
  if (names.length === 0) return;
  const have = companyId ? new Set((await companySecretsRepo(db).list(companyId)).map((r) => r.name)) : new Set<string>();
  const missing = names.filter((n) => !have.has(n));
  if (missing.length === 0) return;
  const text =
    missing.length === 1
      ? `Secret ${missing[0]} is not defined: add it under Settings, Secrets`
      : `Secrets ${missing.join(', ')} are not defined: add them under Settings, Secrets`;
  throw new DomainError('validation', text, { fields: { steps: text } });
}
