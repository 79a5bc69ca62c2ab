// SSRF guard (DESIGN.md section 4): every address a check connects to is classified here, at
// create time (literal addresses and special names only) and again at connect time and on every
// redirect hop, so the address checked is the address connected to. Private targets are an
// operator opt-in; cloud metadata addresses stay blocked even then.
import ipaddr from 'ipaddr.js';
import type { Resolver } from './dns-lookup.ts';

export type { Resolver } from './dns-lookup.ts';

/**
 * The one answer for a host name that resolves to a blocked address and for one that does not
 * resolve: two answers would let a tenant ask the platform's resolver which internal names exist.
 */
export const NAME_REFUSED = 'Target refused: the host is not allowed or could not be resolved';

export class TargetRefused extends Error {
  readonly address: string;
  constructor(message: string, address: string) {
    super(message);
    this.address = address;
  }
}

/**
 * Cloud metadata and credential endpoints, blocked even with private targets open: AWS (IMDS,
 * ECS/EKS credentials, the VPC resolver and time service share 169.254.169.0/23 and
 * fd00:ec2::/64), GCP/Azure/DigitalOcean/OpenStack (169.254.169.254), Azure WireServer
 * (168.63.129.16), Alibaba (100.100.100.200), Tencent (169.254.0.23), Oracle (192.0.0.192).
 */
const METADATA_CIDRS = [
  '169.254.169.0/24',
  '169.254.170.0/24',
  '169.254.0.23/32',
  '168.63.129.16/32',
  '100.100.100.200/32',
  '192.0.0.192/32',
  'fd00:ec2::/64',
].map((c) => ipaddr.parseCIDR(c));
const isMetadata = (ip: ipaddr.IPv4 | ipaddr.IPv6) => METADATA_CIDRS.some(([net, bits]) => net.kind() === ip.kind() && ip.match(net, bits));
/** ::a.b.c.d (deprecated IPv4-compatible) and 64:ff9b:1::/48 (local NAT64) carry an IPv4 address in their last 32 bits. */
const EMBEDDING_V4 = [ipaddr.parseCIDR('::/96'), ipaddr.parseCIDR('64:ff9b:1::/48')] as const;
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

/** null when the address may be connected to, else what kind of address it is ('loopback', 'cloud metadata', …). */
function blockedKind(ip: ipaddr.IPv4 | ipaddr.IPv6, allowPrivate: PrivateTargets): string | null {
  if (isMetadata(ip)) return 'cloud metadata';
  const text = ip.toString();
  if (ip.kind() === 'ipv6' && text !== '::' && text !== '::1' && EMBEDDING_V4.some(([net, bits]) => ip.match(net, bits))) {
    // ipaddr.js calls these unicast, yet a tunnel or NAT64 route may deliver them to the IPv4
    // address inside: refused always (the IPv4 form works), naming what is inside.
    const inner = blockedKind(ipaddr.fromByteArray((ip as ipaddr.IPv6).toByteArray().slice(12)), allowPrivate);
    return inner ? `IPv4-embedded ${inner}` : 'IPv4-embedded';
  }
  const range = ip.range();
  if (range === 'unicast') return null;
  if (PRIVATE_RANGES.has(range) && privateAllowed(ip, allowPrivate)) return null;
  return describe(range);
}

const withArticle = (kind: string) => `${/^[aeiouIA]/.test(kind) ? 'an' : 'a'} ${kind} address`;

/** null when the address may be connected to, else why not ('127.0.0.2 is a loopback address'). */
export function refusalReason(address: string, allowPrivate: PrivateTargets): string | null {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it carries.
  const ip = ipaddr.process(address);
  const kind = blockedKind(ip, allowPrivate);
  return kind ? `${ip.toString()} is ${withArticle(kind)}` : null;
}

/**
 * An address a DNS check may show its tenant: false for the internal ones (private, loopback,
 * link-local, metadata, …) unless the operator opened them. Documentation and other reserved
 * public ranges are not secret and stay visible.
 */
export function isInternalAnswer(address: string, allowPrivate: PrivateTargets): boolean {
  if (!ipaddr.isValid(address)) return false;
  const ip = ipaddr.process(address);
  const kind = blockedKind(ip, allowPrivate);
  return kind !== null && (isMetadata(ip) || /loopback|private|link-local|carrier-grade|unspecified|IPv4-embedded/.test(kind));
}

/** Special-use and private-network zones (RFC 6761, 6762, 8375, ICANN's .internal, Kubernetes). */
const INTERNAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'lan', 'intranet', 'corp', 'cluster.local', 'svc'];

/**
 * Why a DNS check of this name is refused while private targets are closed, else null: the
 * platform's own resolver would otherwise answer a tenant's questions about the internal network
 * (single-label names expand through the search domains; reverse zones of private ranges name
 * internal hosts).
 */
export function internalDnsName(name: string, allowPrivate: PrivateTargets): string | null {
  if (opensAny(allowPrivate)) return null;
  const n = name.toLowerCase().replace(/\.$/, '');
  if (!n.includes('.')) return `Target refused: ${n} is a single-label name (internal search domains); use a fully qualified name`;
  const suffix = INTERNAL_SUFFIXES.find((z) => n === z || n.endsWith(`.${z}`));
  if (suffix) return `Target refused: .${suffix} is an internal zone`;
  const v4 = /^((?:\d{1,3}\.){0,3}\d{1,3})\.in-addr\.arpa$/.exec(n);
  if (v4) {
    const octets = v4[1].split('.').reverse();
    while (octets.length < 4) octets.push('0');
    const ip = octets.join('.');
    if (ipaddr.IPv4.isValidFourPartDecimal(ip) && blockedKind(ipaddr.parse(ip), allowPrivate))
      return `Target refused: ${n} is the reverse zone of a non-public range`;
  }
  const v6 = /^((?:[0-9a-f]\.){1,32})ip6\.arpa$/.exec(n);
  if (v6) {
    const hex = v6[1].split('.').filter(Boolean).reverse().join('').padEnd(32, '0');
    const ip = ipaddr.parse(hex.match(/.{4}/g)!.join(':'));
    if (blockedKind(ip, allowPrivate)) return `Target refused: ${n} is the reverse zone of a non-public range`;
  }
  return null;
}

function describe(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private',
    uniqueLocal: 'private (unique local)',
    linkLocal: 'link-local',
    carrierGradeNat: 'carrier-grade NAT',
    unspecified: 'unspecified',
    reserved: 'reserved',
    multicast: 'multicast',
    broadcast: 'broadcast',
    ipv4Mapped: 'IPv4-mapped',
    rfc6145: 'IPv4-translated',
    rfc6052: 'IPv4-embedded',
    '6to4': '6to4',
    teredo: 'Teredo',
    benchmarking: 'benchmarking',
    amt: 'reserved',
    as112: 'reserved',
    deprecated: 'deprecated',
    orchid2: 'reserved',
    droneRemoteIdProtocolEntityTags: 'reserved',
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

/**
 * A literal address (or a localhost name) as the address to connect to; null for a host name,
 * which only a lookup can judge. Throws TargetRefused for a blocked one, naming its kind: the
 * tenant typed it, so nothing is revealed. Monitor creation stops here: resolving names there
 * would answer questions about the internal network.
 */
export function literalTarget(host: string, allowPrivate: PrivateTargets): { address: string; family: 4 | 6 } | null {
  const h = normalizeHost(host);
  if (h === '') throw new TargetRefused('The target host is empty', host);
  if (ipaddr.isValid(h)) {
    const reason = refusalReason(h, allowPrivate);
    if (reason) throw new TargetRefused(`Target refused: ${reason}`, h);
    return { address: h, family: ipaddr.parse(h).kind() === 'ipv6' ? 6 : 4 };
  }
  if (h === 'localhost' || h.endsWith('.localhost')) {
    // Always loopback (RFC 6761), whatever a resolver says; no lookup.
    if (refusalReason('127.0.0.1', allowPrivate)) throw new TargetRefused(`Target refused: ${h} is a loopback name`, h);
    return { address: '127.0.0.1', family: 4 };
  }
  return null;
}

/**
 * Resolves a host and checks every address it maps to; answers the first one to connect to.
 * Refusing when any address is blocked stops DNS answers that mix a public and a private address.
 */
export async function resolveSafe(
  host: string,
  allowPrivate: PrivateTargets,
  resolve: Resolver,
  signal?: AbortSignal,
): Promise<{ address: string; family: 4 | 6 }> {
  return (await resolveAllSafe(host, allowPrivate, resolve, signal))[0];
}

/** Every address `host` maps to, each checked as resolveSafe checks them (proofs of control bind them all). */
export async function resolveAllSafe(
  host: string,
  allowPrivate: PrivateTargets,
  resolve: Resolver,
  signal?: AbortSignal,
): Promise<Array<{ address: string; family: 4 | 6 }>> {
  const literal = literalTarget(host, allowPrivate);
  if (literal) return [literal];
  const h = normalizeHost(host);
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await resolve(h, { signal });
  } catch (e) {
    // A lookup cut by the deadline, or one no server answered in time: the checker says so.
    if (signal?.aborted || (e as NodeJS.ErrnoException).code === 'ETIMEOUT') throw e;
    throw new TargetRefused(NAME_REFUSED, h);
  }
  const blocked =
    answers.length === 0 ||
    answers.some((a) => !ipaddr.isValid(a.address) || blockedKind(ipaddr.process(a.address), allowPrivate) !== null);
  if (blocked) throw new TargetRefused(NAME_REFUSED, h);
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}
