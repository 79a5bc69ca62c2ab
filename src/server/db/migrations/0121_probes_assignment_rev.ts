// What a probe must check changes when a monitor's check settings, pause, archive or locations
// change, or its company's default locations or activity (issue 27). `monitors.assignment_rev`
// records, per monitor, a number larger than every other monitor's at its latest such change, so
// a probe's long poll learns "something changed since N" from one indexed max() and then reads
// only the monitors past N (domain/probes/assignments.ts). Triggers keep it, not the services:
// every write path (API, imports, monitors as code, tests, scripts) bumps it without knowing of it,
// and status writes (50,000 a minute) do not touch it.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

/** The monitor columns whose change changes what a probe runs (or whether it runs it). */
const WATCHED = ['type', 'config', 'interval_seconds', 'timeout_seconds', 'is_paused', 'archived_at', 'locations', 'company_id'];
const NEXT_REV = '(select coalesce(max(assignment_rev), 0) + 1 from monitors)';

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  await db.schema
    .alterTable('monitors')
    .addColumn('assignment_rev', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('monitors_assignment_rev_idx').on('monitors').column('assignment_rev').execute();
  const changed = WATCHED.map((c) => (sqlite ? `old.${c} is not new.${c}` : `old.${c} is distinct from new.${c}`)).join(' or ');
  const companyChanged = sqlite
    ? 'old.default_locations is not new.default_locations or old.is_active is not new.is_active'
    : 'old.default_locations is distinct from new.default_locations or old.is_active is distinct from new.is_active';
  if (sqlite) {
    await sql
      .raw(
        `create trigger monitors_assignment_rev_insert after insert on monitors
         begin update monitors set assignment_rev = ${NEXT_REV} where id = new.id; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger monitors_assignment_rev_update after update of ${WATCHED.join(', ')} on monitors when ${changed}
         begin update monitors set assignment_rev = ${NEXT_REV} where id = new.id; end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger companies_assignment_rev_update after update of default_locations, is_active on companies when ${companyChanged}
         begin update monitors set assignment_rev = ${NEXT_REV} where company_id = new.id; end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function monitors_assignment_rev_bump() returns trigger language plpgsql as $$
       begin new.assignment_rev := ${NEXT_REV}; return new; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger monitors_assignment_rev_insert before insert on monitors for each row execute function monitors_assignment_rev_bump()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger monitors_assignment_rev_update before update of ${WATCHED.join(', ')} on monitors
       for each row when (${changed}) execute function monitors_assignment_rev_bump()`,
    )
    .execute(db);
  await sql
    .raw(
      `create function companies_assignment_rev_bump() returns trigger language plpgsql as $$
       begin update monitors set assignment_rev = ${NEXT_REV} where company_id = new.id; return new; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger companies_assignment_rev_update after update of default_locations, is_active on companies
       for each row when (${companyChanged}) execute function companies_assignment_rev_bump()`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  if (sqlite) {
    for (const t of ['monitors_assignment_rev_insert', 'monitors_assignment_rev_update', 'companies_assignment_rev_update'])
      await sql.raw(`drop trigger ${t}`).execute(db);
  } else {
    await sql`drop trigger companies_assignment_rev_update on companies`.execute(db);
    await sql`drop trigger monitors_assignment_rev_update on monitors`.execute(db);
    await sql`drop trigger monitors_assignment_rev_insert on monitors`.execute(db);
    await sql`drop function companies_assignment_rev_bump()`.execute(db);
    await sql`drop function monitors_assignment_rev_bump()`.execute(db);
  }
  await db.schema.dropIndex('monitors_assignment_rev_idx').execute();
  await db.schema.alterTable('monitors').dropColumn('assignment_rev').execute();
}
