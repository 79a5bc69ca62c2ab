// companies.public_security_panel (issue 32): the company's status page shows a security panel of
// its verified domains (TLS grade, HSTS, SPF and DMARC, days to certificate and registration
// expiry) from the security suite's latest results. Opt-in: off by default, since it publishes
// what the company's own screens show.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('companies')
    .addColumn('public_security_panel', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('companies').dropColumn('public_security_panel').execute();
}
