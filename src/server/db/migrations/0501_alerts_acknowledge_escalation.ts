// Acknowledge and escalate (issue 14 item 5) and personal delivery (item 3): who acknowledged an
// incident and when, how many escalation steps it has been through, each company's escalation
// steps, users' phone and personal webhook, and deliveries addressed to a user (e-mail, SMS,
// webhook) instead of a channel.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('incidents').addColumn('acknowledged_at', 'bigint').execute();
  // The user who acknowledged; null for a link in a channel's message (acknowledged_via says which)
  await db.schema.alterTable('incidents').addColumn('acknowledged_by', 'varchar(64)').execute();
  await db.schema.alterTable('incidents').addColumn('acknowledged_via', 'varchar(200)').execute();
  await db.schema
    .alterTable('incidents')
    .addColumn('escalated_steps', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  // Where a user's personal SMS go (E.164); set by the user with their notification preferences
  await db.schema.alterTable('users').addColumn('phone', 'varchar(20)').execute();
  // Where a user's personal webhooks go, and their Standard Webhooks signing secret (whsec_…)
  await db.schema.alterTable('users').addColumn('webhook_url', 'varchar(2048)').execute();
  await db.schema.alterTable('users').addColumn('webhook_secret', 'varchar(200)').execute();

  await db.schema
    .createTable('escalation_steps')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('after_minutes', 'integer', (c) => c.notNull())
    .addColumn('channel_ids', 'text', (c) => c.notNull())
    .addColumn('user_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('escalation_steps_company').on('escalation_steps').columns(['company_id', 'position']).unique().execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) await rebuildDeliveriesOnSqlite(db);
  else {
    await sql`alter table alert_deliveries alter column channel_id drop not null`.execute(db);
    await db.schema
      .alterTable('alert_deliveries')
      .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
      .execute();
    await db.schema.alterTable('alert_deliveries').addColumn('target', 'varchar(20)').execute();
  }
  // One personal delivery per cause, user and target, like one per cause and channel.
  await db.schema
    .createIndex('alert_deliveries_user_dedupe')
    .on('alert_deliveries')
    .columns(['user_id', 'target', 'dedupe_key'])
    .unique()
    .execute();
}

/**
 * SQLite cannot drop NOT NULL in place: the deliveries table is rebuilt. Its attempts are set
 * aside first, because dropping the old table would cascade to them.
 */
async function rebuildDeliveriesOnSqlite(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alert_deliveries_next')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('channel_id', 'varchar(64)', (c) => c.references('alert_channels.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('target', 'varchar(20)')
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
  const columns = sql.raw(
    'id, company_id, channel_id, event, dedupe_key, payload, state, attempts, next_attempt_at, retry_until, lease_holder, lease_expires_at, last_error, created_at, updated_at',
  );
  await sql`insert into alert_deliveries_next (${columns}) select ${columns} from alert_deliveries`.execute(db);
  await sql`create table alert_delivery_attempts_kept as select * from alert_delivery_attempts`.execute(db);
  await db.schema.dropTable('alert_delivery_attempts').execute();
  await db.schema.dropTable('alert_deliveries').execute();
  await sql`alter table alert_deliveries_next rename to alert_deliveries`.execute(db);
  await db.schema
    .createTable('alert_delivery_attempts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('delivery_id', 'varchar(64)', (c) => c.notNull().references('alert_deliveries.id').onDelete('cascade'))
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'varchar(500)')
    .execute();
  await sql`insert into alert_delivery_attempts select id, delivery_id, at, status_code, latency_ms, error from alert_delivery_attempts_kept`.execute(
    db,
  );
  await db.schema.dropTable('alert_delivery_attempts_kept').execute();
  await db.schema.createIndex('alert_delivery_attempts_delivery').on('alert_delivery_attempts').columns(['delivery_id', 'at']).execute();
  await db.schema.createIndex('alert_deliveries_dedupe').on('alert_deliveries').columns(['channel_id', 'dedupe_key']).unique().execute();
  await db.schema.createIndex('alert_deliveries_due').on('alert_deliveries').columns(['state', 'next_attempt_at']).execute();
  await db.schema.createIndex('alert_deliveries_company').on('alert_deliveries').columns(['company_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('alert_deliveries_user_dedupe').execute();
  await sql`delete from alert_deliveries where channel_id is null`.execute(db);
  // SQLite cannot drop a column that takes part in a foreign key: there the two columns stay,
  // empty and unused, and channel_id stays nullable (no row lacks one any more).
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) {
    await db.schema.alterTable('alert_deliveries').dropColumn('target').execute();
    await db.schema.alterTable('alert_deliveries').dropColumn('user_id').execute();
    await sql`alter table alert_deliveries alter column channel_id set not null`.execute(db);
  }
  await db.schema.dropTable('escalation_steps').execute();
  for (const c of ['webhook_secret', 'webhook_url', 'phone']) await db.schema.alterTable('users').dropColumn(c).execute();
  for (const c of ['escalated_steps', 'acknowledged_via', 'acknowledged_by', 'acknowledged_at'])
    await db.schema.alterTable('incidents').dropColumn(c).execute();
}
