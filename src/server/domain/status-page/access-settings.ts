// The admin side of private status pages: read and change who may read the company's page, and
// create, list and revoke share links. Company admins and super admins (for the company chosen
// in the selector) change; viewers read. Every change is audited.
import { pageAccessRepo, type ShareLinkRow } from '../../db/repositories/page-access-repo.ts';
import type { PageAccessMode } from '../../db/schema/public.ts';
import { parseAllowlist } from './ip-allowlist.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';
import { requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId, toIso } from '../ids.ts';
import { hashPassword } from '../auth/password.ts';
import { forgetAccessRule, shareToken } from './access.ts';
import { publicTenantOrigin } from './public-links.ts';
import { companyOf } from './settings-company.ts';

export const PAGE_PASSWORD_MIN = 8;
export const SHARE_HOURS_MIN = 1;
export const SHARE_HOURS_MAX = 30 * 24;
const HOUR = 3_600_000;

export interface PageAccessInput {
  mode: PageAccessMode;
  /** a new password; omitted keeps the current one */
  password?: string;
  ip_allowlist?: string[];
}

const invalid = (field: string, text: string) => new DomainError('validation', text, { fields: { [field]: text } });

/** The access rule as the API shows it (never the password or its hash). */
export async function pageAccessOf(ctx: Ctx, companyId: string) {
  const row = await pageAccessRepo(ctx.services.db).get(companyId);
  return {
    mode: row?.mode ?? ('public' as const),
    has_password: !!row?.password_hash,
    ip_allowlist: row ? (JSON.parse(row.ip_allowlist) as string[]) : [],
    updated_at: row ? toIso(Number(row.updated_at)) : null,
  };
}

export async function getPageAccess(ctx: Ctx, tenant?: string) {
  requirePermission(ctx, 'view', 'monitors', 'view who may see the status page');
  return pageAccessOf(ctx, (await companyOf(ctx, tenant)).id);
}

export async function savePageAccess(ctx: Ctx, tenant: string | undefined, input: PageAccessInput) {
  requirePermission(ctx, 'update', 'monitors', 'change who may see the status page');
  const company = await companyOf(ctx, tenant);
  const repo = pageAccessRepo(ctx.services.db);
  const current = await repo.get(company.id);
  let passwordHash = current?.password_hash ?? null;
  if (input.password !== undefined) {
    if (input.password.length < PAGE_PASSWORD_MIN)
      throw invalid('password', `The page password needs at least ${PAGE_PASSWORD_MIN} characters.`);
    passwordHash = await hashPassword(input.password);
  }
  if (input.mode === 'password' && !passwordHash) throw invalid('password', 'Choose a password for the page.');
  const parsed = parseAllowlist(input.ip_allowlist ?? (current ? (JSON.parse(current.ip_allowlist) as string[]) : []));
  if ('error' in parsed) throw invalid(`ip_allowlist.${parsed.index}`, parsed.error);
  if (input.mode === 'ip_allowlist' && parsed.ok.length === 0) throw invalid('ip_allowlist', 'List at least one address or range.');
  await withTransaction(ctx.services.db, async (tx) => {
    await pageAccessRepo(tx).save(
      company.id,
      { mode: input.mode, password_hash: passwordHash, ip_allowlist: JSON.stringify(parsed.ok) },
      ctx.services.now(),
    );
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'status_page_access', mode: input.mode, password_changed: input.password !== undefined, ip_ranges: parsed.ok.length },
      undefined,
      company.id,
    );
  });
  // After the commit: a page served meanwhile must not cache the old rule again.
  forgetAccessRule(ctx.services, company.id);
  return pageAccessOf(ctx, company.id);
}

function presentLink(ctx: Ctx, row: ShareLinkRow) {
  const now = ctx.services.now();
  return {
    id: row.id,
    label: row.label,
    created_at: toIso(Number(row.created_at)),
    expires_at: toIso(Number(row.expires_at)),
    revoked_at: row.revoked_at === null ? null : toIso(Number(row.revoked_at)),
    state: row.revoked_at !== null ? ('revoked' as const) : Number(row.expires_at) <= now ? ('expired' as const) : ('active' as const),
  };
}

export async function listShareLinks(ctx: Ctx, tenant?: string) {
  requirePermission(ctx, 'view', 'monitors', 'view share links');
  const company = await companyOf(ctx, tenant);
  const rows = await pageAccessRepo(ctx.services.db).shareLinks(company.id, 100);
  return { items: rows.map((r) => presentLink(ctx, r)) };
}

/** A new link; its URL is shown once (it is the credential: the server keeps only its id). */
export async function createShareLink(ctx: Ctx, tenant: string | undefined, input: { expires_in_hours: number; label?: string | null }) {
  const actor = requirePermission(ctx, 'update', 'monitors', 'create share links');
  const company = await companyOf(ctx, tenant);
  if (!company.subdomain) throw new DomainError('validation', 'The company has no status page address yet.');
  const label = input.label?.trim() || null;
  if (label && /[\x00-\x1f\x7f]/.test(label)) throw invalid('label', 'A label is one line of plain text.');
  const now = ctx.services.now();
  const row: ShareLinkRow = {
    id: newId(),
    company_id: company.id,
    label,
    created_by: actor.userId,
    created_at: now,
    expires_at: now + input.expires_in_hours * HOUR,
    revoked_at: null,
  };
  await withTransaction(ctx.services.db, async (tx) => {
    await pageAccessRepo(tx).insertShareLink(row);
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'status_page_share_link', action: 'create', share_link_id: row.id, label, expires_at: toIso(row.expires_at) },
      undefined,
      company.id,
    );
  });
  const token = shareToken(ctx.services, row.id, company.id, row.expires_at);
  return { ...presentLink(ctx, row), url: `${publicTenantOrigin(ctx.services.config, company.subdomain)}/share/${token}` };
}

export async function revokeShareLink(ctx: Ctx, tenant: string | undefined, id: string) {
  requirePermission(ctx, 'update', 'monitors', 'revoke share links');
  const company = await companyOf(ctx, tenant);
  const repo = pageAccessRepo(ctx.services.db);
  if (!(await repo.shareLink(id, company.id))) throw notFound('Share link');
  await withTransaction(ctx.services.db, async (tx) => {
    await pageAccessRepo(tx).revokeShareLink(id, company.id, ctx.services.now());
    await auditFromCtx(
      tx,
      ctx,
      'settings_update',
      { area: 'status_page_share_link', action: 'revoke', share_link_id: id },
      undefined,
      company.id,
    );
  });
  return presentLink(ctx, (await repo.shareLink(id, company.id))!);
}
