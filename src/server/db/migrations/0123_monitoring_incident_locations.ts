// Where an automatic incident's monitor was down when it opened (issue 27): a monitor checked
// from several locations records the quorum's picture (JSON: the alert's words and the slugs down,
// up and without a result), so the incident page and API say "down from Frankfurt and Virginia,
// 2 of 3 locations; Singapore sees it up" long after the locations' states have moved on.
// monitors.public_locations: the status page shows the monitor's response time per location
// (a company's choice per component on the status page settings screen; off by default).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incidents').addColumn('down_where', 'text').execute();
  await db.schema
    .alterTable('monitors')
    .addColumn('public_locations', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('public_locations').execute();
  await db.schema.alterTable('incidents').dropColumn('down_where').execute();
}
