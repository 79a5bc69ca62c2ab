// A trace by id without its company (super admins open any trace from the global views): the
// primary key starts with company_id, so this lookup needs its own index.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('spans_trace_idx').on('spans').column('trace_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('spans_trace_idx').execute();
}
