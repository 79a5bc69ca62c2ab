// SQL for each location's state of a monitor checked from more than one location
// (monitor_location_states, migration 0119): read locked with the monitors inside the result
// writer's transaction, written back once per batch.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import { anyOf } from './any-of.ts';
import type { MonitorLocationStatesTable } from '../schema/monitoring.ts';

export type LocationStateRow = Selectable<MonitorLocationStatesTable>;

export function locationStatesRepo(db: DbScope) {
  const k = db.k;
  return {
    /** The states of these monitors at every location (the monitors are locked already). */
    async ofMonitors(monitorIds: string[]): Promise<LocationStateRow[]> {
      if (monitorIds.length === 0) return [];
      const rows = await k
        .selectFrom('monitor_location_states')
        .selectAll()
        .where(anyOf(db, 'monitor_id', monitorIds, 'text'))
        .execute();
      return rows.map((r) => ({
        ...r,
        status_since: r.status_since === null ? null : Number(r.status_since),
        last_checked_at: r.last_checked_at === null ? null : Number(r.last_checked_at),
        updated_at: Number(r.updated_at),
      }));
    },
    /** Inserts or replaces these rows in one statement per 500. */
    async putMany(rows: Insertable<MonitorLocationStatesTable>[]): Promise<void> {
      for (let from = 0; from < rows.length; from += 500) {
        await k
          .insertInto('monitor_location_states')
          .values(rows.slice(from, from + 500))
          .onConflict((oc) =>
            oc.columns(['monitor_id', 'location']).doUpdateSet((eb) => ({
              status: eb.ref('excluded.status'),
              status_since: eb.ref('excluded.status_since'),
              pending_status: eb.ref('excluded.pending_status'),
              pending_count: eb.ref('excluded.pending_count'),
              last_checked_at: eb.ref('excluded.last_checked_at'),
              last_status: eb.ref('excluded.last_status'),
              last_response_time_ms: eb.ref('excluded.last_response_time_ms'),
              last_http_code: eb.ref('excluded.last_http_code'),
              last_error: eb.ref('excluded.last_error'),
              updated_at: eb.ref('excluded.updated_at'),
            })),
          )
          .execute();
      }
    },
  };
}
