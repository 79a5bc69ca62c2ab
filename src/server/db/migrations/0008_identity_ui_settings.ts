// Each user's console look (spec: "Default UI settings: theme cyan, font Montserrat, light
// version on"). A user without a row has those defaults, so existing users need no rows.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ui_settings')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('theme', 'varchar(16)', (c) => c.notNull())
    .addColumn('font', 'varchar(16)', (c) => c.notNull())
    .addColumn('light_version', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ui_settings').execute();
}
