// Day partitions of the time-partitioned tables on PostgreSQL (check results, spans, …): one
// partition per UTC day, named after its day, created a week ahead; retention drops the days that
// lie wholly before the longest retention any company's plan still needs. Pure: `now` is an
// argument, no I/O.
import { planLimits } from './plans.ts';
import { DAY_MS, dayStart } from './timeline.ts';

/** Days created ahead of today, so a missed run of the hourly job (or a week of them) loses nothing */
export const PARTITION_DAYS_AHEAD = 7;

/** How a partitioned table's time column counts: milliseconds or microseconds since the epoch */
export type TimeUnit = 'ms' | 'us';

export const UNITS_PER_MS: Readonly<Record<TimeUnit, number>> = { ms: 1, us: 1000 };

/** `check_results_p20261124`: the table and the partition's UTC day */
export function dayPartitionName(table: string, dayMs: number): string {
  return `${table}_p${new Date(dayStart(dayMs)).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The UTC days (their first millisecond) that must have a partition at `now`: today and the week ahead */
export function daysToEnsure(now: number): number[] {
  const today = dayStart(now);
  return Array.from({ length: PARTITION_DAYS_AHEAD + 1 }, (_, i) => today + i * DAY_MS);
}

/** The longest retention (days) among these plans (an unknown plan counts as the starter plan); `fallbackDays` when there are none */
export function longestRetentionDays(plans: Iterable<string | null>, fallbackDays: number): number {
  let longest = 0;
  for (const plan of plans) longest = Math.max(longest, planLimits(plan).retentionDays);
  return longest || fallbackDays;
}

/** Whether retention may drop the partition of `dayMs`: the whole day lies before the cutoff */
export function dayExpired(dayMs: number, cutoffMs: number): boolean {
  return dayMs + DAY_MS <= cutoffMs;
}

/**
 * The instant before which a plan's rows are deleted. With day partitions (PostgreSQL) whole days
 * only: the rows of a day go at once, a day after they would by the exact cutoff, and the plan
 * with the longest retention then never deletes a row because its days are dropped whole first.
 */
export function retentionCutoff(now: number, retentionDays: number, wholeDays: boolean): number {
  const exact = now - retentionDays * DAY_MS;
  return wholeDays ? dayStart(exact) : exact;
}
