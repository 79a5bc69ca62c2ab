// SQL for the probes seen in each location (issue 27): one row per (location, instance name),
// written by the probe's own calls.
import type { Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import { liveTokenLocation } from './probe-locations-repo.ts';
import type { ProbesTable } from '../schema/probes.ts';

export type ProbeRow = Selectable<ProbesTable>;

export function probesRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The location's probes, the most recently seen first. */
    listForLocation(locationId: string): Promise<ProbeRow[]> {
      return k
        .selectFrom('probes')
        .selectAll()
        .where('location_id', '=', locationId)
        .orderBy('last_seen_at', 'desc')
        .orderBy('id')
        .execute();
    },
    findByInstance(locationId: string, instance: string): Promise<ProbeRow | undefined> {
      return k.selectFrom('probes').selectAll().where('location_id', '=', locationId).where('instance', '=', instance).executeTakeFirst();
    },
    async insert(row: ProbeRow): Promise<void> {
      await k.insertInto('probes').values(row).execute();
    },
    /** A known probe said hello again: its token (it may have been given a new one), version, capabilities and time. */
    async seen(id: string, tokenId: string, version: string, capabilities: string, now: number): Promise<void> {
      await k.updateTable('probes').set({ token_id: tokenId, version, capabilities, last_seen_at: now }).where('id', '=', id).execute();
    },
    /** The locations (by num) with a probe seen since `since` that reported `capability` at its last hello. */
    async locationsWith(capability: string, since: number): Promise<Set<number>> {
      const rows = await k
        .selectFrom('probes as p')
        .innerJoin('probe_locations as l', 'l.id', 'p.location_id')
        .select('l.num')
        .distinct()
        .where('p.last_seen_at', '>=', since)
        .where('p.capabilities', 'like', `%${capability}%`)
        .execute();
      return new Set(rows.map((r) => Number(r.num)));
    },
    /** `called` for the location of a live token (liveTokenLocation), nothing for any other. */
    async calledUnderToken(
      tokenHash: string,
      instance: string,
      now: number,
      stats: { checks_per_second: number; lag_ms: number },
    ): Promise<void> {
      await k
        .updateTable('probes')
        .set({ last_seen_at: now, ...stats })
        .where('location_id', 'in', liveTokenLocation(k, tokenHash))
        .where('instance', '=', instance)
        .execute();
    },
    /** A probe of the location called (assignments, results): when, and its figures when it sent them. */
    async called(locationId: string, instance: string, now: number, stats?: { checks_per_second: number; lag_ms: number }): Promise<void> {
      await k
        .updateTable('probes')
        .set({ last_seen_at: now, ...(stats ?? {}) })
        .where('location_id', '=', locationId)
        .where('instance', '=', instance)
        .execute();
    },
  };
}
