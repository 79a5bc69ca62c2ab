// Throttle counts shared by every process on the database (sign-in failures, signup and
// password-reset requests, wrong second-factor codes, addresses trusted for an account under
// attack): one row per counted event, keyed by a hash of what is counted (never the e-mail or
// address itself). Rows past their window (expires_at) are deleted by the session sweep.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('throttle_hits')
    .addColumn('scope', 'varchar(20)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('throttle_hits_key').on('throttle_hits').columns(['scope', 'key_hash', 'at']).execute();
  await db.schema.createIndex('throttle_hits_expiry').on('throttle_hits').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('throttle_hits').execute();
}
