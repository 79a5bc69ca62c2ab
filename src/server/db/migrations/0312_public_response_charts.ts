// monitors.public_response_chart (issue 32): the status page draws the component's response
// times (24 h, 7 d, 30 d) from its rollups. A company's choice per component on the status page
// settings screen, beside public_locations; off by default.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('monitors')
    .addColumn('public_response_chart', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('monitors').dropColumn('public_response_chart').execute();
}
