// The operator's threat-intelligence settings (read once at boot by config.ts): DNS blocklist
// zones, feeds, and an optional breach-lookup provider. The operator is trusted, but every feed
// download is bounded in size and time. Throws ThreatConfigError naming the variable.
import { readFileSync } from 'node:fs';

/** How a feed's lines are written (security/threat/feed-parse.ts reads each). */
export type FeedFormat = 'plain' | 'abusech-csv';

export interface BlocklistZone {
  zone: string;
  /** ip: asked about addresses (reversed octets or nibbles); domain: about names */
  type: 'ip' | 'domain';
}

export interface FeedConfig {
  /** Unique; names the feed in matches ('URLhaus') */
  name: string;
  url: string;
  format: FeedFormat;
  /** What a listing means, when a line does not say ('malware distribution') */
  threat: string;
}

export interface ThreatConfig {
  blocklists: BlocklistZone[];
  feeds: FeedConfig[];
  feedMaxBytes: number;
  feedTimeoutMs: number;
  /** Lookalike candidates checked per company and run, and DNS questions per second */
  lookalikeChecksPerRun: number;
  lookalikeQueriesPerSecond: number;
  /** null: no breach provider (the screen says so) */
  breach: { url: string; key: string } | null;
}

export class ThreatConfigError extends Error {}

type Env = Record<string, string | undefined>;

const fail = (name: string, accepts: string, got: string): never => {
  throw new ThreatConfigError(`Invalid ${name}=${JSON.stringify(got)}: expected ${accepts}`);
};

const ZONE_RE = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/** THREAT_DNSBL_ZONES: zone:type pairs such as zen.spamhaus.org:ip,dbl.spamhaus.org:domain */
function blocklists(env: Env): BlocklistZone[] {
  const raw = env.THREAT_DNSBL_ZONES ?? '';
  const out: BlocklistZone[] = [];
  for (const item of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [zone, type = 'ip'] = item.toLowerCase().split(':');
    if (!ZONE_RE.test(zone) || (type !== 'ip' && type !== 'domain')) {
      fail('THREAT_DNSBL_ZONES', 'comma-separated zone:type pairs such as zen.spamhaus.org:ip,dbl.spamhaus.org:domain', raw);
    }
    out.push({ zone, type: type as BlocklistZone['type'] });
  }
  return out;
}

/** THREAT_FEEDS: a JSON list, or @/path/to/file.json holding one. */
function feeds(env: Env): FeedConfig[] {
  const raw = (env.THREAT_FEEDS ?? '').trim();
  if (raw === '') return [];
  const accepts = 'a JSON list of {"name", "url" (http/https), "format": "plain"|"abusech-csv", "threat"?}, or @file holding one';
  let list: unknown;
  try {
    list = JSON.parse(raw.startsWith('@') ? readFileSync(raw.slice(1), 'utf8') : raw);
  } catch {
    return fail('THREAT_FEEDS', accepts, raw);
  }
  if (!Array.isArray(list)) return fail('THREAT_FEEDS', accepts, raw);
  const names = new Set<string>();
  return list.map((f: Record<string, unknown>) => {
    const { name, url, format, threat } = f ?? {};
    const ok =
      typeof name === 'string' &&
      /^[\w .-]{1,100}$/.test(name) &&
      !names.has(name) &&
      typeof url === 'string' &&
      /^https?:\/\/./.test(url) &&
      (format === 'plain' || format === 'abusech-csv') &&
      (threat === undefined || (typeof threat === 'string' && threat.length <= 100));
    if (!ok) return fail('THREAT_FEEDS', `${accepts}; names unique`, raw);
    names.add(name);
    return { name, url, format, threat: (threat as string | undefined) || 'listed' };
  });
}

function int(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) fail(name, `a whole number from ${min} to ${max}`, raw);
  return n;
}

function breach(env: Env): ThreatConfig['breach'] {
  const url = env.BREACH_LOOKUP_URL ?? '';
  if (url === '') return null;
  if (!/^https?:\/\/./.test(url)) fail('BREACH_LOOKUP_URL', 'an http(s) URL of a breach-lookup provider', url);
  const key = env.BREACH_LOOKUP_KEY ?? '';
  if (key === '') fail('BREACH_LOOKUP_KEY', 'the provider key (required with BREACH_LOOKUP_URL)', '');
  return { url, key };
}

export function threatConfig(env: Env): ThreatConfig {
  return {
    blocklists: blocklists(env),
    feeds: feeds(env),
    feedMaxBytes: int(env, 'THREAT_FEED_MAX_MB', 200, 1, 2000) * 1024 * 1024,
    feedTimeoutMs: int(env, 'THREAT_FEED_TIMEOUT_SECONDS', 300, 1, 3000) * 1000,
    lookalikeChecksPerRun: int(env, 'THREAT_LOOKALIKE_CHECKS_PER_RUN', 100, 0, 10000),
    lookalikeQueriesPerSecond: int(env, 'THREAT_LOOKALIKE_QUERIES_PER_SECOND', 5, 1, 1000),
    breach: breach(env),
  };
}
