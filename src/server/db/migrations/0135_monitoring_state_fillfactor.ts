// PostgreSQL: room on each page for the rows the result writer rewrites all the time (a monitor's
// state, each location's state, the open hour's and day's rollups: with five locations at 60 s,
// five times a minute each). At the default fillfactor of 100 a page has no room, so an update
// writes the new row version to another page and a new entry into every index of the table
// (monitors has nine): measured under bench:probe-drain, 4 % of the monitors' updates and 2 % of
// the location states' were HOT (heap-only, no index write). With room left on the page, an
// update that changes no indexed column stays on its page and touches no index. It applies to
// pages written from now on; older pages gain room as their rows move. SQLite rewrites rows in
// place: nothing to change there.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

/** Table → percent of each page filled by inserts; the rest is kept for updates */
const FILL: Record<string, number> = {
  monitors: 70,
  monitor_location_states: 70,
  monitor_rollups_hourly: 80,
  monitor_rollups_daily: 80,
  monitor_location_rollups_hourly: 80,
};

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  for (const [table, fill] of Object.entries(FILL)) await sql.raw(`alter table ${table} set (fillfactor = ${fill})`).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  for (const table of Object.keys(FILL)) await sql.raw(`alter table ${table} reset (fillfactor)`).execute(db);
}
