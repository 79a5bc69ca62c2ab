// Raw check results are kept for the company plan's retention (starter 7, professional 30,
// enterprise 90 days); rollups stay. Run hourly by jobs/check-results-retention.ts; idempotent.
import { checksRepo } from '../db/repositories/checks-repo.ts';
import type { DbScope } from '../db/scope.ts';
import { PLANS } from '../../lib/plans.ts';
import { DAY_MS } from '../../lib/timeline.ts';

export async function pruneResults(db: DbScope, now: number): Promise<number> {
  let deleted = 0;
  for (const [plan, limits] of Object.entries(PLANS)) {
    deleted += await checksRepo(db).pruneOlderThan(plan, now - limits.retentionDays * DAY_MS, plan === 'starter');
  }
  return deleted;
}
