// Domain checks (security suite): what an admin tells the checks about a domain that DNS cannot
// reveal: the DKIM selectors its mail is signed with and extra names under it whose CNAMEs are
// watched for dangling targets. The records themselves live in security_results (source 'dns').
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('security_domain_settings')
    .addColumn('asset_id', 'varchar(64)', (c) => c.primaryKey().references('security_assets.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('dkim_selectors', 'text', (c) => c.notNull())
    .addColumn('watched_names', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('security_domain_settings').execute();
}
