// What every repository takes: the process's connection or a transaction opened on it, and the
// dialect it speaks (a few statements differ between SQLite and PostgreSQL, e.g. row locks).
// `Db` is a DbScope, so services pass `services.db`; inside withTransaction they pass the `tx`.
import type { Kysely } from 'kysely';
import type { DbKind } from './connect.ts';
import type { Database } from './schema/index.ts';

export interface DbScope {
  kind: DbKind;
  k: Kysely<Database>;
  /** Inside withTransaction: what to run once it has committed (see afterCommit) */
  committed?: Set<() => void>;
}

/**
 * Runs fn in one transaction: it commits when fn resolves and rolls back whole when fn throws
 * (the error is rethrown). Called with a scope that is already a transaction, fn joins it, so a
 * step that takes the caller's transaction can also run on its own.
 */
export async function withTransaction<T>(db: DbScope, fn: (tx: DbScope) => Promise<T>): Promise<T> {
  if (db.k.isTransaction) return fn(db);
  const committed = new Set<() => void>();
  const result = await db.k.transaction().execute((trx) => fn({ kind: db.kind, k: trx, committed }));
  for (const hook of committed) hook();
  return result;
}

/**
 * Runs `hook` once the scope's writes are committed: at once outside a transaction, after the
 * commit inside withTransaction (once, however often it is asked), never after a rollback. A
 * transaction opened some other way does not run it; what it was for must not depend on it.
 */
export function afterCommit(scope: DbScope, hook: () => void): void {
  if (scope.committed) scope.committed.add(hook);
  else if (!scope.k.isTransaction) hook();
}
