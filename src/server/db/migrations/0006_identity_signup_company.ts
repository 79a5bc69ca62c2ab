// Signup asks for the person's name, the company's name and the subdomain separately (issue 25
// item 4): the pending signup keeps the company's name and the chosen subdomain until its link is
// opened. Both null on rows written before: the person's name then names the company, as it did.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pending_signups').addColumn('company_name', 'varchar(200)').execute();
  await db.schema.alterTable('pending_signups').addColumn('subdomain', 'varchar(63)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pending_signups').dropColumn('subdomain').execute();
  await db.schema.alterTable('pending_signups').dropColumn('company_name').execute();
}
