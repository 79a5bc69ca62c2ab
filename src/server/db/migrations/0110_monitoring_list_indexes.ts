// The console's monitor list (issue 13) pages a company's monitors newest first, and a super
// admin's across companies: both first pages are read from an index, not by sorting every row.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('monitors_company_created_idx').on('monitors').columns(['company_id', 'created_at']).execute();
  await db.schema.createIndex('monitors_created_idx').on('monitors').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('monitors_created_idx').execute();
  await db.schema.dropIndex('monitors_company_created_idx').execute();
}
