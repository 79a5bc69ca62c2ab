// SAML 2.0 single sign-on (issue 31). `saml_assertions_seen` is the replay cache: the ID of every
// assertion accepted, per company, kept until its NotOnOrAfter has passed, in the database so a
// replay is refused whichever process or restart receives it. `sso_jit_users` names the users a
// company's SSO created just in time (any protocol): their role follows the group mapping at each
// sign-in, while people created otherwise keep the role an admin gave them.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('saml_assertions_seen')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('assertion_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('saml_assertions_seen_pk', ['company_id', 'assertion_id'])
    .execute();
  await db.schema.createIndex('saml_assertions_seen_expires').on('saml_assertions_seen').column('expires_at').execute();
  await db.schema
    .createTable('sso_jit_users')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull())
    .addColumn('subject', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_jit_users').execute();
  await db.schema.dropTable('saml_assertions_seen').execute();
}
