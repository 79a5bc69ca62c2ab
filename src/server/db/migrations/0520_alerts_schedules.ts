// On-call schedules (issue 30): a company's schedules (layers stored as JSON: they are read and
// written whole and resolved in code, domain/oncall/resolve.ts), their overrides, the escalation
// policy's schedules per step, its repeat count and team-at-last-step switch (one row per
// company, absent = 0 and off), and the pages each incident's escalation sent (who, which step
// and round, through which schedule, by which channel).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('schedules')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('time_zone', 'varchar(64)', (c) => c.notNull())
    .addColumn('layers', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedules_company').on('schedules').columns(['company_id', 'name']).execute();

  await db.schema
    .createTable('schedule_overrides')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('schedule_id', 'varchar(64)', (c) => c.notNull().references('schedules.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('start_at', 'bigint', (c) => c.notNull())
    .addColumn('end_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('schedule_overrides_schedule').on('schedule_overrides').columns(['schedule_id', 'end_at']).execute();

  await db.schema
    .alterTable('escalation_steps')
    .addColumn('schedule_ids', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createTable('escalation_policies')
    .addColumn('company_id', 'varchar(64)', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    .addColumn('repeat_count', 'integer', (c) => c.notNull())
    .addColumn('notify_team_at_last_step', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('incident_pages')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('incident_id', 'varchar(64)', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    .addColumn('company_id', 'varchar(64)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('step', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'varchar(64)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // No foreign key: a page keeps its schedule's id and name after the schedule is deleted.
    .addColumn('schedule_id', 'varchar(64)')
    .addColumn('schedule_name', 'varchar(100)')
    .addColumn('reason', 'varchar(20)', (c) => c.notNull())
    .addColumn('channel', 'varchar(20)', (c) => c.notNull())
    .addColumn('sent_at', 'bigint', (c) => c.notNull())
    .execute();
  // One page per person, channel and step of a round: a step written twice pages once.
  await db.schema
    .createIndex('incident_pages_once')
    .on('incident_pages')
    .columns(['incident_id', 'round', 'step', 'user_id', 'channel'])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_pages').execute();
  await db.schema.dropTable('escalation_policies').execute();
  await db.schema.alterTable('escalation_steps').dropColumn('schedule_ids').execute();
  await db.schema.dropTable('schedule_overrides').execute();
  await db.schema.dropTable('schedules').execute();
}
