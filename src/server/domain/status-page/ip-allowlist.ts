// IP allow-lists of private status pages: CIDR ranges (IPv4 and IPv6) written by an admin, and
// whether a visitor's address is inside one. Pure; parsing by ipaddr.js.
import ipaddr from 'ipaddr.js';

export const ALLOWLIST_MAX = 100;

/** An address in its plain form: an IPv4-mapped IPv6 address (::ffff:10.0.0.1) is its IPv4 one. */
function parseAddress(ip: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  try {
    return ipaddr.process(ip.trim());
  } catch {
    return null;
  }
}

/**
 * One entry in canonical CIDR form ('10.0.0.0/8', '2001:db8::/32'), or null when it is not an
 * address or a range. A bare address is a range of one (/32 or /128); host bits are cleared.
 */
export function normalizeCidr(entry: string): string | null {
  const text = entry.trim();
  if (!text || text.length > 64) return null;
  // Only the usual spellings: ipaddr.js also reads '1.2.3' or '0x7f.1' as addresses.
  const address = text.split('/')[0];
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !(address.includes(':') && ipaddr.IPv6.isValid(address))) return null;
  try {
    if (!text.includes('/')) {
      const addr = parseAddress(text);
      return addr ? `${addr.toString()}/${addr.kind() === 'ipv4' ? 32 : 128}` : null;
    }
    const [addr, bits] = ipaddr.parseCIDR(text);
    const plain = addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96;
    const [base, prefix] = plain ? [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96] : [addr, bits];
    const network =
      base.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(`${base}/${prefix}`)
        : ipaddr.IPv6.networkAddressFromCIDR(`${base}/${prefix}`);
    return `${network.toString()}/${prefix}`;
  } catch {
    return null;
  }
}

/** The list in canonical form, duplicates dropped, or the first entry that is not a range. */
export function parseAllowlist(entries: readonly string[]): { ok: string[] } | { error: string; index: number } {
  if (entries.length > ALLOWLIST_MAX) return { error: `At most ${ALLOWLIST_MAX} ranges.`, index: ALLOWLIST_MAX };
  const out: string[] = [];
  for (const [index, entry] of entries.entries()) {
    const cidr = normalizeCidr(entry);
    if (!cidr)
      return { error: `"${entry.slice(0, 64)}" is not an IP address or CIDR range (e.g. 203.0.113.0/24 or 2001:db8::/32).`, index };
    if (!out.includes(cidr)) out.push(cidr);
  }
  return { ok: out };
}

/** Whether `ip` lies in one of the (canonical) ranges. */
export function ipAllowed(ip: string, ranges: readonly string[]): boolean {
  const addr = parseAddress(ip);
  if (!addr) return false;
  return ranges.some((range) => {
    try {
      const [net, bits] = ipaddr.parseCIDR(range);
      return net.kind() === addr.kind() && addr.match(net, bits);
    } catch {
      return false;
    }
  });
}
