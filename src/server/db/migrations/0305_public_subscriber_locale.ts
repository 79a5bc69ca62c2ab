// The language a status-page subscriber reads (issue 32): the page's language when they
// subscribed, a PUBLIC_LOCALES code. Subscribers from before have none: their mails are written
// in the company's default language (English until a company can choose one).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('status_subscribers').addColumn('locale', 'varchar(16)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('status_subscribers').dropColumn('locale').execute();
}
