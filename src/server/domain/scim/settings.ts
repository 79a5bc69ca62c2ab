// The company admin's side of SCIM (Settings screen): the bearer token (shown once, only its
// SHA-256 kept, one live token a company: a new one replaces the old), and the names of the
// groups whose members are admins and viewers. Each change is audited.
import type { Actor, Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { requirePermission } from '../authz.ts';
import { auditFromCtx } from '../audit/record.ts';
import { hashSecret, newSecret } from '../auth/tokens.ts';
import { withTransaction } from '../../db/scope.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { scimRepo } from '../../db/repositories/scim-repo.ts';
import { plainTextProblem } from '../../../lib/plain-text.ts';
import { planAllowsScim, SCIM_PLAN_REQUIRED } from './plan.ts';
import { applyRoleGroups } from './roles.ts';

export const SCIM_TOKEN_PREFIX = 'sws_';

export interface ScimSettingsView {
  /** whether the company's plan includes SCIM */
  available: boolean;
  /** the base URL to give the identity provider */
  base_url: string;
  token: { prefix: string; created_at: string; last_used_at: string | null } | null;
  admin_group: string | null;
  viewer_group: string | null;
}

function companyAdmin(ctx: Ctx, doing: string): Actor & { companyId: string } {
  const actor = requirePermission(ctx, 'update', 'settings', doing);
  if (!actor.companyId)
    throw new DomainError('forbidden', "SCIM provisioning is set up by a company admin, on their company's Settings screen.");
  return actor as Actor & { companyId: string };
}

async function requirePlan(ctx: Ctx, companyId: string): Promise<void> {
  const company = await companiesRepo(ctx.services.db).findById(companyId);
  if (!company) throw notFound('Company');
  if (!planAllowsScim(company.plan)) throw new DomainError('forbidden', SCIM_PLAN_REQUIRED);
}

export async function getScimSettings(ctx: Ctx, origin: string): Promise<ScimSettingsView> {
  const actor = companyAdmin(ctx, 'view SCIM provisioning');
  const repo = scimRepo(ctx.services.db);
  const company = await companiesRepo(ctx.services.db).findById(actor.companyId);
  if (!company) throw notFound('Company');
  const token = await repo.findLiveToken(actor.companyId);
  const settings = await repo.findSettings(actor.companyId);
  return {
    available: planAllowsScim(company.plan),
    base_url: `${origin}/scim/v2`,
    token: token
      ? {
          prefix: token.token_prefix,
          created_at: toIso(token.created_at),
          last_used_at: token.last_used_at === null ? null : toIso(token.last_used_at),
        }
      : null,
    admin_group: settings?.admin_group ?? null,
    viewer_group: settings?.viewer_group ?? null,
  };
}

/** A new token (the old one, if any, stops working at once). The token is answered this once. */
export async function createScimToken(
  ctx: Ctx,
  origin: string,
): Promise<{ token: string; prefix: string; created_at: string; base_url: string }> {
  const actor = companyAdmin(ctx, 'create a SCIM token');
  await requirePlan(ctx, actor.companyId);
  const now = ctx.services.now();
  const token = `${SCIM_TOKEN_PREFIX}${newSecret().value}`;
  const id = newId();
  await withTransaction(ctx.services.db, async (tx) => {
    const replaced = await scimRepo(tx).revokeTokens(actor.companyId, now);
    await scimRepo(tx).insertToken({
      id,
      company_id: actor.companyId,
      token_hash: hashSecret(token),
      token_prefix: token.slice(0, 12),
      created_by: actor.userId,
      created_at: now,
      last_used_at: null,
      revoked_at: null,
    });
    await auditFromCtx(tx, ctx, 'settings_update', { what: 'scim_token_create', token_id: id, replaced_previous: replaced > 0 });
  });
  return { token, prefix: token.slice(0, 12), created_at: toIso(now), base_url: `${origin}/scim/v2` };
}

export async function revokeScimToken(ctx: Ctx): Promise<void> {
  const actor = companyAdmin(ctx, 'revoke the SCIM token');
  await withTransaction(ctx.services.db, async (tx) => {
    if ((await scimRepo(tx).revokeTokens(actor.companyId, ctx.services.now())) === 0) throw notFound('SCIM token');
    await auditFromCtx(tx, ctx, 'settings_update', { what: 'scim_token_revoke' });
  });
}

const MAX_GROUP_NAME = 200;

function groupName(field: 'admin_group' | 'viewer_group', label: string, value: string | null | undefined): string | null {
  const name = (value ?? '').trim();
  if (!name) return null;
  const problem = plainTextProblem(label, name);
  if (problem) throw new DomainError('validation', problem, { fields: { [field]: problem } });
  if (name.length > MAX_GROUP_NAME) {
    const text = `${label} must be at most ${MAX_GROUP_NAME} characters.`;
    throw new DomainError('validation', text, { fields: { [field]: text } });
  }
  return name;
}

/**
 * Names the group whose members are admins and the one whose members are viewers. Members of
 * the groups named before and after are given the role the new names say at once.
 */
export async function saveScimRoleGroups(
  ctx: Ctx,
  origin: string,
  input: { admin_group?: string | null; viewer_group?: string | null },
): Promise<ScimSettingsView> {
  const actor = companyAdmin(ctx, 'change SCIM provisioning');
  await requirePlan(ctx, actor.companyId);
  const admin = groupName('admin_group', 'Admin group', input.admin_group);
  const viewer = groupName('viewer_group', 'Viewer group', input.viewer_group);
  if (admin !== null && admin === viewer) {
    const text = 'The admin group and the viewer group must be different groups.';
    throw new DomainError('validation', text, { fields: { viewer_group: text } });
  }
  await withTransaction(ctx.services.db, async (tx) => {
    const repo = scimRepo(tx);
    const before = await repo.findSettings(actor.companyId);
    await repo.saveSettings({ company_id: actor.companyId, admin_group: admin, viewer_group: viewer, updated_at: ctx.services.now() });
    await auditFromCtx(tx, ctx, 'settings_update', { what: 'scim_role_groups', admin_group: admin, viewer_group: viewer });
    const names = [before?.admin_group, before?.viewer_group, admin, viewer].filter((n): n is string => !!n);
    await applyRoleGroups(tx, ctx.services, {
      companyId: actor.companyId,
      groupNames: names,
      audit: (db, event, details) => auditFromCtx(db, ctx, event, details),
    });
  });
  return getScimSettings(ctx, origin);
}
