// What a probe can run beyond the network kinds (issue 29 on probes): `browser` when its machine
// has Chromium. Reported at each hello; a location takes browser monitors once one of its probes
// said so recently (domain/probes/capabilities.ts). A comma list: one value today, more later.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('probes')
    .addColumn('capabilities', 'varchar(200)', (c) => c.notNull().defaultTo(''))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('probes').dropColumn('capabilities').execute();
}
