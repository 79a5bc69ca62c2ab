// SSRF guard (DESIGN.md section 4): every address a check connects to is classified here, at
// create time (literal or resolved host) and again at connect time and on every redirect hop,
// so the address checked is the address connected to. Private targets are an operator opt-in;
// cloud metadata addresses stay blocked even then.
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export class TargetRefused extends Error {
  readonly address: string;
  constructor(message: string, address: string) {
    super(message);
    this.address = address;
  }
}

const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254', '192.0.0.192']);
/** Ranges opened by ALLOW_PRIVATE_TARGETS (self-hosters checking their own network). */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'linkLocal', 'carrierGradeNat', 'unspecified']);

/**
 * ALLOW_PRIVATE_TARGETS: false (public addresses only), true (every private range), or a list of
 * CIDRs (only private addresses inside them: a self-hoster opens just their own network).
 */
export type PrivateTargets = boolean | readonly string[];

const opensAny = (p: PrivateTargets) => p === true || (Array.isArray(p) && p.length > 0);

function privateAllowed(ip: ipaddr.IPv4 | ipaddr.IPv6, p: PrivateTargets): boolean {
  if (p === true) return true;
  if (p === false) return false;
  return p.some((cidr) => {
    const [net, bits] = ipaddr.parseCIDR(cidr);
    return net.kind() === ip.kind() && ip.match(net, bits);
  });
}

/** null when the address may be connected to, else why not. */
export function refusalReason(address: string, allowPrivate: PrivateTargets): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it carries.
  const ip = ipaddr.process(address);
  const text = ip.toString();
  if (METADATA.has(text)) return `${text} is a cloud metadata address`;
  const range = ip.range();
  if (range === 'unicast') return null;
  if (PRIVATE_RANGES.has(range) && privateAllowed(ip, allowPrivate)) return null;
  return `${text} is a ${describe(range)} address`;
}

function describe(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback', private: 'private', uniqueLocal: 'private (unique local)', linkLocal: 'link-local',
    carrierGradeNat: 'carrier-grade NAT', unspecified: 'unspecified', reserved: 'reserved', multicast: 'multicast',
    broadcast: 'broadcast', ipv4Mapped: 'IPv4-mapped', rfc6145: 'IPv4-translated', rfc6052: 'IPv4-embedded',
    '6to4': '6to4', teredo: 'Teredo', benchmarking: 'benchmarking', amt: 'reserved', as112: 'reserved',
    deprecated: 'deprecated', orchid2: 'reserved', droneRemoteIdProtocolEntityTags: 'reserved',
  };
  return names[range] ?? 'reserved';
}

/**
 * The host as a connection would see it: the WHATWG parser turns odd IPv4 forms (127.1,
 * 0x7f000001, 2130706433, 0177.0.0.1) into dotted quads; IPv6 loses its brackets.
 */
export function normalizeHost(host: string): string {
  let h = host.trim();
  if (h.includes(':') && !h.startsWith('[')) h = `[${h}]`;
  let parsed: string;
  try {
    parsed = new URL(`http://${h}/`).hostname;
  } catch {
    throw new TargetRefused(`"${host}" is not a valid host name`, host);
  }
  return parsed.startsWith('[') ? parsed.slice(1, -1) : parsed;
}

export type Resolver = (host: string) => Promise<Array<{ address: string; family: number }>>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Resolves a host and checks every address it maps to; answers the first one to connect to.
 * Refusing when any address is blocked stops DNS answers that mix a public and a private address.
 */
export async function resolveSafe(host: string, allowPrivate: PrivateTargets, resolve: Resolver = systemResolver): Promise<{ address: string; family: 4 | 6 }> {
  const h = normalizeHost(host);
  if (h === '') throw new TargetRefused('The target host is empty', host);
  if (ipaddr.isValid(h)) {
    const reason = refusalReason(h, allowPrivate);
    if (reason) throw new TargetRefused(`Target refused: ${reason}`, h);
    return { address: h, family: ipaddr.parse(h).kind() === 'ipv6' ? 6 : 4 };
  }
  if (h === 'localhost' || h.endsWith('.localhost')) {
    // Always loopback (RFC 6761), whatever a resolver says.
    if (!opensAny(allowPrivate)) throw new TargetRefused(`Target refused: ${h} is a loopback name`, h);
  }
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await resolve(h);
  } catch (e) {
    throw new Error(`DNS lookup of ${h} failed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (answers.length === 0) throw new Error(`DNS lookup of ${h} returned no address`);
  for (const a of answers) {
    const reason = refusalReason(a.address, allowPrivate);
    if (reason) throw new TargetRefused(`Target refused: ${h} resolves to ${reason}`, a.address);
  }
  const first = answers[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
