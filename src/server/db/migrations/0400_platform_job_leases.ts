// Leases of timed jobs (retention pruning, session sweep, ...): one row per job name, held by one
// process until expires_at, so servers and workers sharing a database run each period's work
// once. Platform-wide tables get the 0400-0499 range (no product area owns them).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(100)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}
