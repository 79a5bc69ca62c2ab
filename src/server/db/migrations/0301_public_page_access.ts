// Private status pages: who may read a company's public documents (its page, history, feeds,
// badges, Statuspage JSON, public-status call, subscribe pages). One row per company that has
// chosen anything but the default (no row: public). Share links are stored by id so each one
// can be revoked; the link itself is signed with the server's secret and carries its expiry.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('status_page_access')
    .addColumn('company_id', 'varchar(64)', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('mode', 'varchar(20)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(200)')
    .addColumn('ip_allowlist', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('status_page_share_links')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('label', 'varchar(100)')
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('status_page_share_links_company')
    .on('status_page_share_links')
    .columns(['company_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('status_page_share_links').execute();
  await db.schema.dropTable('status_page_access').execute();
}
