// Anomaly watching (issue 33, item 2): each company's tuning, and the anomaly episodes the job
// found. An episode is one stretch of slow latency or of probes and traffic disagreeing, about one
// subject (a monitor, a monitor at a location, an API endpoint); at most one is open per subject
// (the partial unique index), which is what makes its notification one per episode however
// often the job runs or however many processes run it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('anomaly_settings')
    .addColumn('company_id', 'varchar(36)', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    // off | low | normal | high
    .addColumn('latency', 'varchar(10)', (c) => c.notNull())
    .addColumn('divergence', 'varchar(10)', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(36)')
    .execute();
  await db.schema
    .createTable('anomaly_episodes')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    // latency | divergence
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    // What it is about, stable across runs: monitor:<id>, monitor:<id>@<location>, endpoint:<service> <method> <route>
    .addColumn('subject', 'varchar(600)', (c) => c.notNull())
    .addColumn('monitor_id', 'varchar(36)', (c) => c.references('monitors.id').onDelete('cascade'))
    // What it is about as people read it ("Shop", "Shop from Frankfurt", "GET /cart (shop-api)")
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    // JSON array of evidence items (the shape of src/lib/incident-evidence.ts EvidenceItem)
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('anomaly_episodes_open')
    .on('anomaly_episodes')
    .columns(['company_id', 'kind', 'subject'])
    .unique()
    .where(sql<boolean>`resolved_at is null`)
    .execute();
  await db.schema.createIndex('anomaly_episodes_company').on('anomaly_episodes').columns(['company_id', 'started_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('anomaly_episodes').execute();
  await db.schema.dropTable('anomaly_settings').execute();
}
