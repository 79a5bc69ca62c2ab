// Raw check results are kept for the company plan's retention (starter 7, professional 30,
// enterprise 90 days); rollups stay. Run hourly by jobs/check-results-retention.ts; idempotent.
//
// On PostgreSQL results live in day partitions, and the job first drops the days past the
// longest retention of any company's plan (db/day-partitions.ts): no row is deleted for them.
// Companies on shorter plans share the days still kept with longer plans, so their older rows are
// deleted here, but in whole days (the cutoff rounded down to midnight UTC): a day's rows of a plan
// go in one statement on one partition, and the longest plan never deletes a row (its days are
// dropped whole first). Moving each plan into partitions of its own would save these deletes
// but cost a plan column in every row and a move of a company's rows on every plan change.
// SQLite deletes rows at the exact cutoff, as before.
import { checksRepo } from '../db/repositories/checks-repo.ts';
import type { DbScope } from '../db/scope.ts';
import { retentionCutoff } from '../../lib/day-partitions.ts';
import { PLANS } from '../../lib/plans.ts';

export async function pruneResults(db: DbScope, now: number): Promise<number> {
  let deleted = 0;
  for (const [plan, limits] of Object.entries(PLANS)) {
    const cutoff = retentionCutoff(now, limits.retentionDays, db.kind === 'postgres');
    deleted += await checksRepo(db).pruneOlderThan(plan, cutoff, plan === 'starter');
  }
  return deleted;
}
