// The engine's side of the per-destination check budget (issue 25, item 17): when the active
// monitors of one destination host ask for more checks a minute than MAX_CHECKS_PER_HOST_PER_MINUTE
// (the operator lowered it, or monitors came back from a suspended company), each of them is
// checked `stretch` = asked / budget times less often, so the host gets the budget and no more.
// Every process reads the same sums from the database, so several engines together stay within
// it too. Hosts starting or ending a stretch are logged for the operator.
import { formatRate } from '../../lib/destination-host.ts';
import type { Db } from '../db/connect.ts';
import { destinationBudgetRepo } from '../db/repositories/destination-budget-repo.ts';

/** How often the sums are read again (a new or lowered budget applies within this). */
export const STRETCH_REFRESH_MS = 30_000;
/** Over-budget hosts tracked at most (the busiest ones) */
const TRACKED = 1000;

export interface DestinationStretch {
  /** Host → factor (> 1) for the hosts over the budget; read again when older than STRETCH_REFRESH_MS. */
  current(): Promise<ReadonlyMap<string, number>>;
}

export function createDestinationStretch(db: Db, cap: number, log: (msg: string) => void): DestinationStretch {
  let factors = new Map<string, number>();
  let readAt = -Infinity;
  let reading: Promise<void> | null = null;
  async function read(): Promise<void> {
    const over = await destinationBudgetRepo(db).busiest(cap + 1e-6, TRACKED);
    const next = new Map(over.map((h) => [h.host, h.per_minute / cap]));
    for (const h of over) {
      const before = factors.get(h.host);
      if (before === undefined || Math.abs(before - next.get(h.host)!) > 0.01)
        log(
          `engine: checks of ${h.host} are spaced out ×${formatRate(h.per_minute / cap)}: ${h.monitors} monitors of ${h.companies} companies ` +
            `ask ${formatRate(h.per_minute)} a minute, MAX_CHECKS_PER_HOST_PER_MINUTE is ${cap}`,
        );
    }
    for (const host of factors.keys()) if (!next.has(host)) log(`engine: checks of ${host} are within the per-host budget again`);
    factors = next;
  }
  return {
    async current() {
      const now = performance.now();
      if (now - readAt >= STRETCH_REFRESH_MS) {
        readAt = now;
        reading ??= read().finally(() => {
          reading = null;
        });
        await reading;
      }
      return factors;
    },
  };
}
