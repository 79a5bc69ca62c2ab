// What every repository takes: the process's connection or a transaction opened on it, and the
// dialect it speaks (a few statements differ between SQLite and PostgreSQL, e.g. row locks).
// `Db` is a DbScope, so services pass `services.db`; inside withTransaction they pass the `tx`.
import type { Kysely } from 'kysely';
import type { DbKind } from './connect.ts';
import type { Database } from './schema/index.ts';

export interface DbScope {
  kind: DbKind;
  k: Kysely<Database>;
}

/**
 * Runs fn in one transaction: it commits when fn resolves and rolls back whole when fn throws
 * (the error is rethrown). Called with a scope that is already a transaction, fn joins it, so a
 * step that takes the caller's transaction can also run on its own.
 */
export function withTransaction<T>(db: DbScope, fn: (tx: DbScope) => Promise<T>): Promise<T> {
  if (db.k.isTransaction) return fn(db);
  return db.k.transaction().execute((trx) => fn({ kind: db.kind, k: trx }));
}
