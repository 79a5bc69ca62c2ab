// UptimeRobot's monitors and alert contacts as a monitors-as-code file, with everything that has
// no equivalent here listed with the reason. Names are kept (a monitor's friendly name; a
// contact's friendly name when the file holds getAlertContacts' answer), so importing twice
// changes nothing.
import type { ChannelSpec, CodeFile, MonitorSpec } from '../../monitors-as-code/model.ts';
import type { Mapped, NotImported } from '../uptime-kuma/map.ts';
import type { RobotContact, RobotData, RobotMonitor } from './read.ts';

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(n)));

const METHODS: Record<number, string> = { 1: 'HEAD', 2: 'GET', 3: 'POST', 4: 'PUT', 5: 'PATCH', 6: 'DELETE', 7: 'OPTIONS' };
/** Port monitors' predefined services (sub_type) and their ports; 99 is a custom port. */
const SUB_TYPE_PORTS: Record<number, number> = { 1: 80, 2: 443, 3: 21, 4: 25, 5: 110, 6: 143 };

/** Alert contact types (the API's codes) by what they are called, and what we do with them. */
const CONTACT_TYPES: Record<number, { label: string; channel?: (value: string) => { type: string; config: Record<string, unknown> } }> = {
  1: { label: 'SMS' },
  2: { label: 'E-mail', channel: (v) => ({ type: 'email', config: { to: v.split(/[,;\s]+/).filter(Boolean) } }) },
  3: { label: 'Twitter' },
  4: { label: 'Boxcar' },
  5: { label: 'Webhook', channel: (v) => ({ type: 'webhook', config: { url: v.replace(/[?&]$/, '') } }) },
  6: { label: 'Pushbullet' },
  7: { label: 'Zapier' },
  8: { label: 'Pro SMS' },
  9: { label: 'Pushover' },
  10: { label: 'HipChat' },
  11: { label: 'Slack', channel: (v) => ({ type: 'slack', config: { url: v } }) },
  14: { label: 'Voice call' },
  15: { label: 'Splunk On-Call' },
  16: { label: 'PagerDuty', channel: (v) => ({ type: 'pagerduty', config: { routing_key: v } }) },
  17: { label: 'Opsgenie', channel: (v) => ({ type: 'opsgenie', config: { api_key: v } }) },
  18: { label: 'Telegram' },
  20: { label: 'Microsoft Teams', channel: (v) => ({ type: 'teams', config: { url: v } }) },
  21: { label: 'Google Chat', channel: (v) => ({ type: 'google-chat', config: { url: v } }) },
  23: { label: 'Discord', channel: (v) => ({ type: 'discord', config: { url: v } }) },
};

/** Why a contact type we have no channel for is left (the reason the user reads). */
const NO_CHANNEL: Record<number, string> = {
  1: "text messages go out through UptimeRobot's own SMS account: set up an SMS channel (Twilio) here",
  8: "text messages go out through UptimeRobot's own SMS account: set up an SMS channel (Twilio) here",
  14: "calls go out through UptimeRobot's own account: not available here",
  9: "the export holds only your Pushover user key; the application token is UptimeRobot's: add a Pushover channel with your own application",
  18: "UptimeRobot's own Telegram bot sends these: add a Telegram channel with your bot's token",
  15: 'the export holds no Splunk On-Call routing key in our form: add a Splunk On-Call channel here',
};

const escapeRegex = (s: string) => s.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

function common(m: RobotMonitor): Record<string, unknown> {
  const out: Record<string, unknown> = { interval_seconds: clamp(m.interval || 300, 1, 86400) };
  if (m.timeout && m.timeout > 0 && m.type !== 5) out.timeout_seconds = clamp(m.timeout, 1, 120);
  if (m.status === 0) out.paused = true;
  return out;
}

function httpFields(m: RobotMonitor, partial: (why: string) => void, secrets: Set<string>): Record<string, unknown> | string {
  if (!/^https?:\/\//i.test(m.url)) return `"${m.url}" is not an http(s) URL`;
  const method = m.httpMethod === null ? 'GET' : METHODS[m.httpMethod];
  if (!method) return `HTTP method ${m.httpMethod} is not known`;
  const out: Record<string, unknown> = { url: m.url, method };
  const headers = { ...m.headers };
  if (m.httpUsername && m.httpAuthType === 2)
    partial('digest authentication: only basic authentication (as an Authorization header) is imported');
  else if (m.httpUsername) headers.Authorization = `Basic ${Buffer.from(`${m.httpUsername}:${m.httpPassword ?? ''}`).toString('base64')}`;
  if (m.httpPassword) secrets.add(m.httpPassword);
  if (Object.keys(headers).length > 0) out.headers = headers;
  for (const [k, v] of Object.entries(headers)) if (/^(authorization|cookie|x-api-key|api-key|x-auth-token)$/i.test(k)) secrets.add(v);
  if (m.postValue && method !== 'GET' && method !== 'HEAD') out.body = m.postValue;
  // UptimeRobot counts 2xx (after redirects) as up, plus the codes marked up; codes marked down
  // outside 2xx are down here anyway.
  out.accepted_status_codes = ['200-299', ...m.statusesUp.filter((c) => !/^2\d\d$/.test(c))];
  const downIn2xx = m.statusesDown.filter((c) => /^2\d\d$/.test(c));
  if (downIn2xx.length > 0) partial(`status ${downIn2xx.join(', ')} counted as down: every 2xx counts as up here`);
  out.follow_redirects = true;
  return out;
}

/** The monitor in our terms, or the reason it cannot be imported. */
function monitorOf(m: RobotMonitor, partial: (why: string) => void, secrets: Set<string>): MonitorSpec | string {
  const base = { name: m.name, ...common(m) };
  const host = m.url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[/:].*$/, '');
  switch (m.type) {
    case 1:
    case 2: {
      const f = httpFields(m, partial, secrets);
      if (typeof f === 'string') return f;
      if (m.type === 2) {
        if (!m.keywordValue) return 'keyword monitor without a keyword';
        // keyword_type 1 alerts when the keyword is there (up while it is absent); 2 when it is missing.
        f.keyword_mode = m.keywordType === 1 ? 'absent' : 'present';
        if (m.keywordCaseType === 1) f.keyword = m.keywordValue;
        else Object.assign(f, { keyword: `(?i)${escapeRegex(m.keywordValue)}`, keyword_regex: true });
      }
      return { ...base, type: 'http', ...f } as MonitorSpec;
    }
    case 3:
      return host ? ({ ...base, type: 'ping', host } as MonitorSpec) : 'no host';
    case 4: {
      const port = m.subType !== null && m.subType !== 99 ? SUB_TYPE_PORTS[m.subType] : m.port;
      if (!host) return 'no host';
      if (!port) return `port monitor without a port (sub type ${m.subType ?? '(none)'})`;
      return { ...base, type: 'tcp', host, port } as MonitorSpec;
    }
    case 5:
      return { ...base, type: 'push' } as MonitorSpec;
    case -1:
      return 'its type is not one of HTTP(s), Keyword, Ping, Port, Heartbeat';
    default:
      return `monitor type ${m.type}: no equivalent imported (HTTP, keyword, ping, port and heartbeat monitors are)`;
  }
}

export function mapUptimeRobot(data: RobotData): Mapped {
  const notImported: NotImported[] = [];
  const secrets = new Set<string>();
  const monitors: MonitorSpec[] = [];
  const imported = new Map<string, string>();
  for (const m of data.monitors) {
    const name = m.name || m.url || `Monitor ${m.id}`;
    const skip = (why: string) => notImported.push({ what: 'monitor', name, why });
    if ([...imported.values()].includes(name)) {
      skip('another monitor has the same name (monitors are matched by name; rename one in UptimeRobot)');
      continue;
    }
    const held: string[] = [];
    const spec = monitorOf({ ...m, name }, (why) => held.push(why), secrets);
    if (typeof spec === 'string') {
      skip(spec);
      continue;
    }
    for (const why of held) notImported.push({ what: 'monitor setting', name, why });
    if (m.type === 5)
      notImported.push({
        what: 'monitor setting',
        name,
        why: 'its heartbeat URL: the monitor gets a new push URL (printed once when it is created); update the sender',
      });
    imported.set(m.id, name);
    monitors.push(spec);
  }

  const channels = data.source === 'api' ? channelsOf(data, imported, notImported, secrets) : [];
  if (data.source === 'csv')
    notImported.push({
      what: 'alert contacts',
      name: '(all)',
      why: "the CSV export does not hold them: import the API's getMonitors answer (docs/features/importers.md) to bring them",
    });
  const file: CodeFile = { version: 1, monitors, alert_channels: channels };
  return { file, notImported, secrets };
}

function channelsOf(data: RobotData, imported: Map<string, string>, notImported: NotImported[], secrets: Set<string>): ChannelSpec[] {
  const named = new Map<string, RobotContact>(data.contacts.map((c) => [c.id, c]));
  // Every contact the monitors link, with the monitors linking it (the links carry type and value).
  const links = new Map<string, { type: number | null; value: string | null; monitors: string[] }>();
  for (const m of data.monitors)
    for (const l of m.contacts) {
      const entry = links.get(l.id) ?? { type: l.type, value: l.value, monitors: [] };
      const name = imported.get(m.id);
      if (name && !entry.monitors.includes(name)) entry.monitors.push(name);
      links.set(l.id, entry);
      if (l.threshold > 0 || l.recurrence > 0)
        notImported.push({
          what: 'alert channel setting',
          name: `${m.name}: contact ${named.get(l.id)?.name ?? l.id}`,
          why: `its delay (${l.threshold} min) and repeat (${l.recurrence} min): alerts here go out when the monitor changes state`,
        });
    }
  for (const c of data.contacts) if (!links.has(c.id)) links.set(c.id, { type: c.type, value: c.value, monitors: [] });
  const channels: ChannelSpec[] = [];
  const names = new Set<string>();
  for (const [id, link] of links) {
    const contact = named.get(id);
    const type = contact?.type ?? link.type;
    const value = contact?.value || link.value;
    const known = type === null ? undefined : CONTACT_TYPES[type];
    const label = known?.label ?? `type ${type ?? '(unknown)'}`;
    // Without getAlertContacts' answer a contact has no name: its kind and id stand in.
    const name = contact?.name || `${label} (UptimeRobot contact ${id})`;
    const skip = (why: string) => notImported.push({ what: 'alert channel', name, why });
    if (!known?.channel) {
      skip(type !== null && NO_CHANNEL[type] ? NO_CHANNEL[type] : `no ${label} channel type here`);
      continue;
    }
    if (!value) {
      skip('the file does not hold its address (save getMonitors with alert_contacts=1, or getAlertContacts)');
      continue;
    }
    if (names.has(name)) {
      skip('another contact has the same name');
      continue;
    }
    names.add(name);
    const mapped = known.channel(value);
    for (const [k, v] of Object.entries(mapped.config)) if (typeof v === 'string' && k !== 'server_url') secrets.add(v);
    if (contact && contact.status !== 2)
      notImported.push({
        what: 'alert channel setting',
        name,
        why: contact.status === 1 ? 'paused in UptimeRobot: imported disabled' : 'not activated in UptimeRobot: imported disabled',
      });
    channels.push({
      name,
      type: mapped.type,
      config: mapped.config,
      monitors: link.monitors,
      ...(contact && contact.status !== 2 ? { enabled: false } : {}),
    });
  }
  return channels;
}
