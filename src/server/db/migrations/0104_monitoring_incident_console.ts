// The console's incidents and maintenance (issue 13): a postmortem written after an incident is
// resolved; maintenance windows that repeat weekly or monthly, and windows cancelled by an admin
// (company admins may update but never delete, so cancelling is an update that keeps the row).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incidents').addColumn('postmortem', 'text').execute();
  // null: once; 'weekly' | 'monthly': the same span repeats from starts_at
  await db.schema.alterTable('maintenance_windows').addColumn('recurrence', 'varchar(8)').execute();
  await db.schema.alterTable('maintenance_windows').addColumn('cancelled_at', 'bigint').execute();
  // An edit changes the public page: its change fingerprint reads this
  await db.schema.alterTable('maintenance_windows').addColumn('updated_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('maintenance_windows').dropColumn('updated_at').execute();
  await db.schema.alterTable('maintenance_windows').dropColumn('cancelled_at').execute();
  await db.schema.alterTable('maintenance_windows').dropColumn('recurrence').execute();
  await db.schema.alterTable('incidents').dropColumn('postmortem').execute();
}
