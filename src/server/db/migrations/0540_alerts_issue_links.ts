// Issue tracker channels (Jira, Linear; issue 30): the issue an incident opened on a channel, so
// every later event about the incident comments on that issue, and the comments made, so a
// delivery sent again (its lease lost after the service took it) does not comment twice.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('alert_issue_links')
    .addColumn('channel_id', 'varchar(64)', (c) => c.notNull().references('alert_channels.id').onDelete('cascade'))
    .addColumn('incident_id', 'varchar(64)', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    // the service's id (Jira's numeric id, Linear's UUID) and what people read (OPS-12)
    .addColumn('issue_id', 'varchar(100)', (c) => c.notNull())
    .addColumn('issue_key', 'varchar(100)', (c) => c.notNull())
    .addColumn('issue_url', 'varchar(2048)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('alert_issue_links_pk', ['channel_id', 'incident_id'])
    .execute();
  await db.schema
    .createTable('alert_issue_comments')
    .addColumn('delivery_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('channel_id', 'varchar(64)', (c) => c.notNull().references('alert_channels.id').onDelete('cascade'))
    .addColumn('incident_id', 'varchar(64)', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alert_issue_comments').execute();
  await db.schema.dropTable('alert_issue_links').execute();
}
