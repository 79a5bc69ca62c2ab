// Checks from several locations (issue 27). A monitor names its locations and a quorum; each
// location keeps its own state, and the monitor's state is the quorum's verdict over them.
// - probe_locations.num: a small number keying a location in stored checks (0 is `local`, the
//   built-in engine, which has no row), given at creation as max + 1 under the unique index.
// - monitors.locations: JSON array of location slugs (null: the company's default set);
//   monitors.quorum: how many locations must see it down (null: a majority of the online ones);
//   monitors.run_local: the built-in engine checks it (its effective set holds `local`), kept by
//   the service whenever the monitor or the company's default set changes, so claiming due
//   monitors stays one indexed filter.
// - companies.default_locations: the company's default set (JSON array of slugs; null: local).
// - check_results.location: which location checked (0: local); the chunk codec keeps it too.
// - monitor_location_states: per monitor and location, the state machine's state and the last
//   result, for monitors checked from more than one location (a local-only monitor keeps its
//   state on its row alone, exactly as before).
// - monitor_location_rollups_hourly: per monitor, location and hour, the same rollup columns as
//   monitor_rollups_hourly (per-location uptime and latency on the monitor page and SLA report).
// - probe_results_seen: the ids of results already taken from a location's probes, so a batch
//   sent again after a lost answer is not stored twice (pruned after PROBE_RESULT_ID_DAYS).
import { type Kysely, SqliteAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema.alterTable('probe_locations').addColumn('num', 'integer').execute();
  await sql`update probe_locations set num = (select count(*) from probe_locations p2 where p2.created_at < probe_locations.created_at or (p2.created_at = probe_locations.created_at and p2.id <= probe_locations.id))`.execute(
    db,
  );
  await db.schema.createIndex('probe_locations_num_idx').on('probe_locations').column('num').unique().execute();

  await db.schema.alterTable('monitors').addColumn('locations', 'text').execute();
  await db.schema.alterTable('monitors').addColumn('quorum', 'integer').execute();
  await db.schema
    .alterTable('monitors')
    .addColumn('run_local', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('companies').addColumn('default_locations', 'text').execute();
  await db.schema
    .alterTable('check_results')
    .addColumn('location', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('monitor_location_states')
    .addColumn('monitor_id', 'varchar(36)', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('location', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('status_since', 'bigint')
    .addColumn('pending_status', 'varchar(16)')
    .addColumn('pending_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_checked_at', 'bigint')
    .addColumn('last_status', 'varchar(16)')
    .addColumn('last_response_time_ms', 'double precision')
    .addColumn('last_http_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('monitor_location_states_key', ['monitor_id', 'location'])
    .execute();
  await db.schema
    .createIndex('monitor_location_states_location_idx')
    .on('monitor_location_states')
    .columns(['location', 'company_id'])
    .execute();

  await db.schema
    .createTable('monitor_location_rollups_hourly')
    .addColumn('monitor_num', 'integer', (c) => c.notNull().references('monitors.num').onDelete('cascade'))
    .addColumn('location', 'integer', (c) => c.notNull())
    .addColumn('hour_start', 'bigint', (c) => c.notNull())
    .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('degraded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('maintenance', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_http_code', 'integer')
    .addColumn('data', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('monitor_location_rollups_hourly_key', ['monitor_num', 'location', 'hour_start'])
    .execute();

  await db.schema
    .createTable('probe_results_seen')
    .addColumn('location', 'integer', (c) => c.notNull())
    .addColumn('result_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('probe_results_seen_key', ['location', 'result_id'])
    .execute();
  await db.schema.createIndex('probe_results_seen_received_idx').on('probe_results_seen').column('received_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['probe_results_seen', 'monitor_location_rollups_hourly', 'monitor_location_states'])
    await db.schema.dropTable(t).execute();
  await db.schema.alterTable('check_results').dropColumn('location').execute();
  await db.schema.alterTable('companies').dropColumn('default_locations').execute();
  for (const c of ['run_local', 'quorum', 'locations']) await db.schema.alterTable('monitors').dropColumn(c).execute();
  await db.schema.dropIndex('probe_locations_num_idx').execute();
  await db.schema.alterTable('probe_locations').dropColumn('num').execute();
}
