// Reading what an Uptime Kuma instance holds, from either of the two files it gives out: its
// SQLite database (data/kuma.db, opened read-only with node:sqlite) or the JSON backup of the
// 1.x "Export" button ({version, notificationList, monitorList}). Both become one model, in
// Uptime Kuma's own terms; mapping to ours is map.ts's job.
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { ImportFileError } from '../file-error.ts';

export interface KumaMonitor {
  id: number;
  name: string;
  type: string;
  active: boolean;
  description: string | null;
  interval: number;
  timeout: number | null;
  maxretries: number;
  url: string | null;
  method: string | null;
  hostname: string | null;
  port: number | null;
  keyword: string | null;
  invertKeyword: boolean;
  ignoreTls: boolean;
  upsideDown: boolean;
  maxredirects: number | null;
  acceptedStatusCodes: string[];
  dnsResolveType: string | null;
  dnsResolveServer: string | null;
  dnsResolvePort: number | null;
  headers: string | null;
  body: string | null;
  authMethod: string | null;
  basicAuthUser: string | null;
  basicAuthPass: string | null;
  jsonPath: string | null;
  expectedValue: string | null;
  jsonPathOperator: string | null;
  packetSize: number | null;
  parent: number | null;
  tags: { name: string; value: string | null }[];
  notificationIds: number[];
}

export interface KumaNotification {
  id: number;
  name: string;
  active: boolean;
  isDefault: boolean;
  config: Record<string, unknown>;
}

export interface KumaStatusPage {
  slug: string;
  title: string;
  description: string | null;
  footerText: string | null;
  published: boolean;
  hasPassword: boolean;
  groups: { name: string; monitorIds: number[] }[];
}

export interface KumaMaintenance {
  id: number;
  title: string;
  description: string | null;
  active: boolean;
  strategy: string;
  startDate: string | null;
  endDate: string | null;
  startTime: string | null;
  endTime: string | null;
  weekdays: number[];
  daysOfMonth: (number | string)[];
  cron: string | null;
  duration: number | null;
  timezone: string | null;
  monitorIds: number[];
}

export interface KumaData {
  source: 'database' | 'backup';
  version: string;
  monitors: KumaMonitor[];
  notifications: KumaNotification[];
  statusPages: KumaStatusPage[];
  maintenance: KumaMaintenance[];
  /** Things seen that no importer reads (proxies, Docker hosts, incidents, ...): "what: why" */
  skipped: { what: string; name: string; why: string }[];
}

/** A file the importer cannot read, with the reason in words for the user. */
export class KumaFileError extends ImportFileError {}

const SQLITE_MAGIC = 'SQLite format 3\0';

export function readKuma(path: string): KumaData {
  let head: Buffer;
  try {
    head = readFileSync(path);
  } catch (e) {
    throw new KumaFileError(`Cannot read ${path}: ${(e as Error).message}`);
  }
  if (head.subarray(0, 16).toString('latin1') === SQLITE_MAGIC) return readDatabase(path);
  let json: unknown;
  try {
    json = JSON.parse(head.toString('utf8'));
  } catch {
    throw new KumaFileError(
      `${path} is neither an Uptime Kuma database (SQLite, data/kuma.db) nor its JSON backup: it is not SQLite and not JSON.`,
    );
  }
  return readBackup(json, path);
}

const bool = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function codes(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v.trim()) {
    try {
      const parsed = JSON.parse(v) as unknown;
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      return [v];
    }
  }
  return [];
}

function ids(v: unknown): number[] {
  if (v && typeof v === 'object' && !Array.isArray(v))
    return Object.entries(v)
      .filter(([, on]) => bool(on))
      .map(([k]) => Number(k));
  return [];
}

function jsonList<T>(v: unknown): T[] {
  if (Array.isArray(v)) return v as T[];
  if (typeof v !== 'string' || !v.trim()) return [];
  try {
    const parsed = JSON.parse(v) as unknown;
    return Array.isArray(parsed) ? (parsed as T[]) : [];
  } catch {
    return [];
  }
}

/** A monitor row of the database or an entry of a backup's monitorList (toJSON's camelCase). */
function monitorOf(r: Record<string, unknown>): KumaMonitor {
  const pick = (...keys: string[]) => keys.map((k) => r[k]).find((v) => v !== undefined);
  return {
    id: Number(r.id),
    name: String(r.name ?? ''),
    type: String(r.type ?? ''),
    active: r.active === undefined ? true : bool(r.active),
    description: str(r.description),
    interval: Number(r.interval ?? 60),
    timeout: num(r.timeout),
    maxretries: Number(r.maxretries ?? 0),
    url: str(r.url),
    method: str(r.method),
    hostname: str(r.hostname),
    port: num(r.port),
    keyword: str(r.keyword),
    invertKeyword: bool(pick('invert_keyword', 'invertKeyword')),
    ignoreTls: bool(pick('ignore_tls', 'ignoreTls')),
    upsideDown: bool(pick('upside_down', 'upsideDown')),
    maxredirects: num(r.maxredirects),
    acceptedStatusCodes: codes(pick('accepted_statuscodes_json', 'accepted_statuscodes')),
    dnsResolveType: str(r.dns_resolve_type),
    dnsResolveServer: str(r.dns_resolve_server),
    dnsResolvePort: num(pick('dns_resolve_port', 'dnsResolvePort')),
    headers: str(r.headers),
    body: str(r.body),
    authMethod: str(pick('auth_method', 'authMethod')),
    basicAuthUser: str(r.basic_auth_user),
    basicAuthPass: str(r.basic_auth_pass),
    jsonPath: str(pick('json_path', 'jsonPath')),
    expectedValue: str(pick('expected_value', 'expectedValue')),
    jsonPathOperator: str(pick('json_path_operator', 'jsonPathOperator')),
    packetSize: num(pick('packet_size', 'packetSize')),
    parent: num(r.parent),
    tags: jsonList<{ name: string; value?: string | null }>(r.tags).map((t) => ({ name: String(t.name), value: str(t.value) || null })),
    notificationIds: ids(r.notificationIDList),
  };
}

function readBackup(json: unknown, path: string): KumaData {
  const b = json as { version?: unknown; notificationList?: unknown; monitorList?: unknown };
  if (!b || typeof b !== 'object' || !Array.isArray(b.monitorList) || !Array.isArray(b.notificationList))
    throw new KumaFileError(
      `${path} is JSON but not an Uptime Kuma backup: a backup (Settings, Backup, Export in Uptime Kuma 1.x) has "version", "notificationList" and "monitorList".`,
    );
  const version = typeof b.version === 'string' ? b.version : '';
  // The format exists from 1.6.0 (export added) to 1.23 (export removed in 2.0); tags from 1.7.0.
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!m || Number(m[1]) !== 1 || Number(m[2]) < 6)
    throw new KumaFileError(
      `${path} is a backup of Uptime Kuma version "${version || '(none)'}"; this importer reads backups of 1.6.0 to 1.23.x (later versions have no JSON export: import their data/kuma.db instead).`,
    );
  const notifications: KumaNotification[] = (b.notificationList as Record<string, unknown>[]).map((n) => {
    let config: Record<string, unknown> = {};
    try {
      config =
        typeof n.config === 'string' ? (JSON.parse(n.config) as Record<string, unknown>) : ((n.config as Record<string, unknown>) ?? {});
    } catch {
      config = {};
    }
    return {
      id: Number(n.id),
      name: String(n.name ?? config.name ?? ''),
      active: n.active === undefined ? true : bool(n.active),
      isDefault: bool(n.isDefault ?? n.is_default),
      config,
    };
  });
  const monitors = (b.monitorList as Record<string, unknown>[]).map(monitorOf);
  const skipped = ((b as { proxyList?: { host?: string }[] }).proxyList ?? []).map((p) => ({
    what: 'proxy',
    name: String(p.host ?? ''),
    why: 'checks go out from our probes; there are no per-monitor proxies',
  }));
  return { source: 'backup', version, monitors, notifications, statusPages: [], maintenance: [], skipped };
}

function readDatabase(path: string): KumaData {
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(path, { readOnly: true });
  } catch (e) {
    throw new KumaFileError(`Cannot open ${path} as SQLite: ${(e as Error).message}`);
  }
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
    );
    for (const t of ['monitor', 'notification', 'monitor_notification', 'setting'])
      if (!tables.has(t)) throw new KumaFileError(`${path} is an SQLite database but not Uptime Kuma's (it has no "${t}" table).`);
    // 2.x databases are laid out by knex migrations (the knex_migrations table); 1.x ones are
    // not, and lack columns read below: they are refused with the way forward.
    if (!tables.has('knex_migrations'))
      throw new KumaFileError(
        `${path} is an Uptime Kuma 1.x database; this importer reads 2.x databases. Start it once with Uptime Kuma 2 (which migrates it), or use the JSON backup (Settings, Backup, Export).`,
      );
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    const has = (table: string, column: string) =>
      (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]).some((c) => c.name === column);
    const tagRows = all<{ monitor_id: number; name: string; value: string | null }>(
      'SELECT mt.monitor_id, t.name, mt.value FROM monitor_tag mt JOIN tag t ON t.id = mt.tag_id ORDER BY mt.id',
    );
    const links = all<{ monitor_id: number; notification_id: number }>(
      'SELECT monitor_id, notification_id FROM monitor_notification ORDER BY id',
    );
    const monitors = all<Record<string, unknown>>('SELECT * FROM monitor ORDER BY id').map((r) => ({
      ...monitorOf(r),
      tags: tagRows.filter((t) => t.monitor_id === r.id).map((t) => ({ name: t.name, value: t.value || null })),
      notificationIds: links.filter((l) => l.monitor_id === r.id).map((l) => l.notification_id),
    }));
    const notifications = all<Record<string, unknown>>('SELECT * FROM notification ORDER BY id').map((n) => {
      let config: Record<string, unknown> = {};
      try {
        config = JSON.parse(String(n.config ?? '{}')) as Record<string, unknown>;
      } catch {
        config = {};
      }
      return { id: Number(n.id), name: String(n.name ?? ''), active: bool(n.active), isDefault: bool(n.is_default), config };
    });
    const groups = all<{ id: number; name: string; status_page_id: number | null }>(
      'SELECT id, name, status_page_id FROM "group" ORDER BY weight, id',
    );
    const inGroup = all<{ group_id: number; monitor_id: number }>('SELECT group_id, monitor_id FROM monitor_group ORDER BY weight, id');
    const statusPages = all<Record<string, unknown>>('SELECT * FROM status_page ORDER BY id').map((p) => ({
      slug: String(p.slug),
      title: String(p.title ?? ''),
      description: str(p.description),
      footerText: has('status_page', 'footer_text') ? str(p.footer_text) : null,
      published: bool(p.published),
      hasPassword: Boolean(p.password),
      groups: groups
        .filter((g) => g.status_page_id === p.id)
        .map((g) => ({ name: g.name, monitorIds: inGroup.filter((x) => x.group_id === g.id).map((x) => x.monitor_id) })),
    }));
    const windowMonitors = all<{ maintenance_id: number; monitor_id: number }>(
      'SELECT maintenance_id, monitor_id FROM monitor_maintenance',
    );
    const maintenance = all<Record<string, unknown>>('SELECT * FROM maintenance ORDER BY id').map((w) => ({
      id: Number(w.id),
      title: String(w.title ?? ''),
      description: str(w.description),
      active: bool(w.active),
      strategy: String(w.strategy ?? ''),
      startDate: str(w.start_date),
      endDate: str(w.end_date),
      startTime: str(w.start_time),
      endTime: str(w.end_time),
      weekdays: jsonList<number>(w.weekdays).map(Number),
      daysOfMonth: jsonList<number | string>(w.days_of_month),
      cron: str(w.cron),
      duration: num(w.duration),
      timezone: str(w.timezone),
      monitorIds: windowMonitors.filter((x) => x.maintenance_id === w.id).map((x) => x.monitor_id),
    }));
    const skipped: KumaData['skipped'] = [];
    for (const p of tables.has('proxy') ? all<{ host: string }>('SELECT host FROM proxy') : [])
      skipped.push({ what: 'proxy', name: p.host, why: 'checks go out from our probes; there are no per-monitor proxies' });
    for (const h of tables.has('docker_host') ? all<{ name: string }>('SELECT name FROM docker_host') : [])
      skipped.push({ what: 'Docker host', name: h.name, why: 'our probes do not reach a Docker daemon' });
    for (const c of tables.has('status_page_cname') ? all<{ domain: string }>('SELECT domain FROM status_page_cname') : [])
      skipped.push({
        what: 'status page domain',
        name: c.domain,
        why: 'set custom domains in the console (Status page, Custom domain): they need DNS verification',
      });
    for (const i of tables.has('incident') ? all<{ title: string }>('SELECT title FROM incident') : [])
      skipped.push({ what: 'status page incident', name: i.title, why: 'past announcements are not imported' });
    const version = (db.prepare('SELECT MAX(name) AS last FROM knex_migrations').get() as { last: string | null }).last ?? '';
    return { source: 'database', version: `2.x (last migration ${version})`, monitors, notifications, statusPages, maintenance, skipped };
  } catch (e) {
    if (e instanceof KumaFileError) throw e;
    throw new KumaFileError(`${path} could not be read as an Uptime Kuma database: ${(e as Error).message}`);
  } finally {
    db.close();
  }
}
