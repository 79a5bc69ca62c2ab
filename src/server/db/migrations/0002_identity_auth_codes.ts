// One-time codes of the identity area: cross-host sign-in handoff codes (60 s) and password
// reset tokens (30 min). Only a SHA-256 hash of each code is stored; a code is used once.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auth_codes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // handoff: the host the code may be redeemed on; reset: the host the link was asked for
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    // the user's session_version when issued: a password change invalidates older codes
    .addColumn('session_version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('auth_codes_user_idx').on('auth_codes').column('user_id').execute();
  await db.schema.createIndex('audit_events_event_idx').on('audit_events').columns(['event', 'timestamp']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('audit_events_event_idx').execute();
  await db.schema.dropTable('auth_codes').execute();
}
