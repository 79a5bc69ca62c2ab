// The company's own public texts per language (issue 32): beside each text a JSON object of its
// versions by PUBLIC_LOCALES code ({"de": "…", "ja": "…"}), null while there are none. Kept in
// the text's own row rather than in one translations table: every reader (the status page
// snapshot, the subscriber notices, the API) already loads that row, a translation is removed
// with its text (deleting an incident, a monitor or a group needs nothing more), and it belongs
// to the row's company without a second company check. `text` on both databases: the JSON is
// only ever read whole.
import type { Kysely } from 'kysely';

const COLUMNS = [
  ['incidents', 'title_translations'],
  ['incident_updates', 'message_translations'],
  ['monitors', 'public_name_translations'],
  ['status_page_groups', 'name_translations'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const [table, column] of COLUMNS) await db.schema.alterTable(table).addColumn(column, 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table, column] of COLUMNS) await db.schema.alterTable(table).dropColumn(column).execute();
}
