// Monitors, raw check results, hourly/daily rollups, incidents and their updates, maintenance
// windows. Status pages, uptime figures and dashboards read rollups, never raw results.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('monitors')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(200)', (c) => c.notNull())
    .addColumn('type', 'varchar(10)', (c) => c.notNull())
    // Kind-specific settings (url, method, headers, host, port, record_type, ...) as JSON.
    .addColumn('config', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_paused', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('confirmations', 'integer', (c) => c.notNull().defaultTo(2))
    // Confirmed state (operational, degraded, down, unknown) and the candidate state that
    // must repeat `confirmations` times before it replaces it.
    .addColumn('status', 'varchar(12)', (c) => c.notNull().defaultTo('unknown'))
    .addColumn('status_since', 'bigint')
    .addColumn('pending_status', 'varchar(12)')
    .addColumn('pending_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_checked_at', 'bigint')
    .addColumn('last_response_time_ms', 'real')
    .addColumn('last_http_code', 'integer')
    .addColumn('last_error', 'varchar(1000)')
    .addColumn('cert_expires_at', 'bigint')
    .addColumn('push_token', 'varchar(64)', (c) => c.unique())
    .addColumn('last_push_at', 'bigint')
    // Scheduling: due time kept in the database; a lease per due check (several workers).
    .addColumn('next_due_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'varchar(64)')
    .addColumn('lease_expires_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('monitors_company_idx').on('monitors').column('company_id').execute();
  await db.schema.createIndex('monitors_due_idx').on('monitors').columns(['next_due_at']).execute();

  await db.schema
    .createTable('check_results')
    .addColumn('monitor_id', 'varchar(36)', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
    .addColumn('checked_at', 'bigint', (c) => c.notNull())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'varchar(12)', (c) => c.notNull())
    .addColumn('response_time_ms', 'real')
    .addColumn('http_code', 'integer')
    .addColumn('error', 'varchar(1000)')
    // Phase timings in ms: {"dns":..,"connect":..,"tls":..,"ttfb":..,"total":..}
    .addColumn('timings', 'text')
    .addColumn('cert_expires_at', 'bigint')
    .addPrimaryKeyConstraint('check_results_pk', ['monitor_id', 'checked_at'])
    .execute();
  await db.schema.createIndex('check_results_company_time_idx').on('check_results').columns(['company_id', 'checked_at']).execute();

  for (const [table, key] of [
    ['monitor_rollups_hourly', 'hour_start'],
    ['monitor_rollups_daily', 'day_start'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('monitor_id', 'varchar(36)', (c) => c.notNull().references('monitors.id').onDelete('cascade'))
      .addColumn(key, 'bigint', (c) => c.notNull())
      .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('checks', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('degraded', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('maintenance', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sum_response_ms', 'real', (c) => c.notNull().defaultTo(0))
      .addColumn('min_response_ms', 'real')
      .addColumn('max_response_ms', 'real')
      // Fixed-bucket latency histogram (JSON array of counts) from which p95 is derived.
      .addColumn('response_hist', 'text')
      .addColumn('p95_response_ms', 'real')
      .addColumn('last_status', 'varchar(12)')
      .addColumn('last_http_code', 'integer')
      .addColumn('last_checked_at', 'bigint')
      .addPrimaryKeyConstraint(`${table}_pk`, ['monitor_id', key])
      .execute();
    await db.schema.createIndex(`${table}_company_idx`).on(table).columns(['company_id', key]).execute();
  }

  await db.schema
    .createTable('incidents')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('monitor_id', 'varchar(36)', (c) => c.references('monitors.id').onDelete('set null'))
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('severity', 'varchar(12)', (c) => c.notNull())
    .addColumn('status', 'varchar(14)', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .addColumn('created_by', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incidents_company_idx').on('incidents').columns(['company_id', 'started_at']).execute();
  // One open incident per monitor, enforced by the database (also across a crash).
  await db.schema
    .createIndex('incidents_one_open_per_monitor')
    .on('incidents')
    .column('monitor_id')
    .unique()
    .where(sql<boolean>`resolved_at is null and monitor_id is not null`)
    .execute();

  await db.schema
    .createTable('incident_updates')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('incident_id', 'varchar(36)', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'varchar(14)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_by', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_updates_incident_idx').on('incident_updates').columns(['incident_id', 'created_at']).execute();

  await db.schema
    .createTable('maintenance_windows')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    // null = every monitor of the company
    .addColumn('monitor_id', 'varchar(36)', (c) => c.references('monitors.id').onDelete('cascade'))
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('maintenance_company_idx').on('maintenance_windows').columns(['company_id', 'ends_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'maintenance_windows',
    'incident_updates',
    'incidents',
    'monitor_rollups_daily',
    'monitor_rollups_hourly',
    'check_results',
    'monitors',
  ]) {
    await db.schema.dropTable(t).execute();
  }
}
