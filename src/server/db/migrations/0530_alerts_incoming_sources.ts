// Incoming alerts (issue 30 item 4): other tools (Prometheus Alertmanager, Grafana, any script
// with the generic body) open, update and resolve incidents. A source is one company's sender,
// behind its own token (only its SHA-256 is stored). An incident opened by a source remembers
// which source and which key (Alertmanager's and Grafana's groupKey, the generic body's `key`)
// it is about, so a re-sent notification updates it; one open incident per (source, key) is
// enforced by a partial unique index, as one open incident per monitor is. Each alert of the
// group (by its fingerprint) is kept beside its incident: the incident resolves when none fires.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incoming_sources')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    // alertmanager | grafana | generic: which receive route (and body) the token is for
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(128)', (c) => c.notNull().unique())
    // the first characters, to tell tokens apart in the console (never the whole token)
    .addColumn('token_prefix', 'varchar(20)', (c) => c.notNull())
    // JSON array of monitor ids: the status-page components its open incidents mark
    .addColumn('component_ids', 'text', (c) => c.notNull())
    // minor | major | critical: what the marked components show while an incident is open
    .addColumn('component_impact', 'varchar(10)', (c) => c.notNull())
    // the label (Alertmanager, Grafana) whose value names an alert's severity
    .addColumn('severity_label', 'varchar(100)', (c) => c.notNull())
    // JSON object: label value -> severity (critical|high|medium|low|info)
    .addColumn('severity_map', 'text', (c) => c.notNull())
    .addColumn('default_severity', 'varchar(10)', (c) => c.notNull())
    .addColumn('last_received_at', 'bigint')
    .addColumn('token_rotated_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incoming_sources_company').on('incoming_sources').columns(['company_id', 'created_at']).execute();

  // Not a foreign key: deleting a source leaves its incidents (and their history) as they are.
  await db.schema.alterTable('incidents').addColumn('incoming_source_id', 'varchar(64)').execute();
  await db.schema.alterTable('incidents').addColumn('incoming_key', 'varchar(300)').execute();
  // The impact its marked components show while it is open (null: it marks none)
  await db.schema.alterTable('incidents').addColumn('marks_impact', 'varchar(10)').execute();
  await db.schema
    .createIndex('incidents_one_open_per_incoming_key')
    .on('incidents')
    .columns(['incoming_source_id', 'incoming_key'])
    .unique()
    .where(sql<boolean>`resolved_at is null and incoming_source_id is not null`)
    .execute();

  await db.schema
    .createTable('incoming_alerts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('incident_id', 'varchar(36)', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('fingerprint', 'varchar(200)', (c) => c.notNull())
    // firing | resolved
    .addColumn('status', 'varchar(10)', (c) => c.notNull())
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('severity', 'varchar(10)', (c) => c.notNull())
    // JSON: labels and annotations as the tool sent them (capped), the detail people read
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('incoming_alerts_fingerprint')
    .on('incoming_alerts')
    .columns(['incident_id', 'fingerprint'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incoming_alerts').execute();
  await db.schema.dropIndex('incidents_one_open_per_incoming_key').execute();
  await db.schema.alterTable('incidents').dropColumn('marks_impact').execute();
  await db.schema.alterTable('incidents').dropColumn('incoming_key').execute();
  await db.schema.alterTable('incidents').dropColumn('incoming_source_id').execute();
  await db.schema.dropTable('incoming_sources').execute();
}
