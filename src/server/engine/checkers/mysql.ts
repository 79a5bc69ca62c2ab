// MySQL and MariaDB checks (mysql2): TCP to the checked address, the server's greeting judged
// before the driver reads it, TLS when the URL's ssl-mode asks (verified against the URL's host
// name), login, then the monitor's query in a READ ONLY transaction, its first value compared.
// Errors are our sentences by the server's error code, never its message.
import mysql from 'mysql2/promise';
import type { Socket } from 'node:net';
import { rootCertificates, type TLSSocket } from 'node:tls';
import { DEFAULT_DB_QUERY, DEFAULT_MYSQL_PORT } from '../../../lib/monitor-kinds.ts';
import { resolveSafe, TargetRefused } from '../../net/ssrf.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { dbUrlParts } from '../kinds/db-url.ts';
import { answered, capBytes, expectedProblem, TOO_MUCH, tlsOptions } from './db-common.ts';
import { connectTcp } from './socket-session.ts';
import { failed, round, type Checker } from './types.ts';

/** What a mysql monitor stores (engine/kinds/mysql.ts validates it); `password` sealed at rest. */
export interface MysqlConfig {
  url?: string;
  password?: string | null;
  db_query?: string;
  db_expected?: string | null;
  degraded_threshold_ms?: number | null;
}

const NOT_MYSQL = 'The server did not answer like MySQL';

const BY_CODE: Record<string, string> = {
  ER_ACCESS_DENIED_ERROR: 'Login failed: wrong user name or password',
  ER_HOST_NOT_PRIVILEGED: 'Login refused by the server (this host may not connect)',
  ER_BAD_DB_ERROR: 'The database does not exist',
  ER_DBACCESS_DENIED_ERROR: 'The user may not use this database',
  ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION: 'The query tried to write: it runs read-only',
  ER_TABLEACCESS_DENIED_ERROR: 'The user may not read what the query asks for',
  ER_COLUMNACCESS_DENIED_ERROR: 'The user may not read what the query asks for',
  ER_PARSE_ERROR: 'The query is not valid on this server (syntax error or unknown table or column)',
  ER_NO_SUCH_TABLE: 'The query is not valid on this server (syntax error or unknown table or column)',
  ER_BAD_FIELD_ERROR: 'The query is not valid on this server (syntax error or unknown table or column)',
  ER_STATEMENT_TIMEOUT: 'The query did not finish within the time-out',
  ER_QUERY_TIMEOUT: 'The query did not finish within the time-out',
  PROTOCOL_SEQUENCE_TIMEOUT: 'The query did not finish within the time-out',
  ER_CON_COUNT_ERROR: 'The server is out of resources (too many connections, memory or disk)',
  HANDSHAKE_NO_SSL_SUPPORT: 'The server does not offer TLS (ssl-mode asks for it)',
  PROTOCOL_CONNECTION_LOST: 'Connection closed by the server',
};

export function mysqlErrorText(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown; fatal?: unknown };
  if (typeof err?.code === 'string' && BY_CODE[err.code]) return BY_CODE[err.code];
  if (typeof err?.code === 'string' && err.code.startsWith('ER_')) return 'The query failed on the server';
  if (err?.message === TOO_MUCH || err?.message === NOT_MYSQL) return err.message as string;
  return networkErrorText(e);
}

/** ssl-mode of the URL (MySQL's names, any case): disabled, required or verify_identity. */
function sslMode(url: URL): string {
  return (url.searchParams.get('ssl-mode') ?? 'disabled').toLowerCase().replace('-', '_');
}

/** Waits for the server's first bytes and judges them: a handshake (protocol 10) or an error packet. */
function greeting(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      socket.off('error', reject);
      socket.off('close', onClose);
      socket.pause();
      socket.unshift(chunk);
      if (chunk.length < 5 || chunk[3] !== 0 || (chunk[4] !== 0x0a && chunk[4] !== 0xff)) reject(new Error(NOT_MYSQL));
      else resolve();
    };
    const onClose = () => reject(Object.assign(new Error('closed'), { code: 'PROTOCOL_CONNECTION_LOST' }));
    socket.once('data', onData);
    socket.once('error', reject);
    socket.once('close', onClose);
  });
}

export const mysqlChecker: Checker<MysqlConfig> = async (target, env, signal) => {
  const started = performance.now();
  const cfg = target.config;
  const parts = dbUrlParts(cfg.url, DEFAULT_MYSQL_PORT);
  if (!parts) return failed('URL is not valid');
  const { url, host, port } = parts;
  const mode = sslMode(url);
  let dns = 0;
  let connected = 0;
  let socket: Socket | null = null;
  let conn: mysql.Connection | null = null;
  let cap: { tooMuch(): boolean } | null = null;
  try {
    const { address } = await resolveSafe(host, env.allowPrivateTargets, env.resolve, signal);
    dns = round(performance.now() - started);
    socket = await connectTcp(address, port, signal);
    const raw = socket;
    signal.addEventListener('abort', () => raw.destroy(), { once: true });
    await greeting(raw);
    cap = capBytes(raw, env.limits.maxBodyBytes);
    const remainingMs = Math.max(1, Math.round(target.timeoutMs - (performance.now() - started)));
    const tls = tlsOptions(host, mode === 'verify_identity', env);
    const connecting = mysql.createConnection({
      // The name for TLS (SNI and the certificate); the bytes go over our socket to the checked address.
      host,
      port,
      stream: raw,
      user: decodeURIComponent(url.username) || 'root',
      password: cfg.password ?? undefined,
      database: decodeURIComponent(url.pathname.slice(1)) || undefined,
      ssl:
        mode === 'disabled'
          ? undefined
          : {
              rejectUnauthorized: tls.rejectUnauthorized,
              verifyIdentity: mode === 'verify_identity',
              ca: env.extraCa?.length ? [...rootCertificates, ...env.extraCa] : undefined,
            },
      rowsAsArray: true,
      multipleStatements: false,
      connectTimeout: remainingMs,
    });
    raw.resume();
    conn = await connecting;
    connected = round(performance.now() - started);
    // One statement, in a read-only transaction, bounded by what is left of the time-out.
    await conn.query('START TRANSACTION READ ONLY');
    const [rows] = await conn.query({
      sql: cfg.db_query || DEFAULT_DB_QUERY,
      timeout: Math.max(1, Math.round(target.timeoutMs - (performance.now() - started))),
    });
    const total = round(performance.now() - started);
    const timings = { dns, connect: round(connected - dns), ttfb: round(total - connected), total };
    const first = Array.isArray(rows) ? (rows[0] as unknown[] | undefined)?.[0] : undefined;
    const stream = (conn as unknown as { connection: { stream: Socket } }).connection.stream;
    const peer = mode === 'disabled' ? undefined : (stream as TLSSocket).getPeerCertificate?.();
    return answered(timings, expectedProblem(cfg.db_expected, first), cfg.degraded_threshold_ms, peer);
  } catch (e) {
    const timings = connected
      ? { dns, connect: round(connected - dns), total: round(performance.now() - started) }
      : { dns, total: round(performance.now() - started) };
    if (signal.aborted) return failed(`Timed out after ${target.timeoutMs / 1000} s`, timings);
    if (e instanceof TargetRefused) return failed(e.message, timings);
    if (cap?.tooMuch()) return failed(TOO_MUCH, timings);
    return failed(mysqlErrorText(e), timings);
  } finally {
    if (conn) conn.destroy();
    socket?.destroy();
  }
};
