// SCIM 2.0 provisioning (issue 31 item 2): a company's identity provider (Okta, Entra ID) adds,
// changes and removes its people and groups. A company has at most one live SCIM token (only its
// SHA-256 is kept; revoked rows stay for the audit trail). What SCIM knows of a user beyond the
// users row (the IdP's externalId, given and family name) sits beside it in scim_users; groups
// and their members are the company's own, and two settings name the group whose members are
// admins and the one whose members are viewers.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scim_tokens')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(128)', (c) => c.notNull().unique())
    // the first characters, to tell tokens apart in the console (never the whole token)
    .addColumn('token_prefix', 'varchar(20)', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('scim_tokens_company').on('scim_tokens').columns(['company_id', 'revoked_at']).execute();

  await db.schema
    .createTable('scim_settings')
    .addColumn('company_id', 'varchar(64)', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    // displayName of the SCIM group whose members are company admins / viewers (null: none)
    .addColumn('admin_group', 'varchar(200)')
    .addColumn('viewer_group', 'varchar(200)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scim_users')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('external_id', 'varchar(200)')
    .addColumn('given_name', 'varchar(200)')
    .addColumn('family_name', 'varchar(200)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('scim_groups')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('display_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('external_id', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // displayName is unique per company (RFC 7643 4.2 "uniqueness: none", but the role mapping names groups by it)
  await db.schema.createIndex('scim_groups_company_name').on('scim_groups').columns(['company_id', 'display_name']).unique().execute();

  await db.schema
    .createTable('scim_group_members')
    .addColumn('group_id', 'varchar(64)', (c) => c.notNull().references('scim_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('scim_group_members_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('scim_group_members_user').on('scim_group_members').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['scim_group_members', 'scim_groups', 'scim_users', 'scim_settings', 'scim_tokens']) {
    await db.schema.dropTable(t).execute();
  }
}
