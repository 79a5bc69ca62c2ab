// PostgreSQL checks: connect to the checked address (TLS when the URL's sslmode asks), log in,
// run the monitor's query in a read-only session and compare its first value. Every error is a
// sentence of ours by SQLSTATE: the server's own messages never reach the tenant.
import pg from 'pg';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { DEFAULT_DB_QUERY, DEFAULT_POSTGRES_PORT } from '../../../lib/monitor-kinds.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { dbUrlParts } from '../kinds/db-url.ts';
import { answered, capBytes, expectedProblem, TOO_MUCH, tlsOptions } from './db-common.ts';
import { failed, round, type Checker } from './types.ts';

/** What a postgres monitor stores (engine/kinds/postgres.ts validates it); `password` sealed at rest. */
export interface PostgresConfig {
  url?: string;
  password?: string | null;
  db_query?: string;
  db_expected?: string | null;
  degraded_threshold_ms?: number | null;
}

/** SQLSTATE classes and codes as the product says them. */
const BY_SQLSTATE: Array<[RegExp, string]> = [
  [/^28P01$/, 'Login failed: wrong user name or password'],
  [/^28/, 'Login refused by the server (user not allowed to connect)'],
  [/^3D000$/, 'The database does not exist'],
  [/^57014$/, 'The query did not finish within the time-out'],
  [/^25006$/, 'The query tried to write: it runs read-only'],
  [/^42501$/, 'The user may not read what the query asks for'],
  [/^42/, 'The query is not valid on this server (syntax error or unknown table or column)'],
  [/^53/, 'The server is out of resources (too many connections, memory or disk)'],
  [/^57P0/, 'The server is shutting down or starting up'],
];

const NOT_POSTGRES = 'The server did not answer like PostgreSQL';

export function postgresErrorText(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
  if (typeof err?.code === 'string' && /^[0-9A-Z]{5}$/.test(err.code))
    return BY_SQLSTATE.find(([re]) => re.test(err.code as string))?.[1] ?? 'The query failed on the server';
  const message = typeof err?.message === 'string' ? err.message : '';
  if (message === TOO_MUCH || message === NOT_POSTGRES) return message;
  if (/server does not support SSL/i.test(message)) return 'The server does not offer TLS (sslmode asks for it)';
  if (/terminated unexpectedly|Connection terminated/i.test(message)) return 'Connection closed by the server';
  if (/password must be a string|SASL|SCRAM/i.test(message)) return 'Login failed: the server asks for a password';
  if (/unexpected|invalid|parse|Unknown/i.test(message) && !(err as NodeJS.ErrnoException).syscall) return NOT_POSTGRES;
  return networkErrorText(e);
}

export const postgresChecker: Checker<PostgresConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const parts = dbUrlParts(cfg.url, DEFAULT_POSTGRES_PORT);
  if (!parts) return failed('URL is not valid');
  const { url, host, port } = parts;
  const sslmode = url.searchParams.get('sslmode') ?? 'disable';
  let dns = 0;
  let connected = 0;
  let client: pg.Client | null = null;
  let cap: { tooMuch(): boolean } | null = null;
  try {
    const { address } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
    dns = round(performance.now() - started);
    const user = decodeURIComponent(url.username) || 'postgres';
    const remainingMs = Math.max(1, Math.round(target.timeoutMs - (performance.now() - started)));
    client = new pg.Client({
      host: address,
      port,
      user,
      password: cfg.password ?? undefined,
      database: decodeURIComponent(url.pathname.slice(1)) || user,
      ssl: sslmode === 'disable' ? false : tlsOptions(host, sslmode === 'verify-full', env),
      application_name: 'statuswatch',
      // The session is read-only and its statements end within the check's time; the checker
      // also drops the connection at the deadline.
      options: `-c default_transaction_read_only=on -c statement_timeout=${remainingMs}`,
    });
    const connection = (client as unknown as { connection: { stream: Socket; on(e: string, f: () => void): void } }).connection;
    cap = capBytes(connection.stream, env.limits.maxBodyBytes);
    // A server's first byte is an authentication request or an error (S/N to a TLS request, v a
    // protocol downgrade): anything else is not PostgreSQL, said at once rather than at the deadline.
    connection.stream.once('data', (chunk: Buffer) => {
      if (!'RESNv'.includes(String.fromCharCode(chunk[0]))) connection.stream.destroy(new Error(NOT_POSTGRES));
    });
    connection.on('sslconnect', () => {
      cap = capBytes(connection.stream, env.limits.maxBodyBytes);
      // A server's first byte is an authentication request or an error (S/N to a TLS request, v a
      // protocol downgrade): anything else is not PostgreSQL, said at once rather than at the deadline.
      connection.stream.once('data', (chunk: Buffer) => {
        if (!'RESNv'.includes(String.fromCharCode(chunk[0]))) connection.stream.destroy(new Error(NOT_POSTGRES));
      });
    });
    client.on('error', () => undefined); // a late socket error after the outcome: nothing to report
    const onAbort = () => connection.stream.destroy();
    signal.addEventListener('abort', onAbort, { once: true });
    await client.connect();
    connected = round(performance.now() - started);
    // Extended protocol: exactly one statement, whatever the text holds.
    const query = { text: cfg.db_query || DEFAULT_DB_QUERY, rowMode: 'array', queryMode: 'extended' } as pg.QueryArrayConfig;
    const result = await client.query(query);
    const total = round(performance.now() - started);
    const timings = { dns, connect: round(connected - dns), ttfb: round(total - connected), total };
    const peer = sslmode === 'disable' ? undefined : (connection.stream as TLSSocket).getPeerCertificate?.();
    signal.removeEventListener('abort', onAbort);
    return answered(timings, expectedProblem(cfg.db_expected, result.rows[0]?.[0]), cfg.degraded_threshold_ms, peer);
  } catch (e) {
    const timings = connected
      ? { dns, connect: round(connected - dns), total: round(performance.now() - started) }
      : { dns, total: round(performance.now() - started) };
    if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    if (cap?.tooMuch()) return failed(TOO_MUCH, timings);
    return failed(postgresErrorText(e), timings);
  } finally {
    client?.end().catch(() => undefined);
  }
};
