// One Kysely instance per process: SQLite file (default, one writer connection) or PostgreSQL.
import { withArrayLiterals } from './pg-array-literal.ts';
import { preparedName } from './pg-prepared.ts';
import { Kysely, PostgresDialect, SqliteDialect, sql, type KyselyConfig } from 'kysely';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './schema/index.ts';
import { openSqlite } from './sqlite-adapter.ts';
import { BooleanColumnsPlugin } from './booleans.ts';
import { BACKSTOP_PAGES, startCheckpointer } from './sqlite-checkpointer.ts';
import { describeDbFailure } from './outage.ts';
import { dbQueryDuration } from '../metrics/platform.ts';

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

/** A connection attempt to an unreachable server gives up after this (pg waits forever by default). */
export const CONNECT_TIMEOUT_MS = 5000;

/**
 * Idle connections are kept (node-postgres closes them after 10 s by default). A connection opened
 * again costs a backend start and, for each statement kept prepared (pg-prepared.ts), a parse and
 * five planned runs before its generic plan: the probe ingest thread's second connection, needed
 * when two delivery calls overlapped and closed again after 10 s idle, made the calls' slowest
 * (bench:probes replay: a 175 ms round trip, PostgreSQL logging the statement's parse 25 ms and
 * bind 52 ms). The pool's size bounds what is kept.
 */
export const IDLE_TIMEOUT_MS = 0;

type DbOptions = (
  | {
      kind: 'sqlite';
      file: string;
      /** WAL checkpoints in a worker thread instead of inside commits (the server's database) */
      backgroundCheckpoints?: boolean;
      /**
       * Another connection of this process runs the background checkpoints (the probe ingest
       * thread's): this one only keeps the backstop, so its commits never copy the WAL either
       */
      checkpointedElsewhere?: boolean;
    }
  | { kind: 'postgres'; url: string; max?: number }
) & {
  /** Where connection failures are reported (one line, no host, user or database); stderr by default */
  log?: (line: string) => void;
};

const toStderr = (line: string) => void process.stderr.write(`${line}\n`);

/** Kysely times every statement when given a log function: that timing is the metric. */
function timeQueries(kind: DbKind): KyselyConfig['log'] {
  const ok = dbQueryDuration.labels(kind, 'ok');
  const error = dbQueryDuration.labels(kind, 'error');
  return (event) => (event.level === 'query' ? ok : error).observe(event.queryDurationMillis / 1000);
}

export function openDb(opts: DbOptions): Db {
  let k: Kysely<Database>;
  let checkpointer: { stop(): Promise<void> } | undefined;
  const log = timeQueries(opts.kind);
  if (opts.kind === 'sqlite') {
    mkdirSync(path.dirname(opts.file), { recursive: true });
    const database = openSqlite(opts.file);
    if (opts.backgroundCheckpoints) checkpointer = startCheckpointer(database.raw, opts.file);
    else if (opts.checkpointedElsewhere) database.raw.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_PAGES};`);
    k = new Kysely<Database>({
      dialect: new SqliteDialect({ database }),
      log,
      plugins: [new BooleanColumnsPlugin({ encodeWrites: false })],
    });
  } else {
    k = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: resilientPool(opts.url, opts.max ?? 10, opts.log ?? toStderr) }),
      log,
      plugins: [new BooleanColumnsPlugin({ encodeWrites: true })],
    });
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
      await checkpointer?.stop();
      await k.destroy();
    },
  };
}

/**
 * A pool that survives PostgreSQL going away. A connection the server drops (restart, failover,
 * outage) emits 'error', which would end the process if nobody listened: the pool's error says
 * an idle connection died (it is discarded and a new one is opened on next use); a checked-out
 * client's error also fails its query, which reports it to the caller.
 */
function resilientPool(url: string, max: number, log: (line: string) => void): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, idleTimeoutMillis: IDLE_TIMEOUT_MS });
  pool.on('error', (e) => log(`${describeDbFailure(e)}: an idle connection was lost; reconnecting on next use`));
  pool.on('connect', (client) => {
    client.on('error', () => {});
    // Array parameters as literals made with one join (pg-array-literal.ts says why), and marked
    // statements under a name (pg-prepared.ts); Kysely calls query(text, values) on the client it
    // checked out.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((text: unknown, values?: unknown, ...rest: unknown[]) => {
      const params = Array.isArray(values) ? withArrayLiterals(values) : values;
      const name = typeof text === 'string' ? preparedName(text) : undefined;
      return name ? query({ name, text, values: params }, ...rest) : query(text, params, ...rest);
    }) as typeof client.query;
  });
  return pool;
}
