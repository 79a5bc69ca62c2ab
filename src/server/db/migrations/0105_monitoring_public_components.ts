// Status page settings (issue 13 item 6): each monitor's public name, its place on the page and
// its component group; a company's named groups in their own order. A monitor without a public
// name shows its own name only when that names no host (src/lib/public-name.ts).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('status_page_groups')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    // a rename or a move changes the public page: its change fingerprint reads this
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('status_page_groups_company_idx').on('status_page_groups').columns(['company_id', 'position']).execute();
  await db.schema.alterTable('monitors').addColumn('public_name', 'varchar(100)').execute();
  // null: after the placed monitors, by name
  await db.schema.alterTable('monitors').addColumn('public_position', 'integer').execute();
  // null: listed on its own, before the groups; the settings save clears it when a group goes
  await db.schema.alterTable('monitors').addColumn('public_group_id', 'varchar(36)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('public_group_id').execute();
  await db.schema.alterTable('monitors').dropColumn('public_position').execute();
  await db.schema.alterTable('monitors').dropColumn('public_name').execute();
  await db.schema.dropTable('status_page_groups').execute();
}
