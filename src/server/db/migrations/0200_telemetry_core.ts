// Ingest keys, spans and per-minute RED rollups. Spans are keyed by (company, trace, span) so a
// retried export is written once; partial indexes keep the error search and the request list
// cheap to maintain at ingest. Rollups carry a fixed-bucket latency histogram as one integer
// column per bucket so an upsert can add them in SQL on both databases.
import { sql, type Kysely } from 'kysely';

// h0..h19: the 20 latency buckets of the histogram as this migration created them. Written out
// here, not imported, so the migration stays frozen: changing the buckets needs a new migration.
const BUCKET_COLUMNS = Array.from({ length: 20 }, (_, i) => `h${i}`);

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('scope', 'varchar(20)', (c) => c.notNull())
    .addColumn('prefix', 'varchar(20)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_by', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_keys_company_idx').on('api_keys').column('company_id').execute();

  await db.schema
    .createTable('spans')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('trace_id', 'varchar(32)', (c) => c.notNull())
    .addColumn('span_id', 'varchar(16)', (c) => c.notNull())
    .addColumn('parent_span_id', 'varchar(16)')
    .addColumn('name', 'varchar(500)', (c) => c.notNull())
    .addColumn('service', 'varchar(200)', (c) => c.notNull())
    .addColumn('kind', 'integer', (c) => c.notNull())
    .addColumn('start_us', 'bigint', (c) => c.notNull())
    .addColumn('duration_ms', 'real', (c) => c.notNull())
    .addColumn('status_code', 'integer', (c) => c.notNull())
    .addColumn('http_status', 'integer')
    .addColumn('is_error', 'integer', (c) => c.notNull())
    .addColumn('is_request', 'integer', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('attributes', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('spans_pk', ['company_id', 'trace_id', 'span_id'])
    .execute();
  // Retention sweep and the request list of one company.
  await db.schema.createIndex('spans_company_start_idx').on('spans').columns(['company_id', 'start_us']).execute();
  // Error traces of one company, and of every company (super admin), newest first.
  await db.schema
    .createIndex('spans_company_errors_idx')
    .on('spans')
    .columns(['company_id', 'start_us'])
    .where(sql<boolean>`is_error = 1`)
    .execute();
  await db.schema.createIndex('spans_errors_idx').on('spans').column('start_us').where(sql<boolean>`is_error = 1`).execute();

  let rollups = db.schema
    .createTable('red_rollups')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('minute_ms', 'bigint', (c) => c.notNull())
    .addColumn('service', 'varchar(200)', (c) => c.notNull())
    .addColumn('operation', 'varchar(500)', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addColumn('errors', 'integer', (c) => c.notNull())
    .addColumn('sum_ms', 'real', (c) => c.notNull());
  for (const col of BUCKET_COLUMNS) rollups = rollups.addColumn(col, 'integer', (c) => c.notNull().defaultTo(0));
  await rollups.addPrimaryKeyConstraint('red_rollups_pk', ['company_id', 'minute_ms', 'service', 'operation']).execute();
  await db.schema.createIndex('red_rollups_minute_idx').on('red_rollups').column('minute_ms').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['red_rollups', 'spans', 'api_keys']) await db.schema.dropTable(t).execute();
}
