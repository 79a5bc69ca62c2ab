// API tokens for the management API and two-factor sign-in (TOTP, RFC 6238).
// - api_tokens: only a SHA-256 hash of each token is kept (the token is shown once); its prefix
//   (the first characters) lets the owner tell tokens apart. A revoked token stays as a record.
// - user_totp: one authenticator per user, its secret encrypted with a key derived from
//   SESSION_SECRET; enabled_at is null while enrolment waits for its first code; last_step is
//   the latest RFC 6238 time step accepted, so a code cannot be used twice.
// - totp_recovery_codes: SHA-256 hashes of the one-time recovery codes.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('scope', 'varchar(8)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint')
    .addColumn('last_used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('api_tokens_user_idx').on('api_tokens').column('user_id').execute();
  await db.schema
    .createTable('user_totp')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret_enc', 'varchar(512)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('enabled_at', 'bigint')
    .addColumn('last_step', 'bigint')
    .execute();
  await db.schema
    .createTable('totp_recovery_codes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('totp_recovery_codes_user_idx').on('totp_recovery_codes').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('totp_recovery_codes').execute();
  await db.schema.dropTable('user_totp').execute();
  await db.schema.dropTable('api_tokens').execute();
}
