// Trace search (the Traces screen) lists request spans newest first: for every company (super
// admins) and for one company's service. Partial indexes, so the child spans that make up most
// rows cost nothing here.
// Hourly RED rollups beside the per-minute ones: 30 days of minutes are millions of rows for a
// busy company, too many to read for one screen; the 7- and 30-day metrics read hours instead.
// Same columns as red_rollups (minute_ms holds the hour's first minute), so one upsert serves
// both. Filled from the minute rows here: joined sketch texts parse as their merge.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('spans_requests_idx').on('spans').column('start_us').where(sql<boolean>`is_request = 1`).execute();
  await db.schema
    .createIndex('spans_company_service_requests_idx')
    .on('spans')
    .columns(['company_id', 'service', 'start_us'])
    .where(sql<boolean>`is_request = 1`)
    .execute();

  await db.schema
    .createTable('red_rollups_hourly')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('minute_ms', 'bigint', (c) => c.notNull())
    .addColumn('service', 'varchar(200)', (c) => c.notNull())
    .addColumn('operation', 'varchar(500)', (c) => c.notNull())
    .addColumn('requests', 'integer', (c) => c.notNull())
    .addColumn('errors', 'integer', (c) => c.notNull())
    .addColumn('sum_ms', 'real', (c) => c.notNull())
    .addColumn('hist', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('red_rollups_hourly_pk', ['company_id', 'minute_ms', 'service', 'operation'])
    .execute();
  const joined = db.getExecutor().adapter instanceof SqliteAdapter ? sql`group_concat(hist, ',')` : sql`string_agg(hist, ',')`;
  await sql`insert into red_rollups_hourly (company_id, minute_ms, service, operation, requests, errors, sum_ms, hist)
    select company_id, minute_ms - (minute_ms % 3600000), service, operation, sum(requests), sum(errors), sum(sum_ms), ${joined}
    from red_rollups group by company_id, minute_ms - (minute_ms % 3600000), service, operation`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('red_rollups_hourly').execute();
  await db.schema.dropIndex('spans_company_service_requests_idx').execute();
  await db.schema.dropIndex('spans_requests_idx').execute();
}
