// Incident templates (issue 30 item 6): a company's named, prepared texts for manual incidents
// and maintenance windows (title, message, impact, affected monitors), chosen with "Use
// template" when writing one. Names are unique in a company: the list names them.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incident_templates')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    // incident | maintenance
    .addColumn('kind', 'varchar(20)', (c) => c.notNull())
    .addColumn('title', 'varchar(300)', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    // minor | major | critical; null for maintenance
    .addColumn('impact', 'varchar(20)')
    // JSON array of monitor ids; a monitor deleted since is left out when read
    .addColumn('monitor_ids', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_templates_name').on('incident_templates').columns(['company_id', 'name']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_templates').execute();
}
