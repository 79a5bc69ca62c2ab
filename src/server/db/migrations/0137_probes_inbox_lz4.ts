// The probe inbox's results (issue 27, ingest latency) compressed with lz4 instead of pglz on
// PostgreSQL. Each delivery call lands one row of about 120 KB of JSON, which PostgreSQL
// compresses on the way in (TOAST) and the drainer reads back a moment later. Measured alone
// (.tmp micro-bench, 333 results a row, 200 inserts): pglz 3.5 ms an insert, lz4 1.7 ms, no
// compression 2.5 ms; the row's size is the same with either (30 KB of 119 KB), and lz4 reads
// back in 0.5 ms against 1.5. The delivery call answers after that insert, so half its cost
// comes off every call. A server built without lz4 keeps pglz. SQLite keeps the text as it is.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  const r = await sql<{ lz4: boolean }>`
    select coalesce('lz4' = any(enumvals), false) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  if (r.rows[0]?.lz4) await sql`alter table probe_result_inbox alter column results set compression lz4`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table probe_result_inbox alter column results set compression default`.execute(db);
}
