// Uptime Kuma's objects as a monitors-as-code file (the model `apply` plans and applies), with
// everything that has no equivalent here listed with the reason. Names are kept, so importing
// twice finds the same objects (the plan matches by name) and changes nothing.
import { DateTime } from 'luxon';
import type { ChannelSpec, CodeFile, MaintenanceSpec, MonitorSpec, Placement } from '../../monitors-as-code/model.ts';
import type { KumaData, KumaMaintenance, KumaMonitor, KumaNotification } from './read.ts';
import { dailySpanSeconds, nextMonthDay, nextWeekday, wallToMs, zoneOf } from './maintenance-time.ts';

export interface NotImported {
  what: string;
  name: string;
  why: string;
}

export interface Mapped {
  file: CodeFile;
  notImported: NotImported[];
  /** Values not to be printed (tokens, passwords, basic auth headers): the output shows "(secret)" */
  secrets: Set<string>;
  /** Past incidents the export carries (importers/history.ts), written after everything else */
  incidents?: import('../history.ts').PastIncidentSpec[];
  /** Subscribers who confirmed in the other tool (importers/history.ts), added after the incidents */
  subscribers?: import('../history.ts').ConfirmedSubscriberSpec[];
  /** Settings that depend on the company (Better Stack: its probe locations), read through the API before the plan */
  refine?: (api: import('../../monitors-as-code/api.ts').Api) => Promise<void>;
}

/** Kuma monitor types we have no kind for, with the reason the user reads. */
const NO_KIND: Record<string, string> = {
  docker: 'our probes do not reach a Docker daemon',
  'real-browser': 'no browser check of a single URL here (use a synthetic check written as a script)',
  'grpc-keyword': 'our grpc kind checks the standard health service, not a method call with a keyword',
  mqtt: 'no MQTT monitor kind',
  sqlserver: 'no SQL Server monitor kind',
  mongodb: 'no MongoDB monitor kind',
  radius: 'no RADIUS monitor kind',
  steam: 'no game server monitor kind',
  gamedig: 'no game server monitor kind',
  'kafka-producer': 'no Kafka monitor kind',
  'tailscale-ping': 'our probes are not in your tailnet',
  snmp: 'no SNMP monitor kind',
  rabbitmq: 'no RabbitMQ monitor kind',
  ntp: 'no NTP monitor kind',
  manual: 'a manual status has no check; post an incident instead',
  globalping: 'no Globalping kind; our probes check from several locations themselves',
  'sip-options': 'no SIP monitor kind',
  'system-service': 'a service on the Kuma host itself cannot be checked from our probes',
};

const clamp = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(n)));

/** A Kuma JSONata expression we can read as a plain path ("data.status", "$.items[0].id"). */
const PLAIN_PATH = /^(\$\.?)?[A-Za-z_][\w-]*(\.[A-Za-z_][\w-]*|\[\d+\])*$/;

function headersOf(m: KumaMonitor, skip: (why: string) => void): Record<string, string> | null {
  let headers: Record<string, string> = {};
  if (m.headers?.trim()) {
    try {
      const parsed = JSON.parse(m.headers) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      headers = Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]));
    } catch {
      skip('request headers: not a JSON object of names and values');
    }
  }
  if (m.authMethod === 'basic' || (!m.authMethod && m.basicAuthUser)) {
    if (m.basicAuthUser !== null)
      headers.Authorization = `Basic ${Buffer.from(`${m.basicAuthUser}:${m.basicAuthPass ?? ''}`).toString('base64')}`;
  } else if (m.authMethod && m.authMethod !== 'null') {
    skip(`authentication "${m.authMethod}": only basic authentication (as an Authorization header) is imported`);
  }
  return Object.keys(headers).length > 0 ? headers : null;
}

function common(m: KumaMonitor): Partial<MonitorSpec> {
  const out: Record<string, unknown> = { interval_seconds: clamp(m.interval || 60, 1, 86400) };
  if (m.timeout && m.timeout > 0) out.timeout_seconds = clamp(m.timeout, 1, 120);
  // Kuma retries N times before DOWN: N + 1 failed checks in a row, our confirmations.
  out.confirmations = clamp((m.maxretries || 0) + 1, 1, 10);
  if (!m.active) out.paused = true;
  return out;
}

function httpFields(m: KumaMonitor, skip: (why: string) => void, secrets: Set<string>): Record<string, unknown> | string {
  if (!m.url) return 'no URL';
  const out: Record<string, unknown> = { url: m.url, method: (m.method ?? 'GET').toUpperCase() };
  const headers = headersOf(m, skip);
  if (headers) {
    out.headers = headers;
    for (const [k, v] of Object.entries(headers)) if (/^(authorization|cookie|x-api-key)$/i.test(k)) secrets.add(v);
  }
  if (m.body?.trim()) out.body = m.body;
  out.accepted_status_codes = m.acceptedStatusCodes.length > 0 ? m.acceptedStatusCodes : ['200-299'];
  out.follow_redirects = (m.maxredirects ?? 10) > 0;
  if (m.ignoreTls) skip('"ignore TLS/SSL errors": not available here, a certificate error fails the check');
  return out;
}

/** The monitor in our terms, or the reason it cannot be imported; `partial` hears of settings left behind. */
function monitorOf(m: KumaMonitor, children: string[], partial: (why: string) => void, secrets: Set<string>): MonitorSpec | string {
  const base = { name: m.name, ...common(m) };
  switch (m.type) {
    case 'http':
    case 'keyword':
    case 'json-query': {
      const f = httpFields(m, partial, secrets);
      if (typeof f === 'string') return f;
      if (m.type === 'keyword') {
        if (!m.keyword) {
          return 'keyword monitor without a keyword';
        }
        Object.assign(f, { keyword: m.keyword, keyword_mode: m.invertKeyword ? 'absent' : 'present' });
      }
      if (m.type === 'json-query') {
        const op = m.jsonPathOperator ?? '==';
        if (!m.jsonPath || !PLAIN_PATH.test(m.jsonPath.trim()) || (op !== '==' && op !== '')) {
          return `JSON query "${m.jsonPath ?? ''}" ${op}: only a plain path (such as data.status) compared for equality is imported`;
        }
        Object.assign(f, { json_path: m.jsonPath.trim(), json_expected: m.expectedValue ?? '' });
      }
      return { ...base, type: 'http', ...f } as MonitorSpec;
    }
    case 'port':
      if (!m.hostname || !m.port) {
        return 'no host or port';
      }
      return { ...base, type: 'tcp', host: m.hostname, port: m.port } as MonitorSpec;
    case 'ping':
      if (!m.hostname) {
        return 'no host';
      }
      return { ...base, type: 'ping', host: m.hostname } as MonitorSpec;
    case 'dns': {
      if (!m.hostname) {
        return 'no host name';
      }
      const out: Record<string, unknown> = { ...base, type: 'dns', host: m.hostname, record_type: m.dnsResolveType ?? 'A' };
      // Kuma keeps the resolver's port in the monitor's port (53 by default).
      const server = m.dnsResolveServer?.split(',')[0]?.trim();
      if (server) out.resolver = m.port && m.port !== 53 ? `${server}:${m.port}` : server;
      return out as MonitorSpec;
    }
    case 'push': {
      // Kuma's time-out is a request's; a push monitor has none to carry over.
      const { timeout_seconds: _t, ...rest } = base as Record<string, unknown>;
      return { ...rest, type: 'push' } as MonitorSpec;
    }
    case 'group':
      if (children.length === 0) {
        return 'a group without monitors (a group here needs at least one)';
      }
      return { name: m.name, type: 'group', children, group_rule: 'any', ...(m.active ? {} : { paused: true }) } as MonitorSpec;
    case 'websocket-upgrade':
      if (!m.url) {
        return 'no URL';
      }
      return { ...base, type: 'websocket', url: m.url } as MonitorSpec;
    default:
      return NO_KIND[m.type] ?? `no "${m.type}" monitor kind here`;
  }
}

const s = (c: Record<string, unknown>, k: string) =>
  typeof c[k] === 'string' && (c[k] as string).trim() ? (c[k] as string).trim() : undefined;

/** Kuma's notification config as one of our channel types, or why not. */
function channelConfig(n: KumaNotification, notes: (why: string) => void): { type: string; config: Record<string, unknown> } | string {
  const c = n.config;
  const type = String(c.type ?? '');
  const url = (type2: string, key: string) => {
    const u = s(c, key);
    return u ? { type: type2, config: { url: u } } : `no ${key}`;
  };
  switch (type) {
    case 'slack':
      return url('slack', 'slackwebhookURL');
    case 'discord':
      return url('discord', 'discordWebhookUrl');
    case 'teams':
      return url('teams', 'webhookUrl');
    case 'mattermost':
      return url('mattermost', 'mattermostWebhookUrl');
    case 'GoogleChat':
      return url('google-chat', 'googleChatWebhookURL');
    case 'rocket.chat':
      return url('rocket-chat', 'rocketwebhookURL');
    case 'webhook': {
      if (s(c, 'webhookCustomBody') || s(c, 'webhookAdditionalHeaders'))
        notes('its custom body and headers: our webhook sends its own signed JSON');
      return url('webhook', 'webhookURL');
    }
    case 'smtp': {
      const to = [s(c, 'smtpTo'), s(c, 'smtpCC'), s(c, 'smtpBCC')]
        .filter(Boolean)
        .flatMap((x) => (x as string).split(/[,;\s]+/))
        .filter(Boolean);
      if (to.length === 0) return 'no recipient';
      notes("its SMTP server settings: mail goes out through the platform's own mail server");
      return { type: 'email', config: { to } };
    }
    case 'telegram': {
      if (s(c, 'telegramServerUrl') && !/api\.telegram\.org/.test(s(c, 'telegramServerUrl') as string))
        return 'a self-hosted Telegram Bot API server is not supported';
      const token = s(c, 'telegramBotToken');
      const chat = c.telegramChatID === undefined || c.telegramChatID === null ? undefined : String(c.telegramChatID).trim();
      return token && chat ? { type: 'telegram', config: { bot_token: token, chat_id: chat } } : 'no bot token or chat ID';
    }
    case 'PagerDuty': {
      const key = s(c, 'pagerdutyIntegrationKey');
      return key ? { type: 'pagerduty', config: { routing_key: key } } : 'no integration key';
    }
    case 'Opsgenie': {
      const key = s(c, 'opsgenieApiKey');
      if (c.opsgenieRegion === 'eu') notes('its EU region: alerts go to the Opsgenie API host the platform is configured with');
      return key ? { type: 'opsgenie', config: { api_key: key } } : 'no API key';
    }
    case 'pushover': {
      const token = s(c, 'pushoverapptoken');
      const user = s(c, 'pushoveruserkey');
      if (!token || !user) return 'no application token or user key';
      return {
        type: 'pushover',
        config: { api_token: token, user_key: user, ...(s(c, 'pushoverdevice') ? { device: s(c, 'pushoverdevice') } : {}) },
      };
    }
    case 'gotify': {
      const server = s(c, 'gotifyserverurl');
      const token = s(c, 'gotifyapplicationToken');
      return server && token ? { type: 'gotify', config: { server_url: server, app_token: token } } : 'no server URL or application token';
    }
    case 'ntfy': {
      const topic = s(c, 'ntfytopic');
      if (!topic) return 'no topic';
      if (c.ntfyAuthenticationMethod === 'usernamePassword') notes('its user name and password: ntfy access here is by access token');
      const token = c.ntfyAuthenticationMethod === 'accessToken' ? s(c, 'ntfyaccesstoken') : undefined;
      return {
        type: 'ntfy',
        config: { server_url: s(c, 'ntfyserverurl') ?? 'https://ntfy.sh', topic, ...(token ? { access_token: token } : {}) },
      };
    }
    case 'matrix': {
      const server = s(c, 'homeserverUrl');
      const token = s(c, 'accessToken');
      const room = s(c, 'internalRoomId');
      return server && token && room
        ? { type: 'matrix', config: { homeserver_url: server, access_token: token, room_id: room } }
        : 'no homeserver URL, access token or room';
    }
    default:
      return `no "${type || '(unknown)'}" channel type here`;
  }
}

/** Every secret string of a channel config (all config values but URLs of non-secret fields are treated alike: never printed). */
function addSecrets(config: Record<string, unknown>, secrets: Set<string>) {
  for (const [k, v] of Object.entries(config)) if (typeof v === 'string' && k !== 'server_url' && k !== 'homeserver_url') secrets.add(v);
}

function windowsOf(w: KumaMaintenance, monitors: string[], now: number, notImported: NotImported[]): MaintenanceSpec[] {
  const skip = (why: string) => notImported.push({ what: 'maintenance', name: w.title, why });
  if (!w.active) {
    skip('inactive in Uptime Kuma');
    return [];
  }
  if (monitors.length === 0) {
    // An empty list here means every monitor of the company: never what a Kuma window without
    // (imported) monitors meant.
    skip('none of its monitors is imported (a window here without monitors covers every monitor)');
    return [];
  }
  const { zone, assumed } = zoneOf(w.timezone);
  if (assumed) skip(`time zone "${w.timezone ?? ''}": imported as UTC (check the times)`);
  const base = { description: w.description || null, monitors };
  const iso = (ms: number) => new Date(ms).toISOString();
  if (w.strategy === 'single') {
    const start = w.startDate ? wallToMs(w.startDate, zone) : null;
    const end = w.endDate ? wallToMs(w.endDate, zone) : null;
    if (start === null || end === null || end <= start) {
      skip('no readable start and end');
      return [];
    }
    if (end <= now) {
      skip('already over');
      return [];
    }
    return [{ title: w.title, ...base, starts_at: iso(start), ends_at: iso(end), recurrence: null }];
  }
  if (w.strategy === 'recurring-weekday' || w.strategy === 'recurring-day-of-month') {
    const span = dailySpanSeconds(w.startTime, w.endTime);
    if (span === null || !w.startTime) {
      skip('no readable time of day');
      return [];
    }
    const from = Math.max(now, w.startDate ? (wallToMs(w.startDate, zone) ?? now) : now);
    if (w.endDate) skip(`the end of its recurrence (${w.endDate}): a recurring window here repeats until cancelled`);
    const weekly = w.strategy === 'recurring-weekday';
    const days = weekly ? w.weekdays : w.daysOfMonth;
    const names = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
    const out: MaintenanceSpec[] = [];
    for (const d of days) {
      const n = Number(d);
      if (!weekly && (!Number.isInteger(n) || n < 1 || n > 28)) {
        skip(`day of month "${d}": only days 1 to 28 repeat every month here`);
        continue;
      }
      const start = weekly ? nextWeekday(n, w.startTime, zone, from) : nextMonthDay(n, w.startTime, zone, from);
      if (start === null) continue;
      const title = days.length === 1 ? w.title : `${w.title} (${weekly ? names[n] : `day ${n}`})`;
      out.push({ title, ...base, starts_at: iso(start), ends_at: iso(start + span * 1000), recurrence: weekly ? 'weekly' : 'monthly' });
    }
    if (days.length === 0) skip('no days chosen');
    return out;
  }
  if (w.strategy === 'recurring-interval') skip('repeats every N days: windows here repeat weekly or monthly');
  else if (w.strategy === 'cron') skip(`cron schedule "${w.cron ?? ''}": windows here repeat weekly or monthly`);
  else if (w.strategy === 'manual') skip('started and stopped by hand: no times to import');
  else skip(`strategy "${w.strategy}" is not known`);
  return [];
}

export function mapKuma(data: KumaData, now: number = Date.now()): Mapped {
  const notImported: NotImported[] = [];
  const secrets = new Set<string>();
  const byId = new Map(data.monitors.map((m) => [m.id, m]));
  const imported = new Map<number, string>();
  const monitors: MonitorSpec[] = [];
  // Children first, so a group knows which of its children made it.
  const order = [...data.monitors].sort((a, b) => Number(a.type === 'group') - Number(b.type === 'group'));
  const names = new Set<string>();
  for (const m of order) {
    const skip = (why: string) => notImported.push({ what: 'monitor', name: m.name, why });
    if (names.has(m.name)) {
      skip('another monitor has the same name (monitors are matched by name; rename one in Uptime Kuma)');
      continue;
    }
    if (m.upsideDown) {
      skip('"upside down mode" (up when the check fails) is not available here');
      continue;
    }
    const children = data.monitors.filter((c) => c.parent === m.id && imported.has(c.id)).map((c) => c.name);
    // A field we cannot carry is listed, the monitor still imported.
    const partial = (why: string) => notImported.push({ what: 'monitor setting', name: m.name, why });
    const held: string[] = [];
    const spec = monitorOf(m, children, (why) => held.push(why), secrets);
    if (typeof spec === 'string') {
      skip(spec);
      continue;
    }
    for (const why of held) partial(why);
    if (m.type === 'push') partial('its push token: the monitor gets a new push URL (printed once when it is created); update the sender');
    names.add(m.name);
    imported.set(m.id, m.name);
    monitors.push(spec);
  }
  // Kuma's order back (groups were held back only to learn their children).
  monitors.sort((a, b) => data.monitors.findIndex((m) => m.name === a.name) - data.monitors.findIndex((m) => m.name === b.name));
  for (const m of data.monitors)
    if (m.parent !== null && imported.has(m.id) && !imported.has(m.parent) && byId.has(m.parent))
      notImported.push({ what: 'monitor setting', name: m.name, why: `its group "${byId.get(m.parent)?.name}" is not imported` });

  // Tags become group monitors of the same name (a tag's value is not kept).
  const tagged = new Map<string, string[]>();
  for (const m of data.monitors)
    for (const t of m.tags) if (imported.has(m.id)) tagged.set(t.name, [...new Set([...(tagged.get(t.name) ?? []), m.name])]);
  for (const [tag, members] of tagged) {
    const name = names.has(tag) ? `${tag} (tag)` : tag;
    if (names.has(name)) {
      notImported.push({ what: 'tag', name: tag, why: 'a monitor already has its name' });
      continue;
    }
    names.add(name);
    monitors.push({ name, type: 'group', children: members, group_rule: 'any' } as MonitorSpec);
  }
  for (const m of data.monitors)
    for (const t of m.tags)
      if (t.value && imported.has(m.id))
        notImported.push({
          what: 'tag value',
          name: `${m.name}: ${t.name}=${t.value}`,
          why: 'the tag becomes a group; its value is not kept',
        });

  const channels: ChannelSpec[] = [];
  const channelNames = new Set<string>();
  for (const n of data.notifications) {
    const partial = (why: string) => notImported.push({ what: 'alert channel setting', name: n.name, why });
    const mapped = channelConfig(n, partial);
    if (typeof mapped === 'string') {
      notImported.push({ what: 'alert channel', name: n.name, why: mapped });
      continue;
    }
    if (channelNames.has(n.name)) {
      notImported.push({ what: 'alert channel', name: n.name, why: 'another notification has the same name' });
      continue;
    }
    channelNames.add(n.name);
    addSecrets(mapped.config, secrets);
    const users = data.monitors.filter((m) => m.notificationIds.includes(n.id) && imported.has(m.id)).map((m) => m.name);
    channels.push({ name: n.name, type: mapped.type, config: mapped.config, monitors: users, enabled: n.active });
  }

  const file: CodeFile = { version: 1, monitors };
  const windows: MaintenanceSpec[] = [];
  for (const w of data.maintenance) {
    const covered = w.monitorIds.filter((id) => imported.has(id)).map((id) => imported.get(id) as string);
    windows.push(...windowsOf(w, covered, now, notImported));
  }
  if (data.source === 'database') file.maintenance = windows;
  file.alert_channels = channels;

  const [page, ...others] = data.statusPages;
  for (const p of others)
    notImported.push({
      what: 'status page',
      name: p.title,
      why: `a company has one status page here: "${page?.title}" (the first) is imported`,
    });
  if (page) {
    const placed = new Set<string>();
    const groups: { name: string; monitors: Placement[] }[] = [];
    for (const g of page.groups) {
      const list = g.monitorIds
        .filter((id) => imported.has(id) && !placed.has(imported.get(id) as string))
        .map((id) => imported.get(id) as string);
      for (const n of list) placed.add(n);
      if (list.length > 0 && !groups.some((x) => x.name === g.name))
        groups.push({ name: g.name, monitors: list.map((monitor) => ({ monitor })) });
    }
    // Monitors of the file not on the Kuma page are listed on their own (the plan places every
    // monitor of the file); they stay private, as is_public is not set for them.
    file.status_page = { groups };
    for (const g of groups)
      for (const p of g.monitors) {
        const spec = monitors.find((m) => m.name === p.monitor);
        if (spec && spec.type !== 'group') spec.is_public = true;
      }
    const left = [
      ['title', page.title],
      ['description', page.description],
      ['footer', page.footerText],
    ].filter(([, v]) => v);
    for (const [field, value] of left)
      notImported.push({
        what: 'status page setting',
        name: `${field}: ${String(value).slice(0, 60)}`,
        why: "the page shows your company's name and has no description or footer setting",
      });
    if (page.hasPassword)
      notImported.push({
        what: 'status page setting',
        name: 'password',
        why: 'Uptime Kuma stores only its hash: set a page password in the console',
      });
  }
  for (const x of data.skipped) notImported.push(x);
  return { file, notImported, secrets };
}

/** "2027-01-10 02:00" in UTC, for plan lines. */
export function shortUtc(iso: string): string {
  return DateTime.fromISO(iso, { zone: 'UTC' }).toFormat("yyyy-LL-dd HH:mm 'UTC'");
}
