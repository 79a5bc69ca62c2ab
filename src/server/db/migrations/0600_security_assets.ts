// The security suite (area 0600-0699): the hosts a company registers and proves it controls,
// the latest result of each analysis per host, and the findings they raise. Nothing active is
// ever done to a host whose `verified_at` is null: the platform is no free scanner.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('security_assets')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('hostname', 'varchar(253)', (c) => c.notNull())
    .addColumn('kind', 'varchar(10)', (c) => c.notNull())
    .addColumn('verification_token', 'varchar(100)', (c) => c.notNull())
    .addColumn('verification_method', 'varchar(10)')
    .addColumn('verified_at', 'bigint')
    .addColumn('last_verification_at', 'bigint')
    .addColumn('last_verification_error', 'varchar(500)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('security_assets_host').on('security_assets').columns(['company_id', 'hostname']).unique().execute();
  await db.schema.createIndex('security_assets_verified').on('security_assets').columns(['verified_at']).execute();

  await db.schema
    .createTable('security_results')
    .addColumn('asset_id', 'varchar(64)', (c) => c.notNull().references('security_assets.id').onDelete('cascade'))
    .addColumn('source', 'varchar(20)', (c) => c.notNull())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('grade', 'varchar(4)')
    .addColumn('data', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('security_results_pk', ['asset_id', 'source'])
    .execute();

  await db.schema
    .createTable('security_findings')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('asset_id', 'varchar(64)', (c) => c.notNull().references('security_assets.id').onDelete('cascade'))
    .addColumn('source', 'varchar(20)', (c) => c.notNull())
    .addColumn('key', 'varchar(200)', (c) => c.notNull())
    .addColumn('severity', 'varchar(10)', (c) => c.notNull())
    .addColumn('cvss', 'real')
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('status_reason', 'varchar(1000)')
    .addColumn('status_changed_at', 'bigint')
    .execute();
  await db.schema.createIndex('security_findings_key').on('security_findings').columns(['asset_id', 'source', 'key']).unique().execute();
  await db.schema.createIndex('security_findings_company').on('security_findings').columns(['company_id', 'status', 'severity']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('security_findings').execute();
  await db.schema.dropTable('security_results').execute();
  await db.schema.dropTable('security_assets').execute();
}
