// PostgreSQL: assignment revs in commit order (issue 27's "possible missed change"). The trigger of
// migration 0121 gave a change max(rev) + 1 from its own snapshot, so two transactions could take
// revs in one order and commit in the other (or take the same rev): a probe that read "changed
// since 10" after the second commit moved its cursor to 12 and never saw 11, until its 10-minute
// full fetch. The bump now takes a transaction-scoped advisory lock first: the next change waits
// until this one commits, then reads the max it left, so a rev is visible only once every smaller
// one is. Only check-setting changes take it (status writes do not bump), so it is rarely waited
// for. SQLite has one writer at a time already: nothing to change there.
import { type Kysely, SqliteAdapter, sql } from 'kysely';

const NEXT_REV = '(select coalesce(max(assignment_rev), 0) + 1 from monitors)';
/** The advisory lock's key: any constant no other code uses */
const LOCK = "hashtext('statuswatch.monitors.assignment_rev')";

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql
    .raw(
      `create or replace function monitors_assignment_rev_bump() returns trigger language plpgsql as $$
       begin perform pg_advisory_xact_lock(${LOCK}); new.assignment_rev := ${NEXT_REV}; return new; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function companies_assignment_rev_bump() returns trigger language plpgsql as $$
       begin perform pg_advisory_xact_lock(${LOCK}); update monitors set assignment_rev = ${NEXT_REV} where company_id = new.id; return new; end $$`,
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql
    .raw(
      `create or replace function monitors_assignment_rev_bump() returns trigger language plpgsql as $$
       begin new.assignment_rev := ${NEXT_REV}; return new; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function companies_assignment_rev_bump() returns trigger language plpgsql as $$
       begin update monitors set assignment_rev = ${NEXT_REV} where company_id = new.id; return new; end $$`,
    )
    .execute(db);
}
