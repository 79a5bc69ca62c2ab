// Upkeep of PostgreSQL's day partitions (migration 0410): every partitioned table gets today and
// the week ahead, and loses the days that lie wholly before the longest retention any company's
// plan needs now. Shorter plans keep fewer days: their companies' rows in the days still kept
// are deleted by the tables' own retention (see engine/retention.ts and telemetry/service.ts).
// Nothing happens on SQLite, which keeps plain tables and deletes rows.
import { companiesRepo } from './repositories/companies-repo.ts';
import { partitionsRepo, type DayPartitionedTable } from './repositories/partitions-repo.ts';
import type { DbScope } from './scope.ts';
import { dayExpired, daysToEnsure, longestRetentionDays } from '../../lib/day-partitions.ts';
import { PLANS } from '../../lib/plans.ts';
import { DAY_MS } from '../../lib/timeline.ts';

/** With no company at all, keep what the longest plan would */
const LONGEST_PLAN_DAYS = Math.max(...Object.values(PLANS).map((p) => p.retentionDays));

/** Creates the missing days from today to a week ahead in every partitioned table. */
export function ensureComingDays(db: DbScope, now: number): Promise<{ created: number; moved: number }> {
  return ensureDays(db, daysToEnsure(now));
}

/** Creates the partitions these UTC days (first ms) lack in every partitioned table. */
export async function ensureDays(db: DbScope, days: number[]): Promise<{ created: number; moved: number }> {
  let created = 0;
  let moved = 0;
  if (db.kind !== 'postgres') return { created, moved };
  const repo = partitionsRepo(db);
  for (const t of await repo.tables()) {
    const parts = await repo.list(t);
    const have = new Set(parts.map((p) => p.dayMs));
    const fallback = parts.find((p) => p.dayMs === null)?.name ?? null;
    for (const day of days) {
      if (have.has(day)) continue;
      moved += await repo.createDay(t, day, fallback);
      have.add(day);
      created++;
    }
  }
  return { created, moved };
}

/**
 * Drops the day partitions lying wholly before the longest retention of any company's plan, in
 * every partitioned table or only in `table`; answers how many. A company on that plan loses
 * nothing it keeps (its oldest kept day stays whole, up to a day past the exact cutoff).
 */
export async function dropExpiredDays(db: DbScope, now: number, table?: string): Promise<number> {
  if (db.kind !== 'postgres') return 0;
  const companies = await companiesRepo(db).list();
  const cutoff =
    now -
    longestRetentionDays(
      companies.map((c) => c.plan),
      LONGEST_PLAN_DAYS,
    ) *
      DAY_MS;
  const repo = partitionsRepo(db);
  let dropped = 0;
  for (const t of (await repo.tables()).filter((x: DayPartitionedTable) => table === undefined || x.table === table)) {
    for (const p of await repo.list(t)) {
      if (p.dayMs === null || !dayExpired(p.dayMs, cutoff)) continue;
      await repo.drop(p.name);
      dropped++;
    }
  }
  return dropped;
}

/**
 * Tables whose rows move elsewhere within minutes (check results into their hours' chunks, by the
 * check-compaction job): their past days empty out long before retention would drop them.
 */
const EMPTIED_BY_COMPACTION = new Set(['check_results']);

/**
 * Drops the emptied days of those tables once they are over (yesterday stays: a result written
 * just before midnight may wait there for the next compaction). Each partition left is one more
 * for every query without a time bound to probe (compaction's look for leftover rows, a monitor's
 * history). A late row for a dropped day lands in DEFAULT, which compaction empties as well.
 */
export async function dropEmptiedDays(db: DbScope, now: number): Promise<number> {
  if (db.kind !== 'postgres') return 0;
  const repo = partitionsRepo(db);
  let dropped = 0;
  for (const t of (await repo.tables()).filter((x) => EMPTIED_BY_COMPACTION.has(x.table))) {
    for (const p of await repo.list(t)) {
      if (p.dayMs === null || p.dayMs + 2 * DAY_MS > now) continue;
      if (await repo.dropIfEmpty(p.name)) dropped++;
    }
  }
  return dropped;
}
