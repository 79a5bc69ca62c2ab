// Result streams (issue 27, result ids): a probe numbers its results in the order it delivers them
// (`p1:<stream>:<seq>`, src/lib/probe-result-ids.ts), so the platform keeps one row per stream, its
// highest number taken, instead of one row per result id (probe_results_seen: 173 bytes an id on
// PostgreSQL, kept 7 days: about 35 GB for one location sending 333 results a second).
// `prev_seq` is scratch: the upsert that advances a stream sets it to the number before, and
// returns it, so one atomic statement says which of a batch's results are new.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('probe_result_streams')
    .addColumn('location', 'integer', (c) => c.notNull())
    .addColumn('stream', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('prev_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('probe_result_streams_pk', ['location', 'stream'])
    .execute();
  await db.schema.createIndex('probe_result_streams_updated_idx').on('probe_result_streams').column('updated_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('probe_result_streams').execute();
}
