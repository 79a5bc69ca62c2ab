// SQL for a probe location's health (issue 27, migration 0120): whether its probes went silent
// (offline_since) and whether the per-location canary flags it (flagged_since), kept by the
// probe-health job; and `unhealthyLocations`, which the quorum writer asks so that an offline or
// flagged location counts neither way in a monitor's verdict.
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';

/** A location as the probe-health job sees it: its health and when any of its probes last called. */
export interface LocationHealthRow {
  id: string;
  num: number;
  slug: string;
  name: string;
  company_id: string | null;
  offline_since: number | null;
  flagged_since: number | null;
  /** The newest last_seen_at of its probes; null when no probe ever called */
  last_seen_at: number | null;
}

/** The locations among `nums` that are offline or flagged: the quorum counts them neither way. */
export async function unhealthyLocations(db: DbScope, nums: readonly number[]): Promise<Set<number>> {
  const wanted = nums.filter((n) => n > 0);
  if (wanted.length === 0) return new Set();
  const rows = await db.k
    .selectFrom('probe_locations')
    .select('num')
    .where('num', 'in', wanted)
    .where((eb) => eb.or([eb('offline_since', 'is not', null), eb('flagged_since', 'is not', null)]))
    .execute();
  return new Set(rows.map((r) => Number(r.num)));
}

export function locationHealthRepo(db: DbScope) {
  const k = db.k;
  /** Compare-and-set of one health column: answers whether this call changed it. */
  const swap = async (id: string, column: 'offline_since' | 'flagged_since', was: number | null, next: number | null) => {
    const r = await k
      .updateTable('probe_locations')
      .set({ [column]: next })
      .where('id', '=', id)
      .where(column, was === null ? 'is' : '=', was)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  };
  return {
    async list(): Promise<LocationHealthRow[]> {
      const rows = await k
        .selectFrom('probe_locations as l')
        .select(['l.id', 'l.num', 'l.slug', 'l.name', 'l.company_id', 'l.offline_since', 'l.flagged_since'])
        .select((eb) =>
          eb
            .selectFrom('probes as p')
            .whereRef('p.location_id', '=', 'l.id')
            .select(sql<number | null>`max(p.last_seen_at)`.as('n'))
            .as('last_seen_at'),
        )
        .orderBy('l.num')
        .execute();
      return rows.map((r) => ({
        ...r,
        num: Number(r.num),
        offline_since: r.offline_since === null ? null : Number(r.offline_since),
        flagged_since: r.flagged_since === null ? null : Number(r.flagged_since),
        last_seen_at: r.last_seen_at === null ? null : Number(r.last_seen_at),
      }));
    },
    /** Starts an offline spell unless one is recorded (another process may have just done it). */
    markOffline: (id: string, since: number) => swap(id, 'offline_since', null, since),
    /** Ends the offline spell that began at `since`, unless another process ended it. */
    markOnline: (id: string, since: number) => swap(id, 'offline_since', since, null),
    flag: (id: string, since: number) => swap(id, 'flagged_since', null, since),
    unflag: (id: string, since: number) => swap(id, 'flagged_since', since, null),
    /** Monitors the location checked since `since`, the most recently checked first (its per-location states). */
    async recentlyChecked(location: number, since: number, limit: number): Promise<string[]> {
      const rows = await k
        .selectFrom('monitor_location_states')
        .select('monitor_id')
        .where('location', '=', location)
        .where('last_checked_at', '>=', since)
        .orderBy('last_checked_at', 'desc')
        .orderBy('monitor_id')
        .limit(limit)
        .execute();
      return rows.map((r) => r.monitor_id);
    },
  };
}
