// The alerts outbox: channels a company sends alerts through, one delivery per alert and channel
// (written in the transaction of the state change it reports), and every attempt to send it.
// Alerts get the 0500-0599 range.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alert_channels')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('secret', 'varchar(200)')
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('monitor_ids', 'text')
    .addColumn('min_severity', 'varchar(20)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('alert_channels_company').on('alert_channels').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('alert_deliveries')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('channel_id', 'varchar(64)', (c) => c.notNull().references('alert_channels.id').onDelete('cascade'))
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
    .execute();
  // One delivery per cause and channel: a state change recorded twice (a retried batch) sends once.
  await db.schema.createIndex('alert_deliveries_dedupe').on('alert_deliveries').columns(['channel_id', 'dedupe_key']).unique().execute();
  await db.schema.createIndex('alert_deliveries_due').on('alert_deliveries').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('alert_deliveries_company').on('alert_deliveries').columns(['company_id', 'created_at']).execute();

  await db.schema
    .createTable('alert_delivery_attempts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('delivery_id', 'varchar(64)', (c) => c.notNull().references('alert_deliveries.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'varchar(500)')
    .execute();
  await db.schema.createIndex('alert_delivery_attempts_delivery').on('alert_delivery_attempts').columns(['delivery_id', 'at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alert_delivery_attempts').execute();
  await db.schema.dropTable('alert_deliveries').execute();
  await db.schema.dropTable('alert_channels').execute();
}
