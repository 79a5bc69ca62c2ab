// Deliveries of the alerts outbox may go to a status-page subscriber instead of an alert channel:
// channel_id becomes nullable and subscriber_id names the subscriber (one delivery per cause and
// subscriber). Numbered after 0500, whose table it changes. SQLite cannot drop a NOT NULL, so
// there both outbox tables are rebuilt (the attempts reference the deliveries) with their rows.
import { sql, type Kysely } from 'kysely';

const DELIVERY_COLUMNS =
  'id, company_id, channel_id, event, dedupe_key, payload, state, attempts, next_attempt_at, retry_until, lease_holder, lease_expires_at, last_error, created_at, updated_at';
const ATTEMPT_COLUMNS = 'id, delivery_id, at, status_code, latency_ms, error';

async function isSqlite(db: Kysely<any>): Promise<boolean> {
  const r = await sql<{ v: string }>`select current_timestamp as v`.execute(db);
  // SQLite answers 'YYYY-MM-DD HH:MM:SS' text; PostgreSQL a Date.
  return typeof r.rows[0]?.v === 'string';
}

async function createDeliveries(db: Kysely<any>, name: string): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('channel_id', 'varchar(64)', (c) => c.references('alert_channels.id').onDelete('cascade'))
    .addColumn('event', 'varchar(40)', (c) => c.notNull())
    .addColumn('dedupe_key', 'varchar(200)', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'varchar(20)', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('retry_until', 'bigint', (c) => c.notNull())
    .addColumn('lease_holder', 'varchar(100)')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('last_error', 'varchar(500)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('subscriber_id', 'varchar(64)', (c) => c.references('status_subscribers.id').onDelete('cascade'))
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  if (await isSqlite(db)) {
    await sql`alter table alert_delivery_attempts rename to alert_delivery_attempts_0590`.execute(db);
    await sql`alter table alert_deliveries rename to alert_deliveries_0590`.execute(db);
    for (const index of [
      'alert_deliveries_dedupe',
      'alert_deliveries_due',
      'alert_deliveries_company',
      'alert_delivery_attempts_delivery',
    ]) {
      await db.schema.dropIndex(index).execute();
    }
    await createDeliveries(db, 'alert_deliveries');
    await sql.raw(`insert into alert_deliveries (${DELIVERY_COLUMNS}) select ${DELIVERY_COLUMNS} from alert_deliveries_0590`).execute(db);
    await db.schema
      .createTable('alert_delivery_attempts')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('delivery_id', 'varchar(64)', (c) => c.notNull().references('alert_deliveries.id').onDelete('cascade'))
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('status_code', 'integer')
      .addColumn('latency_ms', 'integer', (c) => c.notNull())
      .addColumn('error', 'varchar(500)')
      .execute();
    await sql
      .raw(`insert into alert_delivery_attempts (${ATTEMPT_COLUMNS}) select ${ATTEMPT_COLUMNS} from alert_delivery_attempts_0590`)
      .execute(db);
    await db.schema.dropTable('alert_delivery_attempts_0590').execute();
    await db.schema.dropTable('alert_deliveries_0590').execute();
    await db.schema.createIndex('alert_deliveries_dedupe').on('alert_deliveries').columns(['channel_id', 'dedupe_key']).unique().execute();
    await db.schema.createIndex('alert_deliveries_due').on('alert_deliveries').columns(['state', 'next_attempt_at']).execute();
    await db.schema.createIndex('alert_deliveries_company').on('alert_deliveries').columns(['company_id', 'created_at']).execute();
    await db.schema.createIndex('alert_delivery_attempts_delivery').on('alert_delivery_attempts').columns(['delivery_id', 'at']).execute();
  } else {
    await db.schema
      .alterTable('alert_deliveries')
      .alterColumn('channel_id', (c) => c.dropNotNull())
      .execute();
    await db.schema
      .alterTable('alert_deliveries')
      .addColumn('subscriber_id', 'varchar(64)', (c) => c.references('status_subscribers.id').onDelete('cascade'))
      .execute();
  }
  // One delivery per cause and subscriber (NULL channel ids do not collide in the other index).
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
