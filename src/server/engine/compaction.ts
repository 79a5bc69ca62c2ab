// Compaction of raw check results: rows older than a minute move into one chunk per monitor
// and UTC hour (checks-repo `compact`; format in src/lib/check-chunk.ts), about 6–10 bytes a
// check instead of about 300. The current hour's chunk grows as the job runs again; a late row
// for an hour already compacted merges into its chunk. Run by jobs/check-compaction.ts.
import { checksRepo } from '../db/repositories/checks-repo.ts';
import { type DbScope, withTransaction } from '../db/scope.ts';

/**
 * A macrotask turn. SQLite's driver is synchronous, so awaiting its queries only queues
 * microtasks: without this, a whole run (47,000 rows at 50,000 monitors) held the event loop
 * for 2 s, and the engine in the same process started 1,074 checks more than a second late.
 */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Results younger than this stay rows, so the result writer's batches of the last seconds have
 * landed. Kept short: the rows between two runs are the largest fixed cost of check storage
 * (about 220 bytes a row on PostgreSQL; 1 minute instead of 5 took the first day's
 * 2.4 bytes a check to about 1.5), and a later row still merges into its chunk.
 */
export const RAW_GRACE_MS = 60_000;
/**
 * Monitors per transaction, adapted run by run so one transaction holds the thread about
 * BATCH_TARGET_MS: a crash or a conflict redoes at most one batch's move, and on SQLite every
 * request waits out the batch under way. A fixed 100 suited a monitor checked from one place (2 rows
 * a run); checked from 5 locations (10 rows a monitor, 1,000 a batch) a batch of 100 held the
 * thread 19 to 72 ms on SQLite (5 runs into one hour's chunks, machine at load 6 to 9).
 */
const BATCH_TARGET_MS = 8;
const MIN_MONITORS_PER_BATCH = 5;
const MAX_MONITORS_PER_BATCH = 400;

/** The next batch's size from the last one's: halves above the target, grows below half of it. */
export function nextBatchSize(size: number, tookMs: number): number {
  if (tookMs > BATCH_TARGET_MS) return Math.max(MIN_MONITORS_PER_BATCH, Math.floor(size / 2));
  if (tookMs < BATCH_TARGET_MS / 2) return Math.min(MAX_MONITORS_PER_BATCH, size * 2);
  return size;
}

/**
 * Moves every row checked before `now - RAW_GRACE_MS` into chunks, one transaction per batch of
 * monitors, stopping once `maxChecks` have moved (the next run goes on). Idempotent: a second
 * run finds nothing to move. Answers the number of checks moved.
 */
export async function compactResults(db: DbScope, now: number, maxChecks = 500_000): Promise<number> {
  const cutoff = now - RAW_GRACE_MS;
  let moved = 0;
  let after: string | null = null;
  let size = 50;
  while (moved < maxChecks) {
    const ids = await checksRepo(db).monitorsWithRowsBefore(cutoff, after, size);
    if (ids.length === 0) break;
    const started = performance.now();
    moved += await withTransaction(db, (tx) => checksRepo(tx).compact(ids, cutoff));
    size = nextBatchSize(size, performance.now() - started);
    after = ids[ids.length - 1];
    await nextTurn(); // let due checks and requests through between batches
  }
  if (moved > 0) await checksRepo(db).reclaimSpace();
  return moved;
}
