// Single sign-on per company (issue 31). `company_sso` holds one identity provider per company:
// the protocol ('oidc' now; SAML later adds its own settings under the same row), its settings as
// JSON, its sealed client secret, the e-mail domains it signs in for, the group -> role mapping,
// and Require SSO with its named break-glass admin. `sso_requests` holds each sign-in that went to
// the identity provider and has not come back yet (state, nonce, PKCE verifier), server-side, so a
// callback is accepted once, from the browser that started it, within ten minutes.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('company_sso')
    .addColumn('company_id', 'varchar(36)', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text')
    .addColumn('domains', 'text', (c) => c.notNull())
    .addColumn('require_sso', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('break_glass_user_id', 'varchar(36)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sso_requests')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('state_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('protocol', 'varchar(16)', (c) => c.notNull())
    .addColumn('nonce', 'varchar(128)', (c) => c.notNull())
    .addColumn('code_verifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('return_to', 'varchar(512)', (c) => c.notNull())
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('sso_requests_expires').on('sso_requests').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sso_requests').execute();
  await db.schema.dropTable('company_sso').execute();
}
