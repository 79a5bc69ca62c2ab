// Deliveries of the alerts outbox may go to a status-page subscriber instead of an alert channel:
// channel_id becomes nullable and subscriber_id names the subscriber (one delivery per cause and
// subscriber). Numbered after 0500, whose table it changes. SQLite cannot drop a NOT NULL, so
// there both outbox tables are rebuilt from their own stored definitions (whatever columns
// earlier migrations added survive), rows and indexes included: the attempts reference the
// deliveries, so both move together (a plain DROP would cascade the attempts away).
import { sql, type Kysely } from 'kysely';

const TABLES = ['alert_deliveries', 'alert_delivery_attempts'] as const;

async function isSqlite(db: Kysely<any>): Promise<boolean> {
  const r = await sql<{ v: unknown }>`select current_timestamp as v`.execute(db);
  // SQLite answers 'YYYY-MM-DD HH:MM:SS' text; PostgreSQL a Date.
  return typeof r.rows[0]?.v === 'string';
}

async function rebuildSqliteWithNullableChannel(db: Kysely<any>): Promise<void> {
  const schema = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
    select type, name, tbl_name, sql from sqlite_master where tbl_name in ('alert_deliveries', 'alert_delivery_attempts')`.execute(db);
  const create = (t: string) => schema.rows.find((r) => r.type === 'table' && r.name === t)!.sql!;
  const nullable = create('alert_deliveries').replace(/("channel_id"\s+varchar\(64\))\s+not null/i, '$1');
  if (nullable === create('alert_deliveries')) return; // already nullable
  const indexes = schema.rows.filter((r) => r.type === 'index' && r.sql !== null);
  for (const t of [...TABLES].reverse()) await sql.raw(`alter table "${t}" rename to "${t}_0590"`).execute(db);
  for (const i of indexes) await sql.raw(`drop index "${i.name}"`).execute(db);
  await sql.raw(nullable).execute(db);
  await sql.raw(create('alert_delivery_attempts')).execute(db);
  for (const t of TABLES) await sql.raw(`insert into "${t}" select * from "${t}_0590"`).execute(db);
  for (const t of [...TABLES].reverse()) await sql.raw(`drop table "${t}_0590"`).execute(db);
  for (const i of indexes) await sql.raw(i.sql!).execute(db);
}

export async function up(db: Kysely<any>): Promise<void> {
  if (await isSqlite(db)) await rebuildSqliteWithNullableChannel(db);
  else
    await db.schema
      .alterTable('alert_deliveries')
      .alterColumn('channel_id', (c) => c.dropNotNull())
      .execute();
  await db.schema
    .alterTable('alert_deliveries')
    .addColumn('subscriber_id', 'varchar(64)', (c) => c.references('status_subscribers.id').onDelete('cascade'))
    .execute();
  // One delivery per cause and subscriber (NULL channel ids do not collide in the channel index).
  await db.schema
    .createIndex('alert_deliveries_subscriber_dedupe')
    .on('alert_deliveries')
    .columns(['subscriber_id', 'dedupe_key'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alert_deliveries_subscriber_dedupe').execute();
  await db.deleteFrom('alert_deliveries').where('subscriber_id', 'is not', null).execute();
  await db.schema.alterTable('alert_deliveries').dropColumn('subscriber_id').execute();
}
