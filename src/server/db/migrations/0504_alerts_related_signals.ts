// Related signals (issue 25 item 3): one certificate problem used to notify three times (the
// incident, "Certificate … is invalid", "TLS problem …") plus an expiry warning. A monitor now
// keeps why its latest check failed (`failure_cause`, e.g. 'certificate'), and a warning about
// the same monitor and cause is kept in `incident_signals`, in the thread of the incident the
// failure opened (or held for it while the failure is being confirmed), instead of notifying.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('failure_cause', 'varchar(40)').execute();
  await db.schema
    .createTable('incident_signals')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    // kept in the thread when the monitor is deleted, like the incident itself (set null)
    .addColumn('monitor_id', 'varchar(64)', (c) => c.references('monitors.id').onDelete('set null'))
    // null while held: the failure is not confirmed yet, the incident it opens takes it in
    .addColumn('incident_id', 'varchar(64)', (c) => c.references('incidents.id').onDelete('cascade'))
    .addColumn('cause', 'varchar(40)', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('severity', 'varchar(20)', (c) => c.notNull())
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    // the notification draft's key: a signal raised twice (a retry, two paths) is kept once
    .addColumn('dedupe_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_signals_dedupe').on('incident_signals').columns(['company_id', 'dedupe_key']).unique().execute();
  await db.schema.createIndex('incident_signals_incident').on('incident_signals').columns(['incident_id', 'created_at']).execute();
  await db.schema.createIndex('incident_signals_monitor').on('incident_signals').columns(['monitor_id', 'incident_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_signals').execute();
  await db.schema.alterTable('monitors').dropColumn('failure_cause').execute();
}
