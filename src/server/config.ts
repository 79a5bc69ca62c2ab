// Configuration is parsed and validated once at boot and then passed around; nothing reads
// process.env at request time. A bad value stops the process with one line naming the variable.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { FLAG_NAMES, isFlagName } from '../lib/flags.ts';
import { isEmail } from '../lib/formats.ts';
import { MIN_SECRET_LENGTH, weakSecretReason } from './secret-strength.ts';
import { isCommonPassword } from './common-passwords.ts';
import { readBootstrap } from './net/rdap-bootstrap.ts';
import { RISKY_SERVICES } from '../lib/risky-services.ts';
import type { BrowserSettings } from './engine/checkers/browser/settings.ts';
import { threatConfig, ThreatConfigError, type ThreatConfig } from './threat-config.ts';
import { chatHostListsOf, type ChatHostLists } from './subscriber-chat-hosts.ts';
import { bool, browserEnv, ConfigError, dnsResolvers, type Env, fail, int, privateTargets } from './env-values.ts';
import { llmConfig, type LlmConfig } from './llm-config.ts';
import { DEFAULT_PLAN_FEATURES, isPlanName, PLAN_FEATURES, PLAN_NAMES, type PlanFeature, type PlanName } from '../lib/plans.ts';

export { ConfigError };

export type NodeEnv = 'development' | 'production' | 'test';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** undefined = embedded SQLite file in dataDir */
  databaseUrl: string | undefined;
  databaseKind: 'sqlite' | 'postgres';
  sqlitePath: string;
  productDomain: string;
  productName: string;
  nodeEnv: NodeEnv;
  /** Signs access tokens and handoff codes; 32+ random bytes, base64url. */
  sessionSecret: string;
  /** Seals monitors' stored credentials (MONITOR_SECRETS_KEY); unset: derived from sessionSecret (engine/kinds/secret-box.ts) */
  monitorSecretsKey?: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** I18N_PSEUDO_LOCALE=1 (tests only): public pages also render in the pseudo-locale en-XA (?lang=en-XA) */
  i18nPseudoLocale?: boolean;
  /** Scheme used when building links to tenant hosts (https in production). */
  publicScheme: 'http' | 'https';
  /** Port browsers reach the server on, when the proxy's Host header leaves it out (unset = the Host's) */
  publicPort: number | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
  signupEnabled: boolean;
  /** false, true (all private ranges) or the CIDRs opened (see net/ssrf.ts) */
  allowPrivateTargets: boolean | string[];
  minCheckIntervalSeconds: number;
  /** Checks a minute to one destination host, summed over every company's active monitors (0: no cap) */
  maxChecksPerHostPerMinute: number;
  /** DNS servers the checks ask (ip or ip:port, [v6]:port); undefined = the system's (/etc/resolv.conf) */
  dnsResolvers: string[] | undefined;
  /** CUSTOM_DOMAIN_TARGET: the host custom domains CNAME to; unset = each company's NAME.PRODUCT_DOMAIN */
  customDomainTarget: string | undefined;
  runEngine: boolean;
  /** Added to a check's time-out to form its lease: how long a dead process's claimed checks wait before another takes them */
  checkLeaseMarginSeconds: number;
  /** RDAP bootstrap data for DNS (IANA's dns.json format); undefined = the subset shipped in security/domains */
  rdapBootstrapFile: string | undefined;
  /** Operator's RDAP base URLs by TLD (or any suffix), trusted like the rest of the configuration */
  rdapBaseUrls: Record<string, string>;
  /** Operator targets that must stay reachable (URLs, host:port); empty = no canary (engine/canary.ts) */
  canaryTargets: string[];
  /** Vulnerability scans: requests (HTTP and TCP connects) per second to one host (SCAN_RATE_PER_SECOND) */
  scanRatePerSecond: number;
  /** A full retire.js jsrepository.json replacing the shipped snapshot (RETIREJS_REPOSITORY_FILE) */
  retireRepositoryFile: string | undefined;
  /** Where scans look for a host's web server, in order (SCAN_WEB_PORTS, default https:443,http:80) */
  scanWebPorts: Array<{ scheme: 'http' | 'https'; port: number }>;
  /** Risky services probed, service → port (SCAN_SERVICE_PORTS; undefined: the built-in list) */
  scanServicePorts: Record<string, number> | undefined;
  canaryIntervalSeconds: number;
  /** A probe location whose probes are all silent this long is marked offline and its managers told (PROBE_OFFLINE_SECONDS) */
  probeOfflineSeconds: number;
  /**
   * A port of its own for the probes' calls (PROBE_INGEST_PORT; undefined: only the main port), served
   * by a thread with its own event loop so a loaded status page never delays a delivery (http/probe-ingest.ts)
   */
  probeIngestPort?: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * Alert grouping (notify/outbox/grouping.ts): a chat or SMS message waits until its channel had
   * no new alert of the same event for `windowMs` (0: never waits), at most `maxMs` after the
   * first, and then lists every monitor that changed meanwhile.
   */
  alertGrouping: { windowMs: number; maxMs: number };
  /** Fixed API hosts of the alert channels' services (tests point them at loopback fakes) */
  channelApis: {
    pagerduty: string;
    opsgenie: string;
    telegram: string;
    twilio: string;
    pushover: string;
    splunkOncall: string;
    zenduty: string;
    linear: string;
  };
  /** The operator's Twilio account for personal SMS (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM); null: no personal SMS */
  personalSms: { account_sid: string; auth_token: string; from: string } | null;
  /** Operator overrides of feature flags: FLAG_ENABLE_X=true|false */
  flagOverrides: Record<string, boolean>;
  trustProxy: boolean;
  /** Built Astro output (client/ and server/); tests build into their own folder */
  distDir: string;
  /** DNS blocklists, feeds and breach provider of threat intelligence (threat-config.ts) */
  threat: ThreatConfig;
  /** Browser checks (CHROMIUM_PATH, BROWSER_*): engine/checkers/browser/settings.ts */
  browser: BrowserSettings;
  /** Bearer token of the operator's Prometheus scrape of /metrics on the main host; unset: no such endpoint */
  metricsToken: string | undefined;
  /** Which plans have each plan feature (PLAN_FEATURE_<NAME>=plan,plan; lib/plans.ts has the defaults) */
  planFeatures: Record<PlanFeature, PlanName[]>;
  /**
   * Hosts a chat subscriber's incoming-webhook URL may name, per service (SUBSCRIBER_SLACK_HOSTS,
   * SUBSCRIBER_TEAMS_HOSTS, SUBSCRIBER_DISCORD_HOSTS; domain/subscribers/chat-hosts.ts reads them)
   */
  subscriberChatHosts: ChatHostLists;
  /** The optional language model writing incident summaries (LLM_BASE_URL, LLM_API_KEY, LLM_MODEL; llm-config.ts); null: off */
  llm: LlmConfig | null;
}

/** All three TWILIO_ settings or none: a partial account would fail every personal SMS. */
function personalSms(env: Env): Config['personalSms'] {
  const sid = env.TWILIO_ACCOUNT_SID || '';
  const token = env.TWILIO_AUTH_TOKEN || '';
  const from = env.TWILIO_FROM || '';
  if (!sid && !token && !from) return null;
  if (!/^AC[0-9a-f]{32}$/.test(sid))
    fail('TWILIO_ACCOUNT_SID', 'AC followed by 32 hexadecimal digits (with TWILIO_AUTH_TOKEN and TWILIO_FROM)', sid);
  if (!/^[0-9a-f]{32}$/.test(token)) fail('TWILIO_AUTH_TOKEN', '32 hexadecimal digits', '***');
  if (!/^(\+[1-9]\d{1,14}|MG[0-9a-f]{32})$/.test(from))
    fail('TWILIO_FROM', 'a number such as +14155550123 or a Messaging Service SID (MG…)', from);
  return { account_sid: sid, auth_token: token, from };
}

/** RDAP_BOOTSTRAP_FILE: a file in IANA's format (https://data.iana.org/rdap/dns.json), read at boot to fail early */
function rdapBootstrapFile(env: Env): string | undefined {
  const raw = env.RDAP_BOOTSTRAP_FILE;
  if (raw === undefined || raw.trim() === '') return undefined;
  const file = path.resolve(raw);
  try {
    readBootstrap(file);
  } catch (e) {
    fail('RDAP_BOOTSTRAP_FILE', `a readable RDAP bootstrap file in IANA's format (${(e as Error).message})`, raw);
  }
  return file;
}

/** RDAP_BASE_URLS: comma-separated suffix=URL pairs such as com=https://rdap.example.net/com/v1/,example=http://127.0.0.1:8080/ */
function rdapBaseUrls(env: Env): Record<string, string> {
  const raw = env.RDAP_BASE_URLS;
  const out: Record<string, string> = {};
  if (raw === undefined || raw.trim() === '') return out;
  for (const pair of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const i = pair.indexOf('=');
    const suffix = pair.slice(0, i).trim().toLowerCase().replace(/^\./, '');
    const url = pair.slice(i + 1).trim();
    const ok = i > 0 && /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(suffix) && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
    if (!ok) fail('RDAP_BASE_URLS', 'comma-separated suffix=URL pairs such as com=https://rdap.example.net/com/v1/', raw);
    out[suffix] = url;
  }
  return out;
}

/** CUSTOM_DOMAIN_TARGET: one host name (e.g. custom.status.example.com), lower-cased */
function customDomainTarget(env: Env): string | undefined {
  const raw = env.CUSTOM_DOMAIN_TARGET?.trim().toLowerCase().replace(/\.$/, '');
  if (!raw) return undefined;
  if (!DOMAIN_RE.test(raw)) fail('CUSTOM_DOMAIN_TARGET', 'a host name such as custom.status.example.com', raw);
  return raw;
}

/** CANARY_TARGETS: comma-separated http(s) URLs or host:port, such as https://1.1.1.1,example.com:443 */
function canaryTargets(env: Env): string[] {
  const raw = env.CANARY_TARGETS;
  if (raw === undefined || raw.trim() === '') return [];
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const valid = (t: string) => {
    if (/^https?:\/\//i.test(t)) return URL.canParse(t) && !new URL(t).username && !new URL(t).password;
    const m = /^\[([^\]]+)\]:(\d{1,5})$/.exec(t) ?? /^([^:[\]/\s]+):(\d{1,5})$/.exec(t);
    return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= 65535 && (ipaddr.isValid(m[1]) || DOMAIN_RE.test(m[1].toLowerCase()));
  };
  if (list.length > 10 || !list.every(valid))
    fail('CANARY_TARGETS', 'up to 10 comma-separated http(s) URLs or host:port such as https://example.com,1.1.1.1:53', raw);
  return list;
}

/** RETIREJS_REPOSITORY_FILE must name a readable JSON file: a typo would silently scan with the snapshot. */
function retireRepositoryFile(env: Env): string | undefined {
  const file = env.RETIREJS_REPOSITORY_FILE;
  if (!file) return undefined;
  try {
    JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    fail('RETIREJS_REPOSITORY_FILE', 'a readable retire.js jsrepository.json file', file);
  }
  return file;
}

/** SCAN_WEB_PORTS: scheme:port pairs such as https:443,http:80,https:8443 */
function scanWebPorts(env: Env): Config['scanWebPorts'] {
  const raw = env.SCAN_WEB_PORTS || 'https:443,http:80';
  return raw.split(',').map((item) => {
    const m = /^(https?):(\d{1,5})$/.exec(item.trim());
    if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) fail('SCAN_WEB_PORTS', 'scheme:port pairs such as https:443,http:80', raw);
    return { scheme: m[1] as 'http' | 'https', port: Number(m[2]) };
  });
}

/** SCAN_SERVICE_PORTS: service:port pairs of the known risky services, e.g. redis:6379,mysql:3306 */
function scanServicePorts(env: Env): Config['scanServicePorts'] {
  const raw = env.SCAN_SERVICE_PORTS;
  if (raw === undefined || raw === '') return undefined;
  const out: Record<string, number> = {};
  for (const item of raw.split(',')) {
    const m = /^([a-z]+):(\d{1,5})$/.exec(item.trim());
    if (!m || !Object.hasOwn(RISKY_SERVICES, m[1]) || Number(m[2]) < 1 || Number(m[2]) > 65535)
      fail('SCAN_SERVICE_PORTS', `service:port pairs of ${Object.keys(RISKY_SERVICES).join(', ')}`, raw);
    out[m[1]] = Number(m[2]);
  }
  return out;
}

function oneOf<T extends string>(env: Env, name: string, def: T, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  if (!(allowed as readonly string[]).includes(raw)) fail(name, `one of ${allowed.join(', ')}`, raw);
  return raw as T;
}

/** A service's API base URL: http(s), no credentials or query (a path prefix is fine), kept without a trailing slash. */
function apiBase(env: Env, name: string, def: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) {
    fail(name, 'an http(s) URL such as ' + def, raw);
  }
  return url.href.replace(/\/+$/, '');
}

const DOMAIN_RE = /^(localhost|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})$/;

/** Secrets kept in DATA_DIR outside production so restarts keep sessions valid. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { sessionSecret?: string };
    if (parsed.sessionSecret && parsed.sessionSecret.length >= 43) return parsed.sessionSecret;
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, JSON.stringify({ sessionSecret: secret }, null, 2), { mode: 0o600 });
  return secret;
}

function threatOf(env: Env): ThreatConfig {
  try {
    return threatConfig(env);
  } catch (e) {
    if (e instanceof ThreatConfigError) throw new ConfigError(e.message);
    throw e;
  }
}

export function parseConfig(env: Env = process.env): Config {
  const nodeEnv = oneOf<NodeEnv>(env, 'NODE_ENV', 'development', ['development', 'production', 'test']);
  const port = int(env, 'PORT', 4321, 0, 65535);
  const host = env.HOST || '127.0.0.1';
  if (!/^[0-9a-zA-Z.:\-[\]]+$/.test(host)) fail('HOST', 'an IP address or host name', host);
  const dataDir = path.resolve(env.DATA_DIR || './data');

  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\/./.test(databaseUrl)) {
    fail('DATABASE_URL', 'unset (SQLite file in DATA_DIR) or a postgres:// URL', databaseUrl);
  }

  const productDomain = (env.PRODUCT_DOMAIN || 'localhost').toLowerCase();
  if (!DOMAIN_RE.test(productDomain)) fail('PRODUCT_DOMAIN', 'a DNS domain such as status.example.com or localhost', productDomain);
  const productName = env.PRODUCT_NAME || 'StatusWatch';
  if (productName.length > 60) fail('PRODUCT_NAME', 'at most 60 characters', productName);

  const adminEmail = env.ADMIN_EMAIL || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if (adminEmail && !isEmail(adminEmail)) fail('ADMIN_EMAIL', 'an email address', adminEmail);
  if (adminEmail && !adminPassword) fail('ADMIN_PASSWORD', 'a password of 8+ characters when ADMIN_EMAIL is set', '');
  if (adminPassword && (adminPassword.length < 8 || isCommonPassword(adminPassword))) {
    fail('ADMIN_PASSWORD', 'a password of 8+ characters that is not a common password', '***');
  }

  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\/./.test(smtpUrl)) fail('SMTP_URL', 'an smtp:// or smtps:// URL', smtpUrl);

  const flagOverrides: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(env)) {
    if (!k.startsWith('FLAG_ENABLE_')) continue;
    // A misspelt flag would otherwise be ignored without a word, leaving the flag as it was.
    const flag = k.slice(5);
    if (!isFlagName(flag)) throw new ConfigError(`Unknown feature flag ${k}: expected FLAG_ followed by one of ${FLAG_NAMES.join(', ')}`);
    flagOverrides[flag] = bool(env, k, v === 'true');
  }

  let sessionSecret = env.SESSION_SECRET || '';
  if (nodeEnv === 'production') {
    if (!sessionSecret) fail('SESSION_SECRET', `a random secret of ${MIN_SECRET_LENGTH}+ characters (required in production)`, '');
  }
  if (sessionSecret) {
    const weak = weakSecretReason(sessionSecret);
    if (weak)
      fail(
        'SESSION_SECRET',
        `a random secret of ${MIN_SECRET_LENGTH}+ characters such as \`openssl rand -base64 32\` makes (this one is ${weak})`,
        '***',
      );
  } else {
    mkdirSync(dataDir, { recursive: true });
    sessionSecret = loadOrCreateSecret(dataDir);
  }

  const monitorSecretsKey = env.MONITOR_SECRETS_KEY || undefined;
  if (monitorSecretsKey) {
    const weak = weakSecretReason(monitorSecretsKey);
    if (weak)
      fail(
        'MONITOR_SECRETS_KEY',
        `a random secret of ${MIN_SECRET_LENGTH}+ characters such as \`openssl rand -base64 32\` makes (this one is ${weak})`,
        '***',
      );
  }

  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken) {
    const weak = weakSecretReason(metricsToken);
    if (weak || !/^[\x21-\x7e]+$/.test(metricsToken))
      fail(
        'METRICS_TOKEN',
        `a random token of ${MIN_SECRET_LENGTH}+ printable characters such as \`openssl rand -hex 32\` makes${weak ? ` (this one is ${weak})` : ''}`,
        '***',
      );
  }

  return {
    port,
    host,
    dataDir,
    databaseUrl,
    databaseKind: databaseUrl ? 'postgres' : 'sqlite',
    sqlitePath: path.join(dataDir, 'statuswatch.sqlite'),
    productDomain,
    productName,
    nodeEnv,
    sessionSecret,
    monitorSecretsKey,
    adminEmail,
    adminPassword,
    i18nPseudoLocale: env.I18N_PSEUDO_LOCALE === '1',
    publicScheme: oneOf(env, 'PUBLIC_SCHEME', nodeEnv === 'production' ? 'https' : 'http', ['http', 'https']),
    publicPort: env.PUBLIC_PORT ? int(env, 'PUBLIC_PORT', 0, 1, 65535) : undefined,
    logLevel: oneOf(env, 'LOG_LEVEL', nodeEnv === 'test' ? 'warn' : 'info', ['fatal', 'error', 'warn', 'info', 'debug', 'silent']),
    signupEnabled: bool(env, 'SIGNUP_ENABLED', true),
    allowPrivateTargets: privateTargets(env),
    minCheckIntervalSeconds: int(env, 'MIN_CHECK_INTERVAL_SECONDS', 30, 1, 86400),
    maxChecksPerHostPerMinute: int(env, 'MAX_CHECKS_PER_HOST_PER_MINUTE', 120, 0, 1_000_000),
    dnsResolvers: dnsResolvers(env),
    customDomainTarget: customDomainTarget(env),
    runEngine: bool(env, 'RUN_ENGINE', true),
    // At least 2 s: a checker that ignores its time-out is abandoned 1 s after it, then its result is written.
    checkLeaseMarginSeconds: int(env, 'CHECK_LEASE_MARGIN_SECONDS', 30, 2, 600),
    rdapBootstrapFile: rdapBootstrapFile(env),
    rdapBaseUrls: rdapBaseUrls(env),
    canaryTargets: canaryTargets(env),
    canaryIntervalSeconds: int(env, 'CANARY_INTERVAL_SECONDS', 30, 5, 3600),
    probeOfflineSeconds: int(env, 'PROBE_OFFLINE_SECONDS', 90, 30, 86400),
    probeIngestPort: env.PROBE_INGEST_PORT ? int(env, 'PROBE_INGEST_PORT', 0, 1, 65535) : undefined,
    scanRatePerSecond: int(env, 'SCAN_RATE_PER_SECOND', 5, 1, 20),
    retireRepositoryFile: retireRepositoryFile(env),
    scanWebPorts: scanWebPorts(env),
    scanServicePorts: scanServicePorts(env),
    smtpUrl,
    mailFrom: env.MAIL_FROM || `no-reply@${productDomain}`,
    alertGrouping: {
      windowMs: int(env, 'ALERT_GROUP_WINDOW_SECONDS', 15, 0, 300) * 1000,
      maxMs: int(env, 'ALERT_GROUP_MAX_SECONDS', 120, 1, 3600) * 1000,
    },
    channelApis: {
      pagerduty: apiBase(env, 'PAGERDUTY_EVENTS_URL', 'https://events.pagerduty.com'),
      opsgenie: apiBase(env, 'OPSGENIE_API_URL', 'https://api.opsgenie.com'),
      telegram: apiBase(env, 'TELEGRAM_API_URL', 'https://api.telegram.org'),
      twilio: apiBase(env, 'TWILIO_API_URL', 'https://api.twilio.com'),
      pushover: apiBase(env, 'PUSHOVER_API_URL', 'https://api.pushover.net'),
      splunkOncall: apiBase(env, 'SPLUNK_ONCALL_API_URL', 'https://alert.victorops.com'),
      zenduty: apiBase(env, 'ZENDUTY_API_URL', 'https://www.zenduty.com'),
      linear: apiBase(env, 'LINEAR_API_URL', 'https://api.linear.app/graphql'),
    },
    personalSms: personalSms(env),
    flagOverrides,
    trustProxy: bool(env, 'TRUST_PROXY', false),
    distDir: path.resolve(env.DIST_DIR || path.join(import.meta.dirname, '../../dist')),
    threat: threatOf(env),
    metricsToken,
    browser: browserEnv(env),
    planFeatures: planFeaturesOf(env),
    subscriberChatHosts: chatHostListsOf(env),
    llm: llmConfig(env),
  };
}

function planFeaturesOf(env: Env): Config['planFeatures'] {
  // One variable a plan feature, PLAN_FEATURE_<NAME>: the plans that have it (unset: the defaults).
  const raw: Record<PlanFeature, [string, string | undefined]> = {
    sso: ['PLAN_FEATURE_SSO', env.PLAN_FEATURE_SSO],
    sms_subscribers: ['PLAN_FEATURE_SMS_SUBSCRIBERS', env.PLAN_FEATURE_SMS_SUBSCRIBERS],
  };
  const out = {} as Config['planFeatures'];
  for (const f of PLAN_FEATURES) {
    const [name, value] = raw[f];
    if (value === undefined) {
      out[f] = [...DEFAULT_PLAN_FEATURES[f]];
      continue;
    }
    const plans = value
      .split(',')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean);
    if (plans.some((p) => !isPlanName(p))) fail(name, `a comma-separated list of plans (${PLAN_NAMES.join(', ')})`, value);
    out[f] = plans as PlanName[];
  }
  return out;
}
