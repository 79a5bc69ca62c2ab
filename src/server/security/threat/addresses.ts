// Address and name arithmetic of threat matching: the 32-hex-digit key that orders IPv4 and IPv6
// addresses alike (so CIDR ranges are compared as text on both databases), the names a domain
// listing covers, and the query names of DNS blocklists (RFC 5782).
import { domainToASCII } from 'node:url';
import ipaddr from 'ipaddr.js';

const DOMAIN_RE = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Lower-case, no trailing dot; undefined for something that is no plausible host name. */
export function normalizeDomain(raw: string): string | undefined {
  let d = raw.trim().toLowerCase().replace(/\.$/, '');
  if (/[^\x00-\x7f]/.test(d)) d = domainToASCII(d); // IDN: compared in punycode
  if (d.length === 0 || d.length > 253 || ipaddr.isValid(d)) return undefined;
  return DOMAIN_RE.test(d) ? d : undefined;
}

/** The canonical text of an IP address (IPv4-mapped IPv6 as IPv4); undefined when it is none. */
export function normalizeIp(raw: string): string | undefined {
  const s = raw.trim().replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(s)) return undefined;
  const a = ipaddr.parse(s);
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress()) return (a as ipaddr.IPv6).toIPv4Address().toString();
  // ipaddr.isValid accepts '1' or '0x7f.1' as IPv4; a list means dotted quads.
  if (a.kind() === 'ipv4' && !ipaddr.IPv4.isValidFourPartDecimal(s)) return undefined;
  return a.toString();
}

const hex = (bytes: number[]) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

/** 32 hex digits; IPv4 as ::ffff:a.b.c.d, so both families share one ordering. */
export function ipKey(ip: string): string {
  const a = ipaddr.parse(ip);
  const v6 = a.kind() === 'ipv4' ? (a as ipaddr.IPv4).toIPv4MappedAddress() : (a as ipaddr.IPv6);
  return hex(v6.toByteArray());
}

/** A CIDR's canonical text and its first and last address keys; undefined when it is none. */
export function cidrRange(raw: string): { value: string; lo: string; hi: string } | undefined {
  const s = raw.trim();
  if (!ipaddr.isValidCIDR(s)) return undefined;
  const [addr, bits] = ipaddr.parseCIDR(s);
  const v4 = addr.kind() === 'ipv4';
  if (v4 && !ipaddr.IPv4.isValidFourPartDecimal(s.split('/')[0])) return undefined;
  const width = v4 ? 32 : 128;
  const bytes = addr.toByteArray();
  const lo = bytes.slice();
  const hi = bytes.slice();
  for (let bit = bits; bit < width; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    lo[i] &= ~mask;
    hi[i] |= mask;
  }
  const prefix = v4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] : [];
  const base = ipaddr.fromByteArray(lo).toString();
  return { value: `${base}/${bits}`, lo: hex([...prefix, ...lo]), hi: hex([...prefix, ...hi]) };
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
  const a = ipaddr.parse(ip);
  if (a.kind() === 'ipv4') return `${a.toByteArray().reverse().join('.')}.${zone}`;
  const nibbles = hex(a.toByteArray()).split('').reverse().join('.');
  return `${nibbles}.${zone}`;
}

/** The host of a URL or a host[:port] as a span attribute carries it; undefined when none. */
export function hostOf(raw: string): string | undefined {
  const s = raw.trim();
  if (s === '') return undefined;
  let host = s;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    try {
      host = new URL(s).hostname;
    } catch {
      return undefined;
    }
  } else if (!ipaddr.isValid(s.replace(/^\[|\]$/g, ''))) {
    host = s.replace(/:\d+$/, '');
  }
  host = host.replace(/^\[|\]$/g, '');
  return normalizeIp(host) ?? normalizeDomain(host);
}
