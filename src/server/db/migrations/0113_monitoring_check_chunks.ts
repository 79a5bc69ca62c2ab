// Compact check storage. Raw results stay rows in `check_results` only for a few minutes; the
// check-compaction job then moves them into `check_chunks`: one row per monitor and UTC hour
// holding that hour's checks in the binary format of src/lib/check-chunk.ts (about 8–9 bytes a
// check instead of about 300 as a row with its indexes).
//
// `check_results` loses its two time indexes: every reader (history, phase samples, compaction,
// retention) goes through the monitor, i.e. the primary key. On SQLite the table is rebuilt
// WITHOUT ROWID, so each row is stored once, in the primary key's b-tree. Primary key and column
// names stay: the PostgreSQL partitioning of 0410 converts this table by `checked_at`, and
// `check_chunks` by `chunk_start`, which is why that column is part of its primary key.
// `check_chunks` itself stays a rowid table on SQLite: its rows are large (a chunk is a few
// hundred bytes) and a closed hour's chunks are appended in rowid order, which packs pages
// tighter than a WITHOUT ROWID tree split by monitor (measured: 12.0 against 12.7 bytes a check).
import { SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL runs each migration in a transaction already; SQLite's migrator does not, and a
  // crash between the copy and the rename must not lose the results table.
  if (db.isTransaction) await apply(db);
  else await db.transaction().execute(apply);
}

async function apply(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .createTable('check_chunks')
    .addColumn('monitor_id', 'varchar(36)', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    // Start of the UTC hour (ms) every check of the chunk falls in.
    .addColumn('chunk_start', 'bigint', (c) => c.notNull())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('checks', 'integer', (c) => c.notNull())
    .addColumn('data', sqlite ? 'blob' : 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('check_chunks_pk', ['monitor_id', 'chunk_start'])
    .execute();

  if (!sqlite) {
    await db.schema.dropIndex('check_results_company_time_idx').execute();
    await db.schema.dropIndex('check_results_time_idx').execute();
    return;
  }
  await db.schema
    .createTable('check_results_rebuilt')
    .addColumn('monitor_id', 'varchar(36)', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('response_time_ms', 'real')
    .addColumn('http_code', 'integer')
    .addColumn('error', 'varchar(1000)')
    .addColumn('timings', 'text')
    .addColumn('cert_expires_at', 'bigint')
    .addPrimaryKeyConstraint('check_results_pk', ['monitor_id', 'checked_at'])
    .modifyEnd(sql`without rowid`)
    .execute();
  await sql`insert into check_results_rebuilt (monitor_id, checked_at, company_id, status, response_time_ms, http_code, error, timings, cert_expires_at)
    select monitor_id, checked_at, company_id, status, response_time_ms, http_code, error, timings, cert_expires_at from check_results`.execute(
    db,
  );
  await db.schema.dropTable('check_results').execute();
  await db.schema.alterTable('check_results_rebuilt').renameTo('check_results').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  // Chunked checks are not turned back into rows: compacted history is lost.
  await db.schema.dropTable('check_chunks').execute();
  await db.schema.createIndex('check_results_company_time_idx').on('check_results').columns(['company_id', 'checked_at']).execute();
  await db.schema.createIndex('check_results_time_idx').on('check_results').column('checked_at').execute();
}
