// Check chunks keyed by the monitor's number (monitors.num, migration 0114) instead of its UUID
// text, and without company_id (readers reach the company through the monitor): a chunk row and
// its key entry lose about 110 bytes, 1.8 bytes a check at one check a minute.
//
// PostgreSQL changes the table in place, which works whether 0410 has already made it a
// day-partitioned table (an existing database) or not yet (a new one, where 0410 then
// partitions it as it finds it): the new column is filled from the monitors, becomes the key
// with chunk_start and references monitors.num; the old columns are dropped. Rows written before
// keep their dropped values' bytes until they are rewritten or expire; new rows do not carry
// them. SQLite rebuilds the table (a rowid table, as 0113 chose, so closed hours pack densely).
import { SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL runs each migration in a transaction already; SQLite's migrator does not, and a
  // crash between the copy and the rename must not lose the chunks.
  if (db.isTransaction) await apply(db);
  else await db.transaction().execute(apply);
}

async function apply(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    await db.schema
      .createTable('check_chunks_rebuilt')
      .addColumn('monitor_num', 'integer', (c) => c.notNull().references('monitors.num').onDelete('cascade'))
      .addColumn('chunk_start', 'bigint', (c) => c.notNull())
      .addColumn('checks', 'integer', (c) => c.notNull())
      .addColumn('data', 'blob', (c) => c.notNull())
      .addPrimaryKeyConstraint('check_chunks_key', ['monitor_num', 'chunk_start'])
      .execute();
    await sql`insert into check_chunks_rebuilt (monitor_num, chunk_start, checks, data)
      select m.num, c.chunk_start, c.checks, c.data from check_chunks c join monitors m on m.id = c.monitor_id
      order by c.chunk_start, m.num`.execute(db);
    await db.schema.dropTable('check_chunks').execute();
    await db.schema.alterTable('check_chunks_rebuilt').renameTo('check_chunks').execute();
    return;
  }
  await sql`alter table check_chunks add column monitor_num integer`.execute(db);
  await sql`update check_chunks c set monitor_num = m.num from monitors m where m.id = c.monitor_id`.execute(db);
  await sql`alter table check_chunks alter column monitor_num set not null`.execute(db);
  await sql`alter table check_chunks drop constraint check_chunks_pk`.execute(db);
  await sql`alter table check_chunks drop column monitor_id, drop column company_id`.execute(db);
  await sql`alter table check_chunks add constraint check_chunks_key primary key (monitor_num, chunk_start)`.execute(db);
  await sql`alter table check_chunks add constraint check_chunks_monitor_num_fkey
    foreign key (monitor_num) references monitors (num) on delete cascade`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('0115_monitoring_chunk_monitor_numbers cannot be undone: restore the backup taken before the upgrade');
}
