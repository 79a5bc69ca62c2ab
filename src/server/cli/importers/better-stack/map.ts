// Better Stack Uptime's monitors, heartbeats, monitor groups and status page as a monitors-as-code
// file, with everything that has no equivalent here listed with the reason. Names are kept (a
// monitor's pronounceable_name, a heartbeat's name), so importing twice changes nothing.
import { MAIL_PORTS } from '../../../../lib/monitor-kinds.ts';
import type { Api } from '../../monitors-as-code/api.ts';
import type { CodeFile, MonitorSpec, Placement } from '../../monitors-as-code/model.ts';
import type { Mapped, NotImported } from '../uptime-kuma/map.ts';
import type { BetterStackData, JsonApiItem } from './read.ts';

/** Mapped, plus each monitor's Better Stack regions: they become `locations` only where a location of that slug exists (refine). */
export interface BetterStackMapped extends Mapped {
  regions: Map<string, string[]>;
}

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(n)));
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

/** Better Stack's types we have no kind for, with the reason the user reads. */
const NO_KIND: Record<string, string> = {
  playwright: 'a Playwright script is not run here: write the journey as a browser monitor (steps)',
};

/** Types whose request_timeout is in milliseconds (Better Stack's server and port monitors); the others' is in seconds. */
const TIMEOUT_IN_MS = new Set(['ping', 'tcp', 'udp', 'smtp', 'pop', 'imap', 'dns']);

/** The host of a Better Stack `url` (server monitors take a host name or address; some carry a scheme). */
function hostOf(url: string): string {
  try {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return new URL(url).hostname;
  } catch {
    // not a URL: the host itself
  }
  return url.replace(/\/.*$/, '');
}

function common(a: Record<string, unknown>, type: string): Record<string, unknown> {
  const frequency = num(a.check_frequency) ?? 180;
  const out: Record<string, unknown> = { interval_seconds: clamp(frequency, 1, 86400) };
  const timeout = num(a.request_timeout);
  if (timeout && timeout > 0) out.timeout_seconds = clamp(TIMEOUT_IN_MS.has(type) ? Math.ceil(timeout / 1000) : timeout, 1, 120);
  // Better Stack waits confirmation_period seconds after the first failure before an incident:
  // with a check every `frequency` seconds, that is this many more failed checks in a row.
  const confirm = num(a.confirmation_period) ?? 0;
  out.confirmations = clamp(1 + Math.floor(confirm / Math.max(1, frequency)), 1, 10);
  if (a.paused === true) out.paused = true;
  return out;
}

function httpFields(a: Record<string, unknown>, partial: (why: string) => void, secrets: Set<string>): Record<string, unknown> | string {
  const url = str(a.url);
  if (!url) return 'no URL';
  const out: Record<string, unknown> = { url, method: (str(a.http_method) ?? 'GET').toUpperCase() };
  const headers: Record<string, string> = {};
  for (const h of Array.isArray(a.request_headers) ? (a.request_headers as Record<string, unknown>[]) : []) {
    const name = str(h?.name);
    if (name) headers[name] = String(h.value ?? '');
  }
  const user = str(a.auth_username);
  if (user) headers.Authorization = `Basic ${Buffer.from(`${user}:${String(a.auth_password ?? '')}`).toString('base64')}`;
  if (Object.keys(headers).length > 0) out.headers = headers;
  for (const [k, v] of Object.entries(headers)) if (/^(authorization|cookie|x-api-key|api-key|x-auth-token)$/i.test(k)) secrets.add(v);
  if (typeof a.auth_password === 'string' && a.auth_password) secrets.add(a.auth_password);
  const body = str(a.request_body);
  if (body) out.body = body;
  out.follow_redirects = a.follow_redirects !== false;
  if (a.verify_ssl === false) partial('"verify SSL" off: not available here, a certificate error fails the check');
  return out;
}

/** The monitor in our terms, or the reason it cannot be imported. */
function monitorOf(name: string, a: Record<string, unknown>, partial: (why: string) => void, secrets: Set<string>): MonitorSpec | string {
  const type = String(a.monitor_type ?? '');
  const base = { name, ...common(a, type) };
  const host = str(a.url) ? hostOf(str(a.url) as string) : null;
  const ports = String(a.port ?? '')
    .split(',')
    .map((p) => Number(p.trim()))
    .filter((p) => Number.isInteger(p) && p > 0);
  const onePort = (kind: string): number | string => {
    if (ports.length === 0) return `no port for the ${kind} check`;
    if (ports.length > 1)
      partial(`ports ${ports.slice(1).join(', ')}: a monitor here checks one port (${ports[0]}); add a monitor per other port`);
    return ports[0] as number;
  };
  switch (type) {
    case 'status':
    case 'expected_status_code':
    case 'keyword':
    case 'keyword_absence': {
      const f = httpFields(a, partial, secrets);
      if (typeof f === 'string') return f;
      if (type === 'expected_status_code') {
        const codes = Array.isArray(a.expected_status_codes) ? (a.expected_status_codes as unknown[]).map(String) : [];
        if (codes.length === 0) return 'expected status code monitor without expected codes';
        f.accepted_status_codes = codes;
      } else f.accepted_status_codes = ['200-299'];
      if (type === 'keyword' || type === 'keyword_absence') {
        const keyword = str(a.required_keyword);
        if (!keyword) return 'keyword monitor without a keyword';
        Object.assign(f, { keyword, keyword_mode: type === 'keyword' ? 'present' : 'absent' });
      }
      return { ...base, type: 'http', ...f } as MonitorSpec;
    }
    case 'ping':
      return host ? ({ ...base, type: 'ping', host } as MonitorSpec) : 'no host';
    case 'tcp': {
      const port = onePort('TCP');
      if (typeof port === 'string') return port;
      return host ? ({ ...base, type: 'tcp', host, port } as MonitorSpec) : 'no host';
    }
    case 'udp': {
      const port = onePort('UDP');
      if (typeof port === 'string') return port;
      if (!host) return 'no host';
      const out: Record<string, unknown> = { ...base, type: 'udp', host, port };
      if (str(a.request_body)) out.udp_payload = str(a.request_body);
      if (str(a.required_keyword)) out.udp_expect = str(a.required_keyword);
      return out as MonitorSpec;
    }
    case 'smtp':
    case 'pop':
    case 'imap': {
      const kind = type === 'pop' ? 'pop3' : type;
      const port = onePort(type.toUpperCase());
      if (typeof port === 'string') return port;
      if (!host) return 'no host';
      // The encryption each standard port implies (465/993/995 TLS from the start, 587 STARTTLS, 25/110/143 plain first).
      const modes = MAIL_PORTS[kind as keyof typeof MAIL_PORTS];
      const mail_tls = port === modes.implicit ? 'implicit' : port === 587 ? 'starttls' : port === modes.none ? 'none' : 'starttls';
      return { ...base, type: kind, host, port, mail_tls } as MonitorSpec;
    }
    case 'dns': {
      // Better Stack asks the DNS server in `url` for the domain in request_body: our dns monitor
      // resolves `host` through `resolver`.
      const domain = str(a.request_body);
      if (!domain || !host) return 'no DNS server or no domain to ask for';
      return { ...base, type: 'dns', host: domain, record_type: 'A', resolver: host } as MonitorSpec;
    }
    default:
      return NO_KIND[type] ?? `no "${type || '(none)'}" monitor kind here`;
  }
}

/** Settings of a monitor we do not carry, each listed once under its name. */
function leftBehind(a: Record<string, unknown>, partial: (why: string) => void) {
  if (num(a.ssl_expiration))
    partial(`certificate expiry alert (${num(a.ssl_expiration)} days before): add an ssl monitor for the host here`);
  if (num(a.domain_expiration)) partial(`domain expiry alert (${num(a.domain_expiration)} days before): add a domain monitor here`);
  if (str(a.maintenance_from) && str(a.maintenance_to))
    partial(
      `its daily maintenance window (${str(a.maintenance_from)} to ${str(a.maintenance_to)}): create a recurring maintenance window here`,
    );
  if (str(a.ip_version)) partial(`checks over ${str(a.ip_version)} only: our probes use the address the host name resolves to`);
}

export function mapBetterStack(data: BetterStackData): BetterStackMapped {
  const notImported: NotImported[] = [];
  const secrets = new Set<string>();
  const regions = new Map<string, string[]>();
  const monitors: MonitorSpec[] = [];
  const names = new Set<string>();
  /** Better Stack resource ("Monitor:123", "Heartbeat:7") to our monitor name. */
  const imported = new Map<string, string>();

  const add = (key: string, name: string, spec: MonitorSpec) => {
    names.add(name);
    imported.set(key, name);
    monitors.push(spec);
  };
  for (const m of data.monitors) {
    const a = m.attributes;
    const name = str(a.pronounceable_name) ?? str(a.url) ?? `Monitor ${m.id}`;
    const skip = (why: string) => notImported.push({ what: 'monitor', name, why });
    if (names.has(name)) {
      skip('another monitor has the same name (monitors are matched by name; rename one in Better Stack)');
      continue;
    }
    const held: string[] = [];
    const spec = monitorOf(name, a, (why) => held.push(why), secrets);
    if (typeof spec === 'string') {
      skip(spec);
      continue;
    }
    leftBehind(a, (why) => held.push(why));
    for (const why of held) notImported.push({ what: 'monitor setting', name, why });
    const r = Array.isArray(a.regions) ? (a.regions as unknown[]).map(String) : [];
    if (r.length > 0) regions.set(name, r);
    add(`Monitor:${m.id}`, name, spec);
  }

  for (const h of data.heartbeats) {
    const a = h.attributes;
    const name = str(a.name) ?? `Heartbeat ${h.id}`;
    if (names.has(name)) {
      notImported.push({ what: 'heartbeat', name, why: 'a monitor already has its name' });
      continue;
    }
    const period = num(a.period) ?? 3600;
    const grace = num(a.grace) ?? 0;
    const spec: Record<string, unknown> = { name, type: 'push', interval_seconds: clamp(period, 1, 86400) };
    // The grace period is the time-out of a push monitor here (late by more than it: down).
    if (grace > 0) spec.timeout_seconds = clamp(grace, 1, 120);
    if (grace > 120) notImported.push({ what: 'monitor setting', name, why: `grace period ${grace} s: at most 120 s here` });
    if (a.paused === true) spec.paused = true;
    notImported.push({
      what: 'monitor setting',
      name,
      why: 'its heartbeat URL: the monitor gets a new push URL (printed once when it is created); update the sender',
    });
    if (str(a.url)) secrets.add(str(a.url) as string);
    add(`Heartbeat:${h.id}`, name, spec as MonitorSpec);
  }

  // Monitor groups become group monitors with the imported members as children.
  for (const g of data.monitorGroups) {
    const name = str(g.attributes.name) ?? `Monitor group ${g.id}`;
    const children = data.monitors
      .filter((m) => String(m.attributes.monitor_group_id ?? '') === g.id && imported.has(`Monitor:${m.id}`))
      .map((m) => imported.get(`Monitor:${m.id}`) as string);
    if (children.length === 0) {
      notImported.push({ what: 'monitor group', name, why: 'none of its monitors is imported (a group here needs one)' });
      continue;
    }
    const groupName = names.has(name) ? `${name} (group)` : name;
    if (names.has(groupName)) {
      notImported.push({ what: 'monitor group', name, why: 'a monitor already has its name' });
      continue;
    }
    const spec = { name: groupName, type: 'group', children, group_rule: 'any' } as MonitorSpec;
    if (g.attributes.paused === true) spec.paused = true;
    add(`MonitorGroup:${g.id}`, groupName, spec);
  }

  const file: CodeFile = { version: 1, monitors, alert_channels: [] };
  mapStatusPage(data, imported, monitors, file, notImported);
  if (data.monitors.some((m) => m.attributes.policy_id || m.attributes.email || m.attributes.sms || m.attributes.call))
    notImported.push({
      what: 'alerting',
      name: 'escalation policies, e-mail, SMS, call and push alerts',
      why: 'Better Stack alerts people and integrations its API does not export with the monitors: add alert channels here',
    });
  return { file, notImported, secrets, regions };
}

function mapStatusPage(
  data: BetterStackData,
  imported: Map<string, string>,
  monitors: MonitorSpec[],
  file: CodeFile,
  notImported: NotImported[],
) {
  const [page, ...others] = data.statusPages;
  const title = (p: JsonApiItem) => str(p.attributes.company_name) ?? str(p.attributes.subdomain) ?? `Status page ${p.id}`;
  for (const p of others)
    notImported.push({
      what: 'status page',
      name: title(p),
      why: `a company has one status page here: "${page ? title(page) : ''}" (the first) is imported`,
    });
  if (!page) return;
  const sections = data.sections
    .filter((s) => String(s.attributes.status_page_id ?? page.id) === page.id)
    .sort((x, y) => (num(x.attributes.position) ?? 0) - (num(y.attributes.position) ?? 0));
  const sectionIds = new Set(sections.map((s) => s.id));
  const resources = data.resources
    .filter((r) => sectionIds.has(String(r.attributes.status_page_section_id ?? '')))
    .sort((x, y) => (num(x.attributes.position) ?? 0) - (num(y.attributes.position) ?? 0));
  const placed = new Set<string>();
  const groups: { name: string; monitors: Placement[] }[] = [];
  for (const s of sections) {
    const list: Placement[] = [];
    for (const r of resources.filter((x) => String(x.attributes.status_page_section_id) === s.id)) {
      const kind = String(r.attributes.resource_type ?? '');
      const label = str(r.attributes.public_name) ?? `${kind} ${String(r.attributes.resource_id ?? '')}`;
      const monitor = imported.get(`${kind}:${String(r.attributes.resource_id ?? '')}`);
      if (!monitor) {
        const why = ['Monitor', 'Heartbeat', 'MonitorGroup'].includes(kind)
          ? 'its monitor is not imported'
          : `a "${kind}" item has no equivalent here (the page lists monitors)`;
        notImported.push({ what: 'status page item', name: label, why });
        continue;
      }
      if (placed.has(monitor)) continue;
      placed.add(monitor);
      const publicName = str(r.attributes.public_name);
      list.push(publicName && publicName !== monitor ? { monitor, public_name: publicName } : { monitor });
    }
    // Better Stack's nameless first section shows its items without a heading: a group here needs a name.
    const name = str(s.attributes.name) ?? 'Services';
    if (list.length > 0 && !groups.some((g) => g.name === name)) groups.push({ name, monitors: list });
  }
  file.status_page = { groups };
  for (const g of groups)
    for (const p of g.monitors) {
      const spec = monitors.find((m) => m.name === p.monitor);
      if (spec && spec.type !== 'group') spec.is_public = true;
    }
  const a = page.attributes;
  if (str(a.custom_domain))
    notImported.push({
      what: 'status page setting',
      name: `custom domain: ${str(a.custom_domain)}`,
      why: 'set custom domains in the console (Status page, Custom domain): they need DNS verification',
    });
  if (a.password_enabled === true)
    notImported.push({
      what: 'status page setting',
      name: 'password',
      why: "Better Stack's API does not give the password out: set a page password in the console",
    });
  if (str(a.company_name))
    notImported.push({
      what: 'status page setting',
      name: `company name: ${str(a.company_name)}`,
      why: "the page shows your company's name as set here",
    });
}

/**
 * Regions to locations: a Better Stack region (us, eu, as, au) becomes a location of this monitor
 * only where the company sees a probe location of that slug; the rest are listed. Needs the API.
 */
export async function refineBetterStack(mapped: BetterStackMapped, api: Api): Promise<void> {
  if (mapped.regions.size === 0) return;
  let slugs = new Set<string>();
  try {
    const locations = await api.get<{ slug: string }[]>('/api/v1/probe-locations');
    slugs = new Set(locations.map((l) => l.slug));
  } catch {
    // Not readable with this token: no region matches, each is listed.
  }
  for (const m of mapped.file.monitors ?? []) {
    const r = mapped.regions.get(m.name);
    if (!r) continue;
    const known = r.filter((x) => slugs.has(x));
    const unknown = r.filter((x) => !slugs.has(x));
    if (known.length > 0) m.locations = known;
    if (unknown.length > 0)
      mapped.notImported.push({
        what: 'monitor setting',
        name: m.name,
        why: `region${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}: no probe location of that name here (checks run from ${known.length > 0 ? known.join(', ') : 'the company default locations'})`,
      });
  }
}
