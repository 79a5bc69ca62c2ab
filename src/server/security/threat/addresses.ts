// Address and name arithmetic of threat matching: canonical addresses and networks (a feed's
// CIDR is stored as its network's canonical text, and an address is matched by the texts of
// every network enclosing it, so matching stays exact index lookups), the names a domain listing
// covers, and the query names of DNS blocklists (RFC 5782). Fast paths first: a million-line
// feed goes through these.
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';

const DOMAIN_RE = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const V4_RE = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Lower-case, no trailing dot; undefined for something that is no plausible host name. */
export function normalizeDomain(raw: string): string | undefined {
  let d = raw.trim().toLowerCase();
  if (d.endsWith('.')) d = d.slice(0, -1);
  if (/[^\x00-\x7f]/.test(d)) d = domainToASCII(d); // IDN: compared in punycode
  if (d.length === 0 || d.length > 253 || V4_RE.test(d)) return undefined;
  return DOMAIN_RE.test(d) ? d : undefined;
}

/** The canonical text of an IP address (IPv4-mapped IPv6 as IPv4); undefined when it is none. */
export function normalizeIp(raw: string): string | undefined {
  let s = raw.trim();
  const v4 = V4_RE.exec(s);
  if (v4) {
    const octets = v4.slice(1).map(Number);
    return octets.every((o) => o <= 255) ? octets.join('.') : undefined;
  }
  if (!s.includes(':')) return undefined;
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  if (!ipaddr.IPv6.isValid(s)) return undefined;
  const a = ipaddr.IPv6.parse(s);
  return a.isIPv4MappedAddress() ? a.toIPv4Address().toString() : a.toString();
}

function network(bytes: number[], bits: number): string {
  const out = bytes.slice();
  for (let bit = bits; bit < out.length * 8; bit++) out[bit >> 3] &= ~(0x80 >> (bit & 7));
  return `${ipaddr.fromByteArray(out).toString()}/${bits}`;
}

/** A CIDR as its network's canonical text ('192.0.2.77/24' → '192.0.2.0/24'); undefined when it is none. */
export function canonicalCidr(raw: string): { value: string; single: boolean } | undefined {
  const [addr, len, extra] = raw.trim().split('/');
  const ip = normalizeIp(addr ?? '');
  if (!ip || extra !== undefined || !/^\d{1,3}$/.test(len ?? '')) return undefined;
  const bytes = ipaddr.parse(ip).toByteArray();
  const bits = Number(len);
  if (bits > bytes.length * 8) return undefined;
  if (bits === bytes.length * 8) return { value: ip, single: true };
  return { value: network(bytes, bits), single: false };
}

/** The prefix-length key of a canonical CIDR: 'v4/24', 'v6/32'. */
export const prefixKey = (cidr: string): string => `${cidr.includes(':') ? 'v6' : 'v4'}/${cidr.slice(cidr.indexOf('/') + 1)}`;

/**
 * The networks enclosing an address, as canonicalCidr writes them: of the prefix lengths in
 * `only` (prefixKey form), or every length from /1 to one short of the address.
 */
export function enclosingNetworks(ip: string, only?: ReadonlySet<string>): string[] {
  const bytes = ipaddr.parse(ip).toByteArray();
  const family = bytes.length === 4 ? 'v4' : 'v6';
  const out: string[] = [];
  for (let bits = 1; bits < bytes.length * 8; bits++) if (!only || only.has(`${family}/${bits}`)) out.push(network(bytes, bits));
  return out;
}

/** A host and its parent domains down to two labels: a listed domain covers every name under it. */
export function domainAndParents(host: string): string[] {
  const labels = host.split('.');
  const out: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) out.push(labels.slice(i).join('.'));
  return out;
}

/** The name to ask a blocklist zone about an address: reversed octets (IPv4) or nibbles (IPv6). */
export function dnsblIpQuery(ip: string, zone: string): string {
  const bytes = ipaddr.parse(ip).toByteArray();
  if (bytes.length === 4) return `${bytes.reverse().join('.')}.${zone}`;
  const nibbles = bytes
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('')
    .split('')
    .reverse()
    .join('.');
  return `${nibbles}.${zone}`;
}

/** The host of a URL, host[:port] or [v6]:port as feeds and span attributes carry it, and whether it is an address. */
export function hostOf(raw: string): { host: string; ip: boolean } | undefined {
  let s = raw.trim();
  if (s === '') return undefined;
  if (s.includes('://')) {
    try {
      s = new URL(s).hostname;
    } catch {
      return undefined;
    }
  } else if (s.startsWith('[')) {
    s = s.slice(1, s.indexOf(']'));
  } else if (s.indexOf(':') === s.lastIndexOf(':')) {
    s = s.replace(/:\d+$/, ''); // host:port (an IPv6 address has several colons)
  }
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const ip = normalizeIp(s);
  if (ip) return { host: ip, ip: true };
  const d = normalizeDomain(s);
  return d ? { host: d, ip: false } : undefined;
}
