// Engine additions: the last DNS answers of a monitor (to notice changed answers) and an index
// for the retention job's per-company time scans of raw results.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('last_answers', 'text').execute();
  await db.schema.createIndex('check_results_time_idx').on('check_results').column('checked_at').execute();
  await db.schema.createIndex('incidents_monitor_idx').on('incidents').columns(['monitor_id', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('incidents_monitor_idx').execute();
  await db.schema.dropIndex('check_results_time_idx').execute();
  await db.schema.alterTable('monitors').dropColumn('last_answers').execute();
}
