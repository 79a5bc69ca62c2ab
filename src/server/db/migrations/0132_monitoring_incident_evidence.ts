// The evidence panel of automatic incidents (issue 33 item 1): what changed, built when the
// incident opens and rebuilt while it runs. One row per incident, replaced whole by each build
// (items and line are one JSON document and one text, written together); gone with the incident.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incident_evidence')
    .addColumn('incident_id', 'varchar(36)', (c) => c.primaryKey().references('incidents.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('monitor_id', 'varchar(36)')
    .addColumn('built_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    // JSON array of EvidenceItem (src/lib/incident-evidence.ts), most telling first
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('line', 'varchar(1000)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_evidence_company').on('incident_evidence').columns(['company_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_evidence').execute();
}
