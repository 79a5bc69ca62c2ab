// A user's console language (issue 32): 'en' or 'de', or null to follow the browser's
// Accept-Language. Nullable, so existing rows and users without a row keep following the browser.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ui_settings').addColumn('language', 'varchar(8)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('ui_settings').dropColumn('language').execute();
}
