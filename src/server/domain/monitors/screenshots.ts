// Browser checks' kept screenshots: read one (tenant-scoped like its monitor: another company's
// answers 404) and prune them by age (BROWSER_SCREENSHOT_DAYS) and by each company's byte budget
// (src/lib/plans.ts screenshotBytes), the oldest first.
import { checkScreenshotsRepo } from '../../db/repositories/check-screenshots-repo.ts';
import { DAY_MS } from '../../../lib/timeline.ts';
import { planLimits } from '../../../lib/plans.ts';
import { requirePermission } from '../authz.ts';
import type { Ctx, Services } from '../context.ts';
import { notFound } from '../errors.ts';
import { load } from './service.ts';

export async function getScreenshot(ctx: Ctx, monitorId: string, screenshotId: string): Promise<Buffer> {
  requirePermission(ctx, 'view', 'monitors');
  const m = await load(ctx, monitorId);
  const shot = await checkScreenshotsRepo(ctx.services.db).find(m.company_id, m.id, screenshotId);
  if (!shot) throw notFound('Screenshot');
  return shot.png;
}

/** Deletes screenshots past their days, then each company's oldest past its plan's bytes; answers how many. */
export async function pruneScreenshots(
  services: Services,
  now: number,
  days: number,
  budgetOf: (plan: string | null) => number = (plan) => planLimits(plan).screenshotBytes,
): Promise<{ byAge: number; byBudget: number }> {
  const repo = checkScreenshotsRepo(services.db);
  const byAge = await repo.deleteOlderThan(now - days * DAY_MS);
  let byBudget = 0;
  for (const c of await repo.bytesByCompany()) {
    const budget = budgetOf(c.plan);
    if (c.bytes > budget) byBudget += await repo.trimToBudget(c.company_id, budget);
  }
  return { byAge, byBudget };
}
