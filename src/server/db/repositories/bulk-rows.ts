// Batch inserts and upserts of the result writer's tables (up to 1,000 rows a statement, every
// second of a platform fed by probes). On PostgreSQL the rows go as one array parameter per column,
// `insert … select * from unnest($1::type[], …)`: a statement of eight parameters whatever the
// rows, instead of one parameter per value (8,000 for 1,000 rollup rows), which Kysely built node
// by node, the driver serialised value by value and PostgreSQL parsed and planned anew each time.
// Measured with bench:probe-drain: see the issue-27 section of docs/development/benchmarks.md.
// SQLite keeps the plain multi-row VALUES, its parameters being bound in-process.
import { sql } from 'kysely';
import type { DbScope } from '../scope.ts';

/** A column's PostgreSQL type, the element type of its array parameter */
export type PgColumnType = 'text' | 'varchar' | 'bigint' | 'integer' | 'real' | 'double precision' | 'bytea';

export interface BulkTable<C extends string> {
  table: string;
  /** every column written, with its type on PostgreSQL */
  columns: Record<C, PgColumnType>;
  /** the unique key a row may already hold */
  key: readonly C[];
  /** the columns a row already there takes from the new one; `nothing` keeps the old row */
  update: readonly C[] | 'nothing';
}

/** Inserts `rows`, or replaces the rows of their keys; a column a row leaves out is written null. */
export async function upsertRows<C extends string>(
  db: DbScope,
  t: BulkTable<C>,
  rows: ReadonlyArray<Partial<Record<C, unknown>>>,
): Promise<void> {
  if (rows.length === 0) return;
  const cols = Object.keys(t.columns) as C[];
  const names = sql.join(cols.map((c) => sql.ref(c)));
  const key = sql.join(t.key.map((c) => sql.ref(c)));
  const onConflict =
    t.update === 'nothing'
      ? sql`on conflict (${key}) do nothing`
      : sql`on conflict (${key}) do update set ${sql.join(t.update.map((c) => sql`${sql.ref(c)} = excluded.${sql.ref(c)}`))}`;
  if (db.kind === 'postgres') {
    const arrays = cols.map((c) => sql`${rows.map((r) => r[c] ?? null)}::${sql.raw(t.columns[c])}[]`);
    await sql`insert into ${sql.table(t.table)} (${names}) select * from unnest(${sql.join(arrays)}) ${onConflict}`.execute(db.k);
    return;
  }
  // SQLite: 500 rows of at most 13 columns stay under its 32,766 parameters
  for (let from = 0; from < rows.length; from += 500) {
    const values = rows.slice(from, from + 500).map((r) => sql`(${sql.join(cols.map((c) => r[c] ?? null))})`);
    await sql`insert into ${sql.table(t.table)} (${names}) values ${sql.join(values)} ${onConflict}`.execute(db.k);
  }
}
