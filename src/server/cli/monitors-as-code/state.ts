// What the server holds now, read through the management API, and that state written as a
// monitors-as-code file (`export`). Write-only secrets are never in an answer, so the file
// gets a ${ENV_VAR} reference in their place.
import { stringify } from 'yaml';
import { KINDS } from '../../engine/kinds/index.ts';
import { channelOf } from '../../notify/channels/index.ts';
import type { Api } from './api.ts';
import {
  COMMON_MONITOR_FIELDS,
  MONITOR_LINK_FIELDS,
  type ApiChannel,
  type ApiMonitor,
  type ApiPageSettings,
  type ApiWindow,
  type CodeFile,
  type MonitorSpec,
  type RemoteState,
} from './model.ts';

const PAGE = 200;

async function allMonitors(api: Api, archived: boolean): Promise<ApiMonitor[]> {
  const out: ApiMonitor[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.get<ApiMonitor[]>(
      `/api/v1/monitors?sort=created_at&order=asc&limit=${PAGE}&offset=${offset}&archived=${archived}`,
    );
    out.push(...page);
    if (page.length < PAGE) return out;
  }
}

export async function readRemote(api: Api): Promise<RemoteState & { archived: ApiMonitor[] }> {
  const [monitors, archived, windows, channels, page] = await Promise.all([
    allMonitors(api, false),
    allMonitors(api, true),
    api.get<ApiWindow[]>('/api/v1/maintenance-windows'),
    api.get<ApiChannel[]>('/api/v1/alert-channels'),
    api.get<ApiPageSettings>('/api/v1/status-page/settings'),
  ]);
  return { monitors, archived, windows: windows.filter((w) => w.state !== 'cancelled'), channels, page };
}

/** The ${ENV_VAR} an export writes for a secret: upper case letters, digits and underscores. */
export function secretReference(...parts: string[]): string {
  const name = ['STATUSWATCH', ...parts]
    .join('_')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `\${${name}}`;
}

function monitorSpec(m: ApiMonitor, names: (ids: string[]) => string[]): MonitorSpec {
  const spec: MonitorSpec = { name: m.name, type: m.type };
  for (const f of [...KINDS[m.type].fields, ...COMMON_MONITOR_FIELDS]) {
    const v = m[f];
    const empty =
      v === null ||
      v === undefined ||
      (Array.isArray(v) && v.length === 0 && f === 'parents') ||
      (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
    if (empty) continue;
    // Other monitors by name: ids differ between servers, names are what the file matches by.
    spec[f] = (MONITOR_LINK_FIELDS as readonly string[]).includes(f) && Array.isArray(v) ? names(v as string[]) : v;
  }
  // A stored password reads "(hidden)": the file names a variable to hold it instead.
  for (const f of KINDS[m.type].secretFields ?? []) if (spec[f] !== undefined) spec[f] = secretReference(m.name, f);
  if (m.is_paused) spec.paused = true;
  return spec;
}

function byStart(a: ApiWindow, b: ApiWindow) {
  return Date.parse(a.starts_at) - Date.parse(b.starts_at) || a.title.localeCompare(b.title);
}

export function toCodeFile(state: RemoteState): CodeFile {
  const nameOf = new Map(state.monitors.map((m) => [m.id, m.name]));
  const names = (ids: string[]) => ids.flatMap((id) => (nameOf.has(id) ? [nameOf.get(id)!] : []));
  const page = state.page;
  const listed = page.monitors.filter((m) => nameOf.has(m.id));
  const placement = (m: ApiPageSettings['monitors'][number]) =>
    m.public_name === null ? { monitor: m.name } : { monitor: m.name, public_name: m.public_name };
  return {
    version: 1,
    monitors: state.monitors.map((m) => monitorSpec(m, names)),
    maintenance: [...state.windows].sort(byStart).map((w) => ({
      title: w.title,
      ...(w.description === null ? {} : { description: w.description }),
      starts_at: w.starts_at,
      ends_at: w.ends_at,
      ...(w.recurrence === null ? {} : { recurrence: w.recurrence }),
      ...(w.monitor_ids.length === 0 ? {} : { monitors: names(w.monitor_ids) }),
    })),
    alert_channels: state.channels.map((c) => {
      const secrets = (channelOf(c.type)?.secretFields ?? []).filter((f) => f !== 'secret');
      return {
        name: c.name,
        type: c.type,
        config: { ...c.config, ...Object.fromEntries(secrets.map((f) => [f, secretReference(c.name, f)])) },
        events: c.events,
        ...(c.monitor_ids === null ? {} : { monitors: names(c.monitor_ids) }),
        min_severity: c.min_severity,
        enabled: c.enabled,
      };
    }),
    status_page: {
      access: {
        mode: page.access.mode,
        ...(page.access.has_password ? { password: secretReference('status_page_password') } : {}),
        ...(page.access.ip_allowlist.length > 0 ? { ip_allowlist: page.access.ip_allowlist } : {}),
      },
      ungrouped: listed.filter((m) => m.group_id === null).map(placement),
      groups: page.groups.map((g) => ({ name: g.name, monitors: listed.filter((m) => m.group_id === g.id).map(placement) })),
    },
  };
}

const SENSITIVE_HEADER = /authorization|cookie|token|secret|key|password/i;

/** Monitors whose request headers look like credentials: the API returns them to those who may
 *  change the monitor, so an export holds them; the CLI says so rather than hide a difference. */
export function credentialHeaders(file: CodeFile): string[] {
  return (file.monitors ?? []).flatMap((m) => [
    ...Object.keys((m.headers as Record<string, string> | undefined) ?? {})
      .filter((h) => SENSITIVE_HEADER.test(h))
      .map((h) => `monitor "${m.name}" header ${h}`),
    // gRPC metadata carries the same credentials (authorization) as headers do.
    ...Object.keys((m.grpc_metadata as Record<string, string> | undefined) ?? {})
      .filter((h) => SENSITIVE_HEADER.test(h))
      .map((h) => `monitor "${m.name}" metadata ${h}`),
    // api_flow steps: a credential written into a header rather than named as {{secrets.NAME}}.
    ...(Array.isArray(m.steps) ? (m.steps as { headers?: Record<string, string> }[]) : []).flatMap((step, i) =>
      Object.entries(step?.headers ?? {})
        .filter(([h, v]) => SENSITIVE_HEADER.test(h) && !/\{\{\s*secrets\./.test(String(v)))
        .map(([h]) => `monitor "${m.name}" step ${i + 1} header ${h}`),
    ),
  ]);
}

/** The file as `export` writes it, with the schema comment editors follow. Written with YAML
 *  1.1's scalar rules, which quote every string a 1.1 reader would take for something else
 *  (timestamps, yes/no/on/off, sexagesimal numbers): PyYAML and ajv-cli (js-yaml) would read an
 *  unquoted `starts_at: 2027-01-10T02:00:00Z` as a timestamp, which the JSON Schema refuses. The
 *  quoted text means the same to a YAML 1.2 reader, so both kinds of tool read the same file. */
export function codeFileText(file: CodeFile, schemaRef: string): string {
  return `# yaml-language-server: $schema=${schemaRef}\n${stringify(file, { lineWidth: 0, version: '1.1' })}`;
}
