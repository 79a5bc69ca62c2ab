// A monitor's SLA target: the uptime percentage promised to its customers (e.g. 99.9), which the
// SLA report (domain/reports) compares the measured uptime with. Null: no target.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('sla_target', 'double precision').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('sla_target').execute();
}
