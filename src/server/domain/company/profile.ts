// The Settings screen's company section: a company admin edits their own company's profile and
// branding (the tenant form's checks, without plan, limits, subdomain or status, which stay with
// super admins) and reads the plan's limits against what the company uses.
import { isPublicLocale, PUBLIC_LOCALES } from '../../../lib/i18n/index.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { requirePermission } from '../authz.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { monitorsRepo } from '../../db/repositories/monitors-repo.ts';
import { usersRepo } from '../../db/repositories/users-repo.ts';
import { auditFromCtx } from '../audit/record.ts';
import { withTransaction } from '../../db/scope.ts';
import { isPlanName, planLimits } from '../../../lib/plans.ts';
import { failIfInvalid, loadCompany, LOGO_LABELS } from './admin.ts';
import { toCompanyView, type CompanyView } from './present.ts';
import { validateCompany } from './rules.ts';
import { cleanFormLogos } from '../status-page/logo.ts';
import { monitorLocationsRepo } from '../../db/repositories/monitor-locations-repo.ts';
import { effectiveList, slugListProblem } from '../../../lib/monitor-locations.ts';
import { locationCatalog } from '../monitors/locations.ts';

export interface CompanyProfileInput {
  name?: string;
  url?: string | null;
  phone?: string | null;
  primary_color?: string;
  secondary_color?: string;
  horizontal_logo_base64?: string | null;
  logo_base64?: string | null;
  /** location slugs for monitors without their own set; null: the built-in engine */
  default_locations?: string[] | null;
  /** the public pages' default language, one of PUBLIC_LOCALES */
  default_language?: string;
}

const PROFILE_KEYS = ['name', 'url', 'phone', 'primary_color', 'secondary_color', 'horizontal_logo_base64', 'logo_base64'] as const;

/** A company the caller holds settings of: company users only their own (another's is not found). */
async function ownCompany(ctx: Ctx, action: 'view' | 'update', id: string) {
  const actor = requirePermission(ctx, action, 'settings', action === 'view' ? 'view the company profile' : 'change the company profile');
  if (actor.role !== 'super_admin' && actor.companyId !== id) throw notFound('Company');
  return loadCompany(ctx, id);
}

export async function updateCompanyProfile(ctx: Ctx, id: string, input: CompanyProfileInput): Promise<CompanyView> {
  const before = await ownCompany(ctx, 'update', id);
  // The stored name, e-mail and subdomain fill the tenant form's required fields, so only the
  // profile's own fields can fail.
  const { value, fields } = validateCompany(
    { ...input, name: input.name ?? before.name, email: before.email, subdomain: before.subdomain ?? undefined },
    before,
  );
  await cleanFormLogos(value, fields, LOGO_LABELS);
  const profileFields = Object.fromEntries(Object.entries(fields).filter(([k]) => (PROFILE_KEYS as readonly string[]).includes(k)));
  const defaults = input.default_locations;
  if (defaults !== undefined && defaults !== null) {
    const known = (await locationCatalog(ctx.services.db, [id], ctx.services.now())).known(id);
    const problem = slugListProblem(defaults, new Set(known.keys()));
    if (problem) profileFields.default_locations = problem;
  }
  if (input.default_language !== undefined && !isPublicLocale(input.default_language))
    profileFields.default_language = `Choose one of: ${PUBLIC_LOCALES.join(', ')}.`;
  failIfInvalid(profileFields);
  const patch: Record<string, unknown> = {};
  for (const key of PROFILE_KEYS) if (value[key] !== undefined) patch[key] = value[key];
  if (defaults !== undefined) patch.default_locations = defaults === null ? null : JSON.stringify(defaults);
  if (input.default_language !== undefined) patch.default_language = input.default_language;
  const changed = Object.keys(patch).filter((k) => patch[k] !== (before as unknown as Record<string, unknown>)[k]);
  await withTransaction(ctx.services.db, async (tx) => {
    await companiesRepo(tx).update(id, { ...patch, updated_at: ctx.services.now() });
    // The monitors following the default set are checked by the built-in engine exactly when it holds local.
    if (defaults !== undefined) {
      const set = effectiveList(null, defaults);
      await monitorLocationsRepo(tx).setRunLocalForDefault(id, set.includes('local'));
      await monitorLocationsRepo(tx).clearQuorumAbove(id, set.length);
    }
    await auditFromCtx(tx, ctx, 'tenant_update', { company_id: id, changed }, undefined, id);
  });
  return toCompanyView(await loadCompany(ctx, id), await usersRepo(ctx.services.db).countByCompany(id));
}

export interface CompanyUsage {
  plan: 'starter' | 'professional' | 'enterprise';
  monitors: { used: number; limit: number | null };
  users: { used: number; limit: number | null };
  spans_per_second: number;
  retention_days: number;
}

export async function getCompanyUsage(ctx: Ctx, id: string): Promise<CompanyUsage> {
  const c = await ownCompany(ctx, 'view', id);
  const limits = planLimits(c.plan);
  const db = ctx.services.db;
  return {
    plan: isPlanName(c.plan) ? c.plan : 'starter',
    monitors: { used: await monitorsRepo(db).countByCompany(id), limit: Number.isFinite(limits.monitors) ? limits.monitors : null },
    users: { used: await usersRepo(db).countByCompany(id), limit: c.max_users ?? null },
    spans_per_second: limits.spansPerSecond,
    retention_days: limits.retentionDays,
  };
}
