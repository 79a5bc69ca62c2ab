// Companies (tenants) administration of section 7, super admins only; and the signed-in user's
// own company (fetch-company).
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { requireActor, requireSuperAdmin } from '../authz.ts';
import { companiesRepo, type CompanyRow } from '../../db/repositories/companies-repo.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { withTransaction } from '../../db/scope.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { spansRepo } from '../../db/repositories/spans-repo.ts';
import { endpointsRepo } from '../../db/repositories/endpoints-repo.ts';
import { redRepo } from '../../db/repositories/red-repo.ts';
import { endCompanySessions } from '../auth/sessions.ts';
import { auditFromCtx } from '../audit/record.ts';
import { toCompanyView, type CompanyView } from './present.ts';
import { validateCompany, type CompanyFormInput } from './rules.ts';
import { cleanFormLogos } from '../status-page/logo.ts';

export function failIfInvalid(fields: Record<string, string>): void {
  const messages = Object.values(fields);
  if (messages.length) throw new DomainError('validation', messages.join(' '), { fields });
}

const SUBDOMAIN_TAKEN = 'This subdomain is already taken. Please choose another.';
/** The form's names of the logo fields, for their problem texts. */
export const LOGO_LABELS = { logo_base64: 'Logo', horizontal_logo_base64: 'Horizontal logo' };

async function assertUnique(ctx: Ctx, subdomain: string, slug: string | null, selfId: string | null): Promise<void> {
  const repo = companiesRepo(ctx.services.db);
  const bySub = await repo.findBySubdomain(subdomain);
  if (bySub && bySub.id !== selfId) throw new DomainError('conflict', SUBDOMAIN_TAKEN, { fields: { subdomain: SUBDOMAIN_TAKEN } });
  if (slug) {
    const bySlug = await repo.findBySlug(slug);
    if (bySlug && bySlug.id !== selfId)
      throw new DomainError('conflict', 'This slug is already taken. Please choose another.', {
        fields: { slug: 'This slug is already taken. Please choose another.' },
      });
  }
}

export async function listCompanies(ctx: Ctx): Promise<CompanyView[]> {
  requireSuperAdmin(ctx);
  const rows = await companiesRepo(ctx.services.db).listWithUserCounts();
  return rows.map((r) => toCompanyView(r, r.user_count));
}

export async function loadCompany(ctx: Ctx, id: string): Promise<CompanyRow> {
  const c = await companiesRepo(ctx.services.db).findById(id);
  if (!c) throw notFound('Company');
  return c;
}

export async function getCompany(ctx: Ctx, id: string): Promise<CompanyView> {
  requireSuperAdmin(ctx);
  const c = await loadCompany(ctx, id);
  return toCompanyView(c, await usersRepo(ctx.services.db).countByCompany(id));
}

export async function createCompany(ctx: Ctx, input: CompanyFormInput): Promise<CompanyView> {
  requireSuperAdmin(ctx);
  const { value, fields } = validateCompany(input);
  await cleanFormLogos(value, fields, LOGO_LABELS);
  failIfInvalid(fields);
  const slug = value.slug ?? value.subdomain;
  await assertUnique(ctx, value.subdomain, slug, null);
  const now = ctx.services.now();
  const id = newId();
  try {
    await withTransaction(ctx.services.db, async (tx) => {
      await companiesRepo(tx).insert({
        id,
        ...value,
        slug,
        url: value.url ?? null,
        phone: value.phone ?? null,
        company_metadata: value.company_metadata ?? null,
        horizontal_logo_base64: value.horizontal_logo_base64 ?? null,
        logo_base64: value.logo_base64 ?? null,
        created_at: now,
        updated_at: now,
      });
      await auditFromCtx(tx, ctx, 'tenant_create', { company_id: id, name: value.name, subdomain: value.subdomain }, undefined, id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DomainError('conflict', SUBDOMAIN_TAKEN, { fields: { subdomain: SUBDOMAIN_TAKEN } });
    throw e;
  }
  return getCompany(ctx, id);
}

export async function updateCompany(ctx: Ctx, id: string, input: CompanyFormInput): Promise<CompanyView> {
  requireSuperAdmin(ctx);
  const before = await loadCompany(ctx, id);
  const { value, fields } = validateCompany(input, before);
  await cleanFormLogos(value, fields, LOGO_LABELS);
  failIfInvalid(fields);
  const slug = value.slug ?? (before.slug === before.subdomain ? value.subdomain : before.slug);
  await assertUnique(ctx, value.subdomain, slug, id);
  if (value.max_users !== undefined) {
    const users = await usersRepo(ctx.services.db).countByCompany(id);
    if (value.max_users < users) {
      const msg = `Max Users cannot be lower than the company's ${users} existing users.`;
      throw new DomainError('validation', msg, { fields: { max_users: msg } });
    }
  }
  const changed = Object.keys(value).filter(
    (k) => (value as unknown as Record<string, unknown>)[k] !== (before as unknown as Record<string, unknown>)[k],
  );
  try {
    await withTransaction(ctx.services.db, async (tx) => {
      await companiesRepo(tx).update(id, { ...value, slug, updated_at: ctx.services.now() });
      // Deactivating a company, or moving it to another host, ends its users' sessions.
      if ((before.is_active && value.is_active === false) || before.subdomain !== value.subdomain)
        await endCompanySessions(ctx.services, id, tx);
      await auditFromCtx(tx, ctx, 'tenant_update', { company_id: id, changed }, undefined, id);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new DomainError('conflict', SUBDOMAIN_TAKEN, { fields: { subdomain: SUBDOMAIN_TAKEN } });
    throw e;
  }
  return getCompany(ctx, id);
}

export async function deleteCompany(ctx: Ctx, id: string): Promise<void> {
  requireSuperAdmin(ctx);
  const c = await loadCompany(ctx, id);
  // Users, sessions, one-time codes, monitors, results, rollups, incidents, maintenance windows,
  // notifications and ingest keys go with the row (FK cascade). Spans, RED and endpoint rollups have no
  // foreign key (ingest writes them in bulk), so they are deleted here, in the same transaction.
  await withTransaction(ctx.services.db, async (db) => {
    await spansRepo(db).deleteForCompany(id);
    await redRepo(db).deleteForCompany(id);
    await endpointsRepo(db).deleteForCompany(id);
    await companiesRepo(db).delete(id);
    await auditFromCtx(db, ctx, 'tenant_delete', { company_id: id, name: c.name, subdomain: c.subdomain }, undefined, id);
  });
}

/** The signed-in user's company (a super admin's selected company is not theirs: 404). */
export async function fetchOwnCompany(ctx: Ctx): Promise<{ subdomain: string | null; company: CompanyView }> {
  const actor = requireActor(ctx);
  if (!actor.companyId) throw new DomainError('not_found', 'Your account is not assigned to a company.');
  const c = await loadCompany(ctx, actor.companyId);
  return { subdomain: c.subdomain, company: toCompanyView(c) };
}
