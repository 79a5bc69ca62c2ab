// The diagnostic summary (super admins): platform counts and this process's health.
import type { Ctx } from '../context.ts';
import { requireSuperAdmin } from '../authz.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import { getHealth } from '../system/health.ts';

export async function getDashboardSummary(ctx: Ctx) {
  requireSuperAdmin(ctx);
  const counts = await companiesRepo(ctx.services.db).platformCounts();
  return { ...counts, health: await getHealth(ctx.services) };
}
