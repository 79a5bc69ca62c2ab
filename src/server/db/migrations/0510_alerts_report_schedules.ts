// Scheduled SLA reports: a company's monthly or weekly report mailed to chosen addresses through
// the alerts outbox. `last_sent_period` is the per-period marker (e.g. '2026-10' or
// '2026-10-19'): the job moves it with a compare-and-set in the transaction that writes the
// delivery, so a period goes out once whichever process runs the job. A report delivery names
// its schedule in alert_deliveries.report_schedule_id.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('report_schedules')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('frequency', 'varchar(20)', (c) => c.notNull())
    .addColumn('recipients', 'text', (c) => c.notNull())
    .addColumn('format', 'varchar(10)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('last_sent_period', 'varchar(20)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('report_schedules_company').on('report_schedules').columns(['company_id', 'created_at']).execute();
  await db.schema.alterTable('alert_deliveries').addColumn('report_schedule_id', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alert_deliveries').dropColumn('report_schedule_id').execute();
  await db.schema.dropTable('report_schedules').execute();
}
