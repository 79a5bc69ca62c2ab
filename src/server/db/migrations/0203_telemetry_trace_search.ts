// Trace search (the Traces screen) lists request spans newest first: for every company (super
// admins) and for one company's service. Partial indexes, so the child spans that make up most
// rows cost nothing here.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('spans_requests_idx').on('spans').column('start_us').where(sql<boolean>`is_request = 1`).execute();
  await db.schema
    .createIndex('spans_company_service_requests_idx')
    .on('spans')
    .columns(['company_id', 'service', 'start_us'])
    .where(sql<boolean>`is_request = 1`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('spans_company_service_requests_idx').execute();
  await db.schema.dropIndex('spans_requests_idx').execute();
}
