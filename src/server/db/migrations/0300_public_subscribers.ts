// Status-page subscribers: visitors of a company's public page who get its incident and
// maintenance notices by e-mail (double opt-in) or by a signed webhook. The public area gets the
// 0300-0399 range. Their deliveries go through the alerts outbox (0590 adds the recipient there).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('status_subscribers')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('webhook_url', 'varchar(2048)')
    .addColumn('secret', 'varchar(200)')
    .addColumn('component_ids', 'text')
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('confirm_token_hash', 'varchar(64)')
    .addColumn('confirm_expires_at', 'bigint')
    .addColumn('unsubscribe_nonce', 'varchar(64)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('confirmed_at', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // One e-mail subscription per address and company (webhooks may repeat: each has its own secret).
  await db.schema.createIndex('status_subscribers_email').on('status_subscribers').columns(['company_id', 'email']).unique().execute();
  await db.schema
    .createIndex('status_subscribers_company')
    .on('status_subscribers')
    .columns(['company_id', 'state', 'created_at'])
    .execute();
  await db.schema.createIndex('status_subscribers_confirm').on('status_subscribers').column('confirm_token_hash').unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('status_subscribers').execute();
}
