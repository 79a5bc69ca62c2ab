// Companies, users, sessions, notifications, preferences, audit events and feature flags:
// the entities of section 3 of the spec. Timestamps are integer milliseconds (bigint), booleans
// are 0/1 integers, JSON is text: the same schema on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)')
    .addColumn('phone', 'varchar(50)')
    .addColumn('subdomain', 'varchar(63)', (c) => c.unique())
    .addColumn('slug', 'varchar(63)', (c) => c.unique())
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('active'))
    .addColumn('primary_color', 'varchar(7)', (c) => c.notNull().defaultTo('#007bff'))
    .addColumn('secondary_color', 'varchar(7)', (c) => c.notNull().defaultTo('#6c757d'))
    .addColumn('services', 'text', (c) => c.notNull().defaultTo('{"monitor":true,"security":true,"data_breach":false}'))
    .addColumn('company_metadata', 'text')
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('max_users', 'integer', (c) => c.notNull().defaultTo(10))
    .addColumn('max_workers', 'integer', (c) => c.notNull().defaultTo(50))
    .addColumn('threat_feed_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('horizontal_logo_base64', 'text')
    .addColumn('logo_base64', 'text')
    .addColumn('plan', 'varchar(20)', (c) => c.notNull().defaultTo('starter'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('full_name', 'varchar(200)', (c) => c.notNull())
    .addColumn('user_type', 'integer', (c) => c.notNull())
    .addColumn('company_id', 'varchar(36)', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('password_hash', 'text', (c) => c.notNull())
    // Bumped on password change, deactivation or admin reset: access tokens carry it, so a bump
    // ends every session of the user at once.
    .addColumn('session_version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_company_idx').on('users').column('company_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('family_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').column('family_id').execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').column('user_id').execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('metadata', 'text')
    .addColumn('severity', 'varchar(20)', (c) => c.notNull())
    .addColumn('type', 'varchar(40)', (c) => c.notNull())
    .addColumn('is_read', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('action_url', 'varchar(2048)')
    // Makes creation idempotent: one notification per user per event, also across a crash.
    .addColumn('dedupe_key', 'varchar(200)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notifications_user_idx').on('notifications').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('notifications_dedupe_idx').on('notifications').columns(['user_id', 'dedupe_key']).unique().execute();

  await db.schema
    .createTable('notification_preferences')
    .addColumn('user_id', 'varchar(36)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('email_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sms_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('webhook_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('monitor_incidents', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('ssl_warnings', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('dns_warnings', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('security_alerts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('system_notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('event', 'varchar(60)', (c) => c.notNull())
    .addColumn('details', 'text')
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)')
    .addColumn('user_role', 'varchar(30)')
    .addColumn('tenant_id', 'varchar(36)')
    .addColumn('session_id', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('source', 'varchar(10)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_events_time_idx').on('audit_events').column('timestamp').execute();
  await db.schema.createIndex('audit_events_tenant_idx').on('audit_events').columns(['tenant_id', 'timestamp']).execute();

  await db.schema
    .createTable('feature_flags')
    .addColumn('name', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(36)')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['feature_flags', 'audit_events', 'notification_preferences', 'notifications', 'refresh_tokens', 'users', 'companies']) {
    await db.schema.dropTable(t).execute();
  }
}
