// API intelligence: the HTTP endpoints learned from server spans. Per-minute, -hour and -day rollups
// by company, service, method and route template (requests, errors, status classes, the count
// per status code, a latency sketch), and the first minute each endpoint was seen, so the
// inventory reads a few thousand rows instead of millions of spans.
//
// Spans stored before this migration are rolled up here, an hour of request spans at a time (a
// whole hour's rows are complete, so plain inserts suffice); the days are then summed from the
// hours, their sketch and code texts joined (joined texts parse as their merge). The route rules, the sketch mapping
// and the text forms are frozen copies of src/lib/endpoint-route.ts, latency-sketch.ts and
// status-counts.ts as they were written with this migration.
import { SqliteAdapter, sql, type Kysely } from 'kysely';

const HOUR_MS = 3_600_000;
const MIN_MS = 60_000;
const LN_GAMMA = Math.log(1.01 / 0.99);
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH', 'QUERY']);
const MAX_ROUTE = 300;
const MAX_SEGMENTS = 20;
const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const NUMBER = /^[-+]?\d+(?:[.,]\d+)?$/;
const HEX = /^(?=[^\d]*\d)[0-9a-f]{12,}$/i;
const TOKEN = /^[A-Za-z0-9_\-+=~.]{16,}$/;

function isId(seg: string): boolean {
  let s = seg;
  try {
    s = decodeURIComponent(seg);
  } catch {
    // kept as sent
  }
  if (NUMBER.test(s) || UUID.test(s) || HEX.test(s)) return true;
  if (!TOKEN.test(s) || !/\d/.test(s) || !/[A-Za-z]/.test(s)) return false;
  return s.length >= 24 || (/[a-z]/.test(s) && /[A-Z]/.test(s));
}
const capped = (r: string) => (r.length <= MAX_ROUTE ? r : `${r.slice(0, MAX_ROUTE - 1)}…`);
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
function pathOfUrl(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}
function routeOf(attrs: Record<string, unknown>): { method: string; route: string } | null {
  const raw = text(attrs['http.request.method']) ?? text(attrs['http.method']);
  if (!raw) return null;
  const method = METHODS.has(raw.toUpperCase()) ? raw.toUpperCase() : '_OTHER';
  const template = text(attrs['http.route']) ?? text(attrs['url.template']);
  if (template) return { method, route: capped(template.startsWith('/') ? template : `/${template}`) };
  const path =
    text(attrs['url.path']) ??
    text(attrs['http.target']) ??
    pathOfUrl(text(attrs['url.full']) ?? '') ??
    pathOfUrl(text(attrs['http.url']) ?? '');
  if (path === null) return null;
  const segs = path
    .split(/[?#]/, 1)[0]
    .split('/')
    .filter((s) => s !== '');
  const out = segs.slice(0, MAX_SEGMENTS).map((s) => (isId(s) ? '{id}' : s));
  if (segs.length > MAX_SEGMENTS) out.push('…');
  return { method, route: capped(`/${out.join('/')}`) };
}

/** `key*count` text of a map (the sketch's and the status codes' form). */
function countsText(m: Map<string | number, number>): string {
  return [...m.keys()]
    .sort((a, b) => (a === 'z' ? -1 : b === 'z' ? 1 : Number(a) - Number(b)))
    .map((key) => (m.get(key) === 1 ? String(key) : `${key}*${m.get(key)}`))
    .join(',');
}
const bump = <K>(m: Map<K, number>, key: K) => m.set(key, (m.get(key) ?? 0) + 1);

interface Acc {
  row: Record<string, string | number>;
  hist: Map<string | number, number>;
  codes: Map<number, number>;
}

async function createTables(db: Kysely<any>): Promise<void> {
  for (const table of ['endpoint_rollups', 'endpoint_rollups_hourly', 'endpoint_rollups_daily']) {
    await db.schema
      .createTable(table)
      .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('minute_ms', 'bigint', (c) => c.notNull())
      .addColumn('service', 'varchar(200)', (c) => c.notNull())
      .addColumn('method', 'varchar(10)', (c) => c.notNull())
      .addColumn('route', 'varchar(300)', (c) => c.notNull())
      .addColumn('requests', 'integer', (c) => c.notNull())
      .addColumn('errors', 'integer', (c) => c.notNull())
      .addColumn('sum_ms', 'real', (c) => c.notNull())
      .addColumn('c2xx', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('c3xx', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('c4xx', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('c5xx', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('codes', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('hist', 'text', (c) => c.notNull().defaultTo(''))
      .addPrimaryKeyConstraint(`${table}_pk`, ['company_id', 'minute_ms', 'service', 'method', 'route'])
      .execute();
    // Super admins' inventory of every company reads a window of all companies' rows.
    await db.schema.createIndex(`${table}_minute_idx`).on(table).column('minute_ms').execute();
  }
  await db.schema
    .createTable('api_endpoints')
    .addColumn('company_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('service', 'varchar(200)', (c) => c.notNull())
    .addColumn('method', 'varchar(10)', (c) => c.notNull())
    .addColumn('route', 'varchar(300)', (c) => c.notNull())
    .addColumn('first_seen_ms', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('api_endpoints_pk', ['company_id', 'service', 'method', 'route'])
    .execute();
}

/** The rollup rows of one hour of stored request spans: its minutes and the hour itself. */
function rollHour(spans: Array<Record<string, unknown>>, hourMs: number): { minutes: Acc[]; hours: Acc[] } {
  const minutes = new Map<string, Acc>();
  const hours = new Map<string, Acc>();
  for (const s of spans) {
    const attrsText = String(s.attributes);
    if (!attrsText.includes('"http.')) continue;
    let attrs: unknown;
    try {
      attrs = JSON.parse(attrsText);
    } catch {
      continue;
    }
    const e = attrs && typeof attrs === 'object' ? routeOf(attrs as Record<string, unknown>) : null;
    if (!e) continue;
    const ms = Math.floor(Number(s.start_us) / 1000);
    const duration = Number(s.duration_ms);
    const status = s.http_status === null ? null : Number(s.http_status);
    for (const [map, at] of [
      [minutes, ms - (ms % MIN_MS)],
      [hours, hourMs],
    ] as const) {
      const key = `${String(s.company_id)}\u0000${at}\u0000${String(s.service)}\u0000${e.method}\u0000${e.route}`;
      let acc = map.get(key);
      if (!acc) {
        const row = { company_id: String(s.company_id), minute_ms: at, service: String(s.service), ...e };
        acc = { row: { ...row, requests: 0, errors: 0, sum_ms: 0, c2xx: 0, c3xx: 0, c4xx: 0, c5xx: 0 }, hist: new Map(), codes: new Map() };
        map.set(key, acc);
      }
      (acc.row.requests as number)++;
      (acc.row.errors as number) += Number(s.is_error) ? 1 : 0;
      (acc.row.sum_ms as number) += duration;
      bump(acc.hist, duration > 1e-6 ? Math.ceil(Math.log(Math.min(duration, 1e300)) / LN_GAMMA) : 'z');
      if (status !== null && status >= 200 && status < 600) {
        (acc.row[`c${Math.floor(status / 100)}xx`] as number)++;
        bump(acc.codes, status);
      }
    }
  }
  return { minutes: [...minutes.values()], hours: [...hours.values()] };
}

export async function up(db: Kysely<any>): Promise<void> {
  await createTables(db);
  const first = new Map<string, Record<string, string | number>>();
  let next = await db.selectFrom('spans').select(sql<number | null>`min(start_us)`.as('at')).where('is_request', '=', 1).executeTakeFirst();
  while (next?.at != null) {
    const ms = Math.floor(Number(next.at) / 1000);
    const hourMs = ms - (ms % HOUR_MS);
    const spans = await db
      .selectFrom('spans')
      .select(['company_id', 'service', 'start_us', 'duration_ms', 'is_error', 'http_status', 'attributes'])
      .where('is_request', '=', 1)
      .where('start_us', '>=', hourMs * 1000)
      .where('start_us', '<', (hourMs + HOUR_MS) * 1000)
      .execute();
    const { minutes, hours } = rollHour(spans, hourMs);
    for (const [table, accs] of [
      ['endpoint_rollups', minutes],
      ['endpoint_rollups_hourly', hours],
    ] as const) {
      const rows = accs.map((a) => ({ ...a.row, hist: countsText(a.hist), codes: countsText(a.codes) }));
      for (let i = 0; i < rows.length; i += 300)
        await db
          .insertInto(table)
          .values(rows.slice(i, i + 300))
          .execute();
    }
    for (const a of minutes) {
      const key = `${a.row.company_id}\u0000${a.row.service}\u0000${a.row.method}\u0000${a.row.route}`;
      const seen = first.get(key);
      if (!seen || Number(a.row.minute_ms) < Number(seen.first_seen_ms))
        first.set(key, {
          company_id: a.row.company_id,
          service: a.row.service,
          method: a.row.method,
          route: a.row.route,
          first_seen_ms: a.row.minute_ms,
        });
    }
    next = await db
      .selectFrom('spans')
      .select(sql<number | null>`min(start_us)`.as('at'))
      .where('is_request', '=', 1)
      .where('start_us', '>=', (hourMs + HOUR_MS) * 1000)
      .executeTakeFirst();
  }
  const joined = (col: string) =>
    db.getExecutor().adapter instanceof SqliteAdapter ? sql`group_concat(${sql.ref(col)}, ',')` : sql`string_agg(${sql.ref(col)}, ',')`;
  await sql`insert into endpoint_rollups_daily (company_id, minute_ms, service, method, route, requests, errors, sum_ms, c2xx, c3xx, c4xx, c5xx, codes, hist)
    select company_id, minute_ms - (minute_ms % 86400000), service, method, route, sum(requests), sum(errors), sum(sum_ms),
      sum(c2xx), sum(c3xx), sum(c4xx), sum(c5xx), ${joined('codes')}, ${joined('hist')}
    from endpoint_rollups_hourly group by company_id, minute_ms - (minute_ms % 86400000), service, method, route`.execute(db);
  const seen = [...first.values()];
  for (let i = 0; i < seen.length; i += 300)
    await db
      .insertInto('api_endpoints')
      .values(seen.slice(i, i + 300))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['api_endpoints', 'endpoint_rollups_daily', 'endpoint_rollups_hourly', 'endpoint_rollups'])
    await db.schema.dropTable(t).execute();
}
