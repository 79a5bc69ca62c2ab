// Platform-wide state that several processes must agree on, one row per name with a JSON value:
// the checker canary's verdict ('canary': every engine holds down verdicts while it fails) and
// the maintenance notices' watermark ('maintenance-notices': the time scanned up to).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('platform_state')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('platform_state').execute();
}
