// Private iCalendar feeds (issue 30 item 3): one per schedule and one per person at most. Only the
// SHA-256 of the token in the feed's address is kept, so a database copy does not open the feeds;
// issuing a new one replaces the row (the old address then answers 404).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('calendar_feeds')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('schedule_id', 'varchar(64)', (c) => c.references('schedules.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('calendar_feeds_schedule').on('calendar_feeds').column('schedule_id').execute();
  await db.schema.createIndex('calendar_feeds_user').on('calendar_feeds').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('calendar_feeds').execute();
}
