// Reading what an UptimeRobot account holds, from either file a user can get out of it, told apart
// by their first character:
//  - the API v2 answer of getMonitors (POST https://api.uptimerobot.com/v2/getMonitors with
//    alert_contacts=1 ...), `{"stat": "ok", "pagination": {...}, "monitors": [...]}`, its pages
//    back to back, optionally followed by the answer of getAlertContacts (which names the contacts);
//  - the dashboard's CSV export of monitors (a header row, then one monitor a row).
// Both become one model in UptimeRobot's own terms (the API's numeric codes); map.ts maps it.
import { readFileSync } from 'node:fs';
import { ImportFileError } from '../file-error.ts';
import { savedAnswers } from '../json-documents.ts';

/** A file the importer cannot read, with the reason in words (answered like every import file error: exit code 2). */
export class UptimeRobotFileError extends ImportFileError {}

export interface RobotContactLink {
  id: string;
  /** Present in getMonitors' alert_contacts (type code and value); a CSV names contacts only */
  type: number | null;
  value: string | null;
  threshold: number;
  recurrence: number;
}

export interface RobotMonitor {
  id: string;
  name: string;
  url: string;
  /** 1 HTTP(s), 2 keyword, 3 ping, 4 port, 5 heartbeat (later types are listed by number) */
  type: number;
  /** Port monitors: 1 HTTP (80), 2 HTTPS (443), 3 FTP (21), 4 SMTP (25), 5 POP3 (110), 6 IMAP (143), 99 custom */
  subType: number | null;
  port: number | null;
  /** 1: alert when the keyword exists, 2: alert when it does not */
  keywordType: number | null;
  /** 0 (the default): case-insensitive; 1: case-sensitive */
  keywordCaseType: number;
  keywordValue: string | null;
  /** Seconds */
  interval: number;
  /** Seconds; null when not given */
  timeout: number | null;
  /** 0 paused, 1 not checked yet, 2 up, 8 seems down, 9 down */
  status: number;
  /** 1 HEAD, 2 GET, 3 POST, 4 PUT, 5 PATCH, 6 DELETE, 7 OPTIONS */
  httpMethod: number | null;
  httpUsername: string | null;
  httpPassword: string | null;
  /** 1 basic, 2 digest */
  httpAuthType: number | null;
  postValue: string | null;
  headers: Record<string, string>;
  /** Status codes UptimeRobot counts as up (":1") or down (":0") beyond its default */
  statusesUp: string[];
  statusesDown: string[];
  contacts: RobotContactLink[];
}

export interface RobotContact {
  id: string;
  name: string;
  type: number;
  value: string;
  /** 0 not activated, 1 paused, 2 active */
  status: number;
}

export interface RobotData {
  source: 'api' | 'csv';
  monitors: RobotMonitor[];
  /** From a getAlertContacts answer in the same file (names and values of the contacts) */
  contacts: RobotContact[];
}

export function readUptimeRobot(path: string): RobotData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (e) {
    throw new UptimeRobotFileError(`Cannot read ${path}: ${(e as Error).message}`);
  }
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') return readApi(text, path);
  return readCsv(text, path);
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));
const str = (v: unknown): string | null => (v === null || v === undefined || String(v).trim() === '' ? null : String(v).trim());

/** custom_http_statuses: "404:0_200:1" (newMonitor's form, also answered by getMonitors) or {up: [...], down: [...]}. */
function statuses(v: unknown): { up: string[]; down: string[] } {
  const out = { up: [] as string[], down: [] as string[] };
  if (typeof v === 'string')
    for (const part of v.split('_')) {
      const [code, state] = part.split(':');
      if (code && /^\d{3}$/.test(code.trim())) (state?.trim() === '1' ? out.up : out.down).push(code.trim());
    }
  else if (v && typeof v === 'object') {
    const o = v as { up?: unknown; down?: unknown };
    if (Array.isArray(o.up)) out.up.push(...o.up.map(String));
    if (Array.isArray(o.down)) out.down.push(...o.down.map(String));
  }
  return out;
}

function monitorOf(r: Record<string, unknown>): RobotMonitor {
  const s = statuses(r.custom_http_statuses);
  const headers: Record<string, string> = {};
  if (r.custom_http_headers && typeof r.custom_http_headers === 'object' && !Array.isArray(r.custom_http_headers))
    for (const [k, v] of Object.entries(r.custom_http_headers)) headers[k] = String(v);
  const post = r.post_value;
  return {
    id: String(r.id),
    name: String(r.friendly_name ?? ''),
    url: String(r.url ?? ''),
    type: Number(r.type),
    subType: num(r.sub_type),
    port: num(r.port),
    keywordType: num(r.keyword_type),
    keywordCaseType: num(r.keyword_case_type) ?? 0,
    keywordValue: str(r.keyword_value),
    interval: num(r.interval) ?? 300,
    timeout: num(r.timeout),
    status: num(r.status) ?? 1,
    httpMethod: num(r.http_method),
    httpUsername: str(r.http_username),
    httpPassword: str(r.http_password),
    httpAuthType: num(r.http_auth_type),
    postValue: post && typeof post === 'object' ? JSON.stringify(post) : str(post),
    headers,
    statusesUp: s.up,
    statusesDown: s.down,
    contacts: (Array.isArray(r.alert_contacts) ? (r.alert_contacts as Record<string, unknown>[]) : []).map((c) => ({
      id: String(c.id),
      type: num(c.type),
      value: str(c.value),
      threshold: num(c.threshold) ?? 0,
      recurrence: num(c.recurrence) ?? 0,
    })),
  };
}

function readApi(text: string, path: string): RobotData {
  let docs: unknown[];
  try {
    docs = savedAnswers(text);
  } catch (e) {
    throw new UptimeRobotFileError(`${path} starts like JSON but is not JSON (${(e as Error).message}).`);
  }
  const monitors: RobotMonitor[] = [];
  const contacts: RobotContact[] = [];
  const seen = new Set<string>();
  for (const [n, doc] of docs.entries()) {
    const d = doc as { stat?: unknown; error?: unknown; monitors?: unknown; alert_contacts?: unknown };
    if (d && typeof d === 'object' && d.stat === 'fail')
      throw new UptimeRobotFileError(
        `${path} holds UptimeRobot's refusal (answer ${n + 1}: ${JSON.stringify(d.error ?? {}).slice(0, 200)}): check the API key and save the answer again.`,
      );
    if (!d || typeof d !== 'object' || Array.isArray(d) || (!Array.isArray(d.monitors) && !Array.isArray(d.alert_contacts)))
      throw new UptimeRobotFileError(
        `${path} is JSON but not an UptimeRobot API answer: getMonitors answers {"stat": "ok", "monitors": [...]} (answer ${n + 1} has no "monitors" list).`,
      );
    for (const m of Array.isArray(d.monitors) ? (d.monitors as Record<string, unknown>[]) : []) {
      if (!m || typeof m !== 'object' || m.friendly_name === undefined || m.type === undefined)
        throw new UptimeRobotFileError(`${path}: a monitor of answer ${n + 1} has no "friendly_name" or "type".`);
      // A page saved twice must not double a monitor.
      if (seen.has(String(m.id))) continue;
      seen.add(String(m.id));
      monitors.push(monitorOf(m));
    }
    for (const c of Array.isArray(d.alert_contacts) ? (d.alert_contacts as Record<string, unknown>[]) : [])
      contacts.push({
        id: String(c.id),
        name: String(c.friendly_name ?? ''),
        type: Number(c.type),
        value: String(c.value ?? ''),
        status: num(c.status) ?? 2,
      });
  }
  if (monitors.length === 0 && contacts.length > 0)
    throw new UptimeRobotFileError(
      `${path} holds alert contacts but no monitors: save getMonitors' answer in the file (the contacts' answer may follow it).`,
    );
  return { source: 'api', monitors, contacts };
}

/** RFC 4180 rows: quoted fields may hold the separator, doubled quotes and line breaks. */
function csvRows(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f.trim())) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim())) rows.push(row);
  return rows;
}

/** The CSV's column names (spaces, case and punctuation aside) for each field read. */
const COLUMNS = {
  name: ['friendlyname', 'name', 'monitorname'],
  url: ['url', 'urlip', 'host', 'urlorip'],
  type: ['type', 'monitortype'],
  subType: ['subtype'],
  port: ['port'],
  keywordType: ['keywordtype', 'alertwhen'],
  keywordValue: ['keywordvalue', 'keyword'],
  interval: ['interval', 'monitoringinterval', 'checkinterval'],
  status: ['status'],
  id: ['id', 'monitorid'],
} as const;

/** The dashboard's words for a monitor type, and the API's numbers, to the API's numbers. */
function typeCode(v: string): number {
  const t = v.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  if (t.startsWith('http')) return 1;
  if (t.startsWith('keyword')) return 2;
  if (t.startsWith('ping')) return 3;
  if (t.startsWith('port')) return 4;
  if (t.startsWith('heartbeat') || t.startsWith('cron')) return 5;
  return -1;
}

/** "300", "5 min", "1 hour", "30 s": seconds (a bare number is seconds, as in the API). */
function seconds(v: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?\s*$/i.exec(v);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  return Math.round(unit.startsWith('h') ? n * 3600 : unit.startsWith('m') ? n * 60 : n);
}

function readCsv(text: string, path: string): RobotData {
  // A spreadsheet saved in a comma-decimal locale separates with ";": the header row tells.
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const separator = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const rows = csvRows(text, separator);
  const header = (rows[0] ?? []).map((h) => h.toLowerCase().replace(/[^a-z0-9]/g, ''));
  const col = (names: readonly string[]) => header.findIndex((h) => names.includes(h));
  const at = Object.fromEntries(Object.entries(COLUMNS).map(([k, names]) => [k, col(names)])) as Record<keyof typeof COLUMNS, number>;
  if (at.name < 0 || at.url < 0 || at.type < 0)
    throw new UptimeRobotFileError(
      `${path} is neither UptimeRobot's API answer (JSON) nor its CSV export of monitors: a CSV needs the columns "Friendly Name", "URL" and "Type" in its first row.`,
    );
  const monitors: RobotMonitor[] = rows.slice(1).map((r, i) => {
    const cell = (k: keyof typeof COLUMNS) => (at[k] >= 0 ? (r[at[k]] ?? '').trim() : '');
    const kt = cell('keywordType').toLowerCase();
    return {
      id: cell('id') || `row ${i + 2}`,
      name: cell('name'),
      url: cell('url'),
      type: typeCode(cell('type')),
      subType: num(cell('subType')),
      port: num(cell('port')),
      // "exists" alerts when the keyword is there; "not exists" when it is missing (as the API's 1 and 2).
      keywordType: /^\d$/.test(kt) ? Number(kt) : kt.includes('not') ? 2 : kt ? 1 : null,
      keywordCaseType: 0,
      keywordValue: cell('keywordValue') || null,
      interval: seconds(cell('interval')) ?? 300,
      timeout: null,
      status: /pause/i.test(cell('status')) || cell('status') === '0' ? 0 : 2,
      httpMethod: null,
      httpUsername: null,
      httpPassword: null,
      httpAuthType: null,
      postValue: null,
      headers: {},
      statusesUp: [],
      statusesDown: [],
      contacts: [],
    };
  });
  if (monitors.length === 0) throw new UptimeRobotFileError(`${path} has a header row but no monitors.`);
  return { source: 'csv', monitors, contacts: [] };
}
