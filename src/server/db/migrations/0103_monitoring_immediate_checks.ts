// When a monitor was last checked at once after a save (issue 11): saves may trigger one such
// check per monitor and a few per company a minute, so re-saving cannot drive the engine.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').addColumn('immediate_check_at', 'bigint').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('immediate_check_at').execute();
}
