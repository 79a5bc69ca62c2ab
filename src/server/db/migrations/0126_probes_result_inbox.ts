// Probe results taken but not yet stored (issue 27, ingest latency). A delivery call claims its
// result ids and lands its results here in one short transaction, then answers the probe; the
// inbox drainer (domain/probes/inbox.ts) stores them (state machines, quorum verdict, rollups,
// incidents) a row at a time in transactions of its own, each deleting its row. A delivery call no
// longer waits for the heavy writes, and nothing taken is lost: a row stays until it is stored.
import { type Kysely, SqliteAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('probe_result_inbox')
    .addColumn('seq', sqlite ? 'integer' : 'bigserial', (c) => (sqlite ? c.primaryKey().autoIncrement() : c.primaryKey()))
    .addColumn('location', 'integer', (c) => c.notNull())
    .addColumn('received_at', 'bigint', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    /** JSON array of the results (domain/probes/inbox.ts InboxResult) */
    .addColumn('results', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('probe_result_inbox').execute();
}
