// TLS analyses of https monitors that no verified asset covers (security area, 0610): the
// monitor is the company's own declared target, already checked by the engine, so its TLS is
// analysed too; its result lives here rather than in security_results, whose rows belong to
// assets. One row per monitor, replaced by each analysis; gone with the monitor or company.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tls_monitor_analyses')
    .addColumn('monitor_id', 'varchar(64)', (c) => c.primaryKey().references('monitors.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('grade', 'varchar(4)')
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tls_monitor_analyses_company').on('tls_monitor_analyses').columns(['company_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tls_monitor_analyses').execute();
}
