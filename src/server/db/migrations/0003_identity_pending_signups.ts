// Signups waiting for their email to be confirmed: nothing (no company, no user) exists until
// the link mailed to the address is opened, so nobody can take an address that is not theirs.
// Only a SHA-256 hash of each link's code is stored; the password is already an argon2 hash.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('pending_signups')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('pending_signups_email_idx').on('pending_signups').column('email').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pending_signups').execute();
}
