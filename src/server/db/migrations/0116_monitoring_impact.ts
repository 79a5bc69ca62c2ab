// A monitor its admin marks critical (issue 25): its outage alone is a major outage of the status
// page ("Major Service Outage"); any other down monitor is a partial outage unless all are down.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('monitors')
    .addColumn('is_critical', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('is_critical').execute();
}
