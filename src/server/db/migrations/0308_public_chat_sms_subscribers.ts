// Status-page subscribers through Slack, Teams, Discord (their incoming-webhook URL goes in
// webhook_url, the kind says which service) and SMS: the phone number (E.164), one subscription
// per number and company, and the wrong guesses of the pending SMS code (its hash sits in
// confirm_token_hash like a mailed link's; a few wrong guesses void it).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('status_subscribers').addColumn('phone', 'varchar(20)').execute();
  await db.schema
    .alterTable('status_subscribers')
    .addColumn('confirm_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('status_subscribers_phone').on('status_subscribers').columns(['company_id', 'phone']).unique().execute();
  // STOP from the inbound SMS webhook finds every company's subscription of a number.
  await db.schema.createIndex('status_subscribers_phone_any').on('status_subscribers').column('phone').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('status_subscribers_phone_any').execute();
  await db.schema.dropIndex('status_subscribers_phone').execute();
  await db.schema.alterTable('status_subscribers').dropColumn('confirm_attempts').execute();
  await db.schema.alterTable('status_subscribers').dropColumn('phone').execute();
}
