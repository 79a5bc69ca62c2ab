// Vulnerability scans of verified hosts (issue 16 item 4): one row per scan run, queued by an
// admin ("Scan now") or by the weekly schedule, run by the vulnerability-scans job. At most one
// scan per asset is queued or running at a time: the partial unique index refuses a second one,
// whichever process asks. A running scan holds a lease; a crashed runner's scan is taken over
// once its lease has passed.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('security_scans')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('asset_id', 'varchar(64)', (c) => c.notNull().references('security_assets.id').onDelete('cascade'))
    .addColumn('trigger', 'varchar(12)', (c) => c.notNull())
    .addColumn('requested_by', 'varchar(64)')
    .addColumn('state', 'varchar(10)', (c) => c.notNull())
    .addColumn('queued_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('critical', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('high', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('medium', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('low', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('info', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('new_findings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'varchar(500)')
    .execute();
  await db.schema
    .createIndex('security_scans_one_active')
    .on('security_scans')
    .column('asset_id')
    .unique()
    .where(sql<boolean>`state in ('queued', 'running')`)
    .execute();
  await db.schema.createIndex('security_scans_asset').on('security_scans').columns(['asset_id', 'queued_at']).execute();
  await db.schema.createIndex('security_scans_company').on('security_scans').columns(['company_id', 'queued_at']).execute();
  await db.schema.createIndex('security_scans_state').on('security_scans').columns(['state', 'queued_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('security_scans').execute();
}
