// Kysely's SqliteDialect expects the better-sqlite3 shape; node:sqlite (built into Node 24, no
// native build) differs only in how a statement says whether it returns rows.
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

type Param = null | number | bigint | string | Uint8Array;

function toParams(parameters: ReadonlyArray<unknown>): Param[] {
  // node:sqlite rejects booleans and undefined; store booleans as 0/1 like the schema does.
  return parameters.map((p) => (typeof p === 'boolean' ? (p ? 1 : 0) : p === undefined ? null : (p as Param)));
}

class Statement implements SqliteStatement {
  readonly reader: boolean;
  #stmt: StatementSync;
  constructor(stmt: StatementSync) {
    this.#stmt = stmt;
    this.reader = stmt.columns().length > 0;
  }
  all(parameters: ReadonlyArray<unknown>): unknown[] {
    return this.#stmt.all(...toParams(parameters));
  }
  run(parameters: ReadonlyArray<unknown>) {
    const r = this.#stmt.run(...toParams(parameters));
    return { changes: r.changes, lastInsertRowid: r.lastInsertRowid };
  }
  iterate(parameters: ReadonlyArray<unknown>): IterableIterator<unknown> {
    return this.#stmt.iterate(...toParams(parameters)) as IterableIterator<unknown>;
  }
}

/**
 * Kysely's ROLLBACK after a failed statement. SQLite has already rolled back by itself after some
 * failures (disk full, I/O error), and a second ROLLBACK would fail with "no transaction is
 * active", hiding the real error from the caller: it only runs while a transaction is open.
 */
class RollbackIfOpen implements SqliteStatement {
  readonly reader = false;
  #raw: DatabaseSync;
  constructor(raw: DatabaseSync) {
    this.#raw = raw;
  }
  all(): unknown[] {
    this.run();
    return [];
  }
  run() {
    if (this.#raw.isTransaction) this.#raw.exec('rollback');
    return { changes: 0, lastInsertRowid: 0 };
  }
  iterate(): IterableIterator<unknown> {
    return this.all()[Symbol.iterator]();
  }
}

export function openSqlite(file: string): SqliteDatabase & { raw: DatabaseSync } {
  const raw = new DatabaseSync(file);
  // WAL: readers never block the single writer; NORMAL sync is durable at each checkpoint and
  // never corrupts on a crash. busy_timeout lets a second process (CLI) wait instead of failing.
  raw.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;');
  const cache = new Map<string, Statement>();
  const rollback = new RollbackIfOpen(raw);
  // Kysely opens transactions with a plain (deferred) BEGIN, which takes the write lock at the first
  // write: when another connection wrote in between (the probe ingest thread's, a CLI), that upgrade
  // fails at once with SQLITE_BUSY, busy_timeout or not. BEGIN IMMEDIATE takes the lock up front,
  // waiting its turn under busy_timeout; with one connection it changes nothing.
  const begin = new Statement(raw.prepare('begin immediate'));
  return {
    raw,
    prepare(sql: string) {
      if (sql === 'rollback') return rollback;
      if (sql === 'begin') return begin;
      let s = cache.get(sql);
      if (!s) {
        s = new Statement(raw.prepare(sql));
        if (cache.size > 500) cache.clear();
        cache.set(sql, s);
      }
      return s;
    },
    close() {
      raw.close();
    },
  };
}
