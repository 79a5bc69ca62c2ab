// SQL for each location's state of a monitor checked from more than one location
// (monitor_location_states, migration 0119): read locked with the monitors inside the result
// writer's transaction, written back once per batch.
import type { Insertable, Selectable } from 'kysely';
import type { DbScope } from '../scope.ts';
import { anyOf } from './any-of.ts';
import type { MonitorLocationStatesTable } from '../schema/monitoring.ts';
import { type BulkTable, upsertRows } from './bulk-rows.ts';

const LOCATION_STATE_ROWS: BulkTable<keyof MonitorLocationStatesTable & string> = {
  table: 'monitor_location_states',
  columns: {
    monitor_id: 'varchar',
    location: 'integer',
    company_id: 'varchar',
    status: 'varchar',
    status_since: 'bigint',
    pending_status: 'varchar',
    pending_count: 'integer',
    last_checked_at: 'bigint',
    last_status: 'varchar',
    last_response_time_ms: 'double precision',
    last_http_code: 'integer',
    last_error: 'text',
    updated_at: 'bigint',
  },
  key: ['monitor_id', 'location'],
  update: [
    'status',
    'status_since',
    'pending_status',
    'pending_count',
    'last_checked_at',
    'last_status',
    'last_response_time_ms',
    'last_http_code',
    'last_error',
    'updated_at',
  ],
};

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
    /** Inserts or replaces these rows (bulk-rows.ts: one statement on PostgreSQL, one per 500 on SQLite). */
    async putMany(rows: Insertable<MonitorLocationStatesTable>[]): Promise<void> {
      await upsertRows(db, LOCATION_STATE_ROWS, rows);
    },
  };
}
