// One Kysely instance per process: SQLite file (default, one writer connection) or PostgreSQL.
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './schema/index.ts';
import { openSqlite } from './sqlite-adapter.ts';

export type DbKind = 'sqlite' | 'postgres';

export interface Db {
  kind: DbKind;
  k: Kysely<Database>;
  /** true when a trivial query answers */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

// int8 (bigint) columns hold millisecond timestamps and counters that fit in a double.
pg.types.setTypeParser(20, (v) => Number(v));
// numeric (from avg()/sum()) as a number too
pg.types.setTypeParser(1700, (v) => Number(v));

export function openDb(opts: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; max?: number }): Db {
  let k: Kysely<Database>;
  if (opts.kind === 'sqlite') {
    mkdirSync(path.dirname(opts.file), { recursive: true });
    const database = openSqlite(opts.file);
    k = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  } else {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.max ?? 10 });
    k = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  return {
    kind: opts.kind,
    k,
    async ping() {
      try {
        await sql`select 1`.execute(k);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await k.destroy();
    },
  };
}
