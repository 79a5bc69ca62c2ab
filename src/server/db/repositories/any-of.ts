// `column IN (values)` for the batch paths (the result writer, the probes' delivery calls), where a
// list holds up to 1,000 ids: on PostgreSQL one array parameter, `= any($1::type[])`, instead of a
// parameter per value. The statement stays short to parse and bind, and the planner reads the
// column's index whatever its statistics say (a list of 500 literals on a table that grew since
// its last ANALYZE was planned as a sequential scan filtering every row, measured with
// auto_explain under bench:probe-drain). SQLite keeps the plain IN list.
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbScope } from '../scope.ts';

export type ArrayType = 'text' | 'bigint' | 'integer';

export function anyOf(
  db: Pick<DbScope, 'kind'>,
  column: string,
  values: ReadonlyArray<string | number>,
  type: ArrayType,
): RawBuilder<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`false`;
  if (db.kind === 'postgres') return sql<SqlBool>`${sql.ref(column)} = any(${[...values]}::${sql.raw(type)}[])`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...values])})`;
}
