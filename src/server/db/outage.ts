// Which database failures mean "the database cannot serve right now" (down, restarting, out of
// connections, disk full, read-only) rather than a bug or a constraint, described by a code
// alone: driver messages name the host, port, user or database, and logs must not carry them.

export type OutageKind = 'unreachable' | 'full' | 'read_only';

export interface DbOutage {
  kind: OutageKind;
  /** e.g. ECONNREFUSED, 57P01, SQLITE_FULL: safe to log */
  code: string;
}

/** Socket failures of the PostgreSQL connection. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** PostgreSQL SQLSTATEs (class 08 is matched by prefix). */
const PG_STATES: Record<string, OutageKind> = {
  '57P01': 'unreachable', // admin_shutdown
  '57P02': 'unreachable', // crash_shutdown
  '57P03': 'unreachable', // cannot_connect_now (starting up, recovering)
  '53300': 'unreachable', // too_many_connections
  '53100': 'full', // disk_full
  '25006': 'read_only', // read_only_sql_transaction (a standby after failover)
  '28000': 'unreachable', // invalid_authorization_specification (names the user)
  '28P01': 'unreachable', // invalid_password (names the user)
  '3D000': 'unreachable', // invalid_catalog_name: the database is gone (names it)
};

/** pg's own errors carry no code, only these messages. */
const PG_MESSAGES: Array<[RegExp, string]> = [
  [/^Connection terminated/, 'CONNECTION_TERMINATED'],
  [/^timeout exceeded when trying to connect/, 'CONNECT_TIMEOUT'],
  [/is not queryable/, 'CONNECTION_BROKEN'],
];

/** SQLite primary result codes (node:sqlite reports them as `errcode`, maybe extended). */
const SQLITE_CODES: Record<number, [OutageKind, string]> = {
  5: ['unreachable', 'SQLITE_BUSY'],
  8: ['read_only', 'SQLITE_READONLY'],
  10: ['unreachable', 'SQLITE_IOERR'],
  13: ['full', 'SQLITE_FULL'],
  14: ['unreachable', 'SQLITE_CANTOPEN'],
  15: ['unreachable', 'SQLITE_PROTOCOL'],
};

function classify(e: object): DbOutage | null {
  const { code, errcode, message } = e as { code?: unknown; errcode?: unknown; message?: unknown };
  if (code === 'ERR_SQLITE_ERROR' && typeof errcode === 'number') {
    const hit = SQLITE_CODES[errcode & 0xff];
    return hit ? { kind: hit[0], code: hit[1] } : null;
  }
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || code.startsWith('08')) return { kind: 'unreachable', code };
    if (PG_STATES[code]) return { kind: PG_STATES[code], code };
  }
  if (typeof message === 'string') {
    for (const [re, name] of PG_MESSAGES) if (re.test(message)) return { kind: 'unreachable', code: name };
  }
  // Connecting to a name with several addresses fails with every attempt's error.
  if (e instanceof AggregateError) {
    for (const inner of e.errors) {
      const found = inner && typeof inner === 'object' ? classify(inner) : null;
      if (found) return found;
    }
  }
  return null;
}

/** The outage behind an error (looking through `cause`), or null for any other failure. */
export function dbOutageOf(e: unknown): DbOutage | null {
  for (let cur = e, depth = 0; cur && typeof cur === 'object' && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++) {
    const found = classify(cur);
    if (found) return found;
  }
  return null;
}

/** An error's message for a log, unless it is a database outage, whose message may name the server. */
export function loggableError(e: unknown): string {
  return dbOutageOf(e) ? describeDbFailure(e) : e instanceof Error ? e.message : String(e);
}

/** A log line for a database failure that names no host, port, user or database. */
export function describeDbFailure(e: unknown): string {
  const o = dbOutageOf(e);
  if (o) return `database ${o.kind.replace('_', '-')} (${o.code})`;
  const code = (e as { code?: unknown } | null)?.code;
  return `database error${typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''}`;
}
