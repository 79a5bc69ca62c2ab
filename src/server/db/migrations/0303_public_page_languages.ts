// Languages of the public pages (issue 32): the company's default language (what a visitor whose
// browser names none of the offered languages reads), the languages its status page offers (JSON
// array of PUBLIC_LOCALES including the default; null: the default alone) and the page's own time
// zone (IANA; null: UTC). On the companies row, so a change moves its updated_at and with it the
// page's snapshot fingerprint (status-page-repo.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('default_language', 'varchar(10)', (c) => c.notNull().defaultTo('en'))
    .execute();
  await db.schema.alterTable('companies').addColumn('status_page_languages', 'varchar(200)').execute();
  await db.schema.alterTable('companies').addColumn('status_page_time_zone', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('companies').dropColumn('status_page_time_zone').execute();
  await db.schema.alterTable('companies').dropColumn('status_page_languages').execute();
  await db.schema.alterTable('companies').dropColumn('default_language').execute();
}
