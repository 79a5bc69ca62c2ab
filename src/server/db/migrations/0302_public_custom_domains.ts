// Custom domains of a company's status page (status.acme.com → the company's public documents).
// A domain is served only once its owner proved control (TXT token + CNAME at the platform);
// the daily re-check keeps `state`, `checked_at` and `last_error` current. One company per name.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('custom_domains')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('domain', 'varchar(253)', (c) => c.notNull().unique())
    .addColumn('token', 'varchar(100)', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('verified_at', 'bigint')
    .addColumn('checked_at', 'bigint')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_domains_company').on('custom_domains').columns(['company_id', 'domain']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('custom_domains').execute();
}
