// Issue 13: archived monitors (kept, unchecked, hidden, outside the plan count, restorable);
// several monitors per incident and per maintenance window (link tables filled from the old
// single monitor_id, which stays as the first linked monitor for older clients); the issuer and
// subject of an https monitor's certificate; per-phase timing sums in the rollups.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('archived_at', 'bigint').execute();
  await db.schema.alterTable('monitors').addColumn('cert_issuer', 'varchar(300)').execute();
  await db.schema.alterTable('monitors').addColumn('cert_subject', 'varchar(300)').execute();

  for (const [table, owner, ownerTable] of [
    ['incident_monitors', 'incident_id', 'incidents'],
    ['maintenance_monitors', 'window_id', 'maintenance_windows'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(owner, 'varchar(36)', (c) => c.notNull().references(`${ownerTable}.id`).onDelete('cascade'))
      .addColumn('monitor_id', 'varchar(36)', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, [owner, 'monitor_id'])
      .execute();
    await db.schema.createIndex(`${table}_monitor_idx`).on(table).column('monitor_id').execute();
    await sql`insert into ${sql.table(table)} (${sql.ref(owner)}, monitor_id, company_id)
      select id, monitor_id, company_id from ${sql.table(ownerTable)} where monitor_id is not null`.execute(db);
  }

  // {"dns":[sum_ms, count], "connect":[..], "tls":[..], "ttfb":[..]} of the timed checks
  for (const table of ['monitor_rollups_hourly', 'monitor_rollups_daily'])
    await db.schema.alterTable(table).addColumn('phase_sums', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['monitor_rollups_daily', 'monitor_rollups_hourly'])
    await db.schema.alterTable(table).dropColumn('phase_sums').execute();
  await db.schema.dropTable('maintenance_monitors').execute();
  await db.schema.dropTable('incident_monitors').execute();
  await db.schema.alterTable('monitors').dropColumn('cert_subject').execute();
  await db.schema.alterTable('monitors').dropColumn('cert_issuer').execute();
  await db.schema.alterTable('monitors').dropColumn('archived_at').execute();
}
