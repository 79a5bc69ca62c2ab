// Company secrets (issue 29): values the synthetic kinds' steps name as {{secrets.NAME}} (an API
// token, a test account's password), one row per company and name. The value is stored sealed
// (engine/kinds/secret-box.ts, AES-256-GCM), opened only for a check; the API never returns it.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('company_secrets')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    /** sealed:v1:… */
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('company_secrets_pk', ['company_id', 'name'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('company_secrets').execute();
}
