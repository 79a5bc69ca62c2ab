// Monitor dependencies (issue 28): `parents` holds the ids of the monitors this one depends on
// (JSON array; null: none). While a parent is down, this monitor's failures are recorded but open
// no incident of their own (engine/dependencies.ts). Groups keep their children in their config.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('parents', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('parents').execute();
}
