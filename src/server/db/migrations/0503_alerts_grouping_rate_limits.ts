// Alert storms: a delivery merged into another one's grouped message points at it
// (`grouped_into`), and each channel keeps the earliest time its service takes the next message
// (`next_send_at`), shared by every process that sends.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('alert_deliveries').addColumn('grouped_into', 'varchar(64)').execute();
  await db.schema.alterTable('alert_channels').addColumn('next_send_at', 'bigint').execute();
  // Finding a channel's waiting deliveries of one event (to merge them) and its recent ones (a burst).
  await db.schema
    .createIndex('alert_deliveries_channel_event')
    .on('alert_deliveries')
    .columns(['channel_id', 'event', 'state', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alert_deliveries_channel_event').execute();
  await db.schema.alterTable('alert_channels').dropColumn('next_send_at').execute();
  await db.schema.alterTable('alert_deliveries').dropColumn('grouped_into').execute();
}
