// The optional language model's incident summaries (issue 33, item 3): each company's opt-in and
// monthly token budget, the tokens it used per calendar month (UTC), and every summary written
// with the prompt and the evidence it was written from, so anyone can see what the model was told.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('incident_summary_settings')
    .addColumn('company_id', 'varchar(36)', (c) => c.primaryKey().references('companies.id').onDelete('cascade'))
    // 0/1: a company admin opted in
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    // tokens a calendar month; null: the operator's default (LLM_MONTHLY_TOKENS)
    .addColumn('monthly_tokens', 'bigint')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(36)')
    .execute();
  await db.schema
    .createTable('incident_summary_usage')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    // YYYY-MM (UTC)
    .addColumn('month', 'varchar(7)', (c) => c.notNull())
    // tokens counted: the answers' usage, plus the estimates of calls still under way
    .addColumn('tokens', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('calls', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('incident_summary_usage_pk', ['company_id', 'month'])
    .execute();
  await db.schema
    .createTable('incident_summaries')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull().references('companies.id').onDelete('cascade'))
    .addColumn('incident_id', 'varchar(36)', (c) => c.notNull().references('incidents.id').onDelete('cascade'))
    // evidence: written when the evidence panel was built or updated; request: someone asked
    .addColumn('trigger', 'varchar(20)', (c) => c.notNull())
    // null when the evidence builder triggered it
    .addColumn('requested_by', 'varchar(36)')
    .addColumn('model', 'varchar(200)', (c) => c.notNull())
    // JSON: the messages sent, exactly
    .addColumn('prompt', 'text', (c) => c.notNull())
    // JSON: the IncidentEvidence object the prompt was built from
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('evidence_updated_at', 'bigint', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull())
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
    .addColumn('completion_tokens', 'integer', (c) => c.notNull())
    .addColumn('total_tokens', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incident_summaries_incident').on('incident_summaries').columns(['incident_id', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incident_summaries').execute();
  await db.schema.dropTable('incident_summary_usage').execute();
  await db.schema.dropTable('incident_summary_settings').execute();
}
