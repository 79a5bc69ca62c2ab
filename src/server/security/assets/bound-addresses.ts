// The addresses a proof of control vouches for (issue 25, item 16). A TXT record proves control of
// a name, not of the servers it points at: the proof binds the addresses the name had when it was
// proven, and whatever connects to the asset later (scans, TLS analyses) connects only to those.
// A name that points elsewhere afterwards needs a new proof before anything connects to it.
import ipaddr from 'ipaddr.js';
import type { Resolver } from '../../net/dns-lookup.ts';

/** At most this many addresses are bound per proof (a name with more keeps the first ones). */
export const MAX_BOUND_ADDRESSES = 16;

/** One spelling per address (IPv6 compressed, IPv4-mapped IPv6 as IPv4), so sets compare. */
export function normalizeAddress(address: string): string {
  return ipaddr.isValid(address) ? ipaddr.process(address).toString() : address;
}

/** The distinct normalised addresses, sorted, at most MAX_BOUND_ADDRESSES. */
export function addressSet(addresses: Iterable<string>): string[] {
  return [...new Set([...addresses].map(normalizeAddress))].sort().slice(0, MAX_BOUND_ADDRESSES);
}

/** The stored column as a list; null: verified before addresses were bound. */
export function parseBound(column: string | null): string[] | null {
  if (column === null) return null;
  try {
    const v = JSON.parse(column) as unknown;
    return Array.isArray(v) ? v.filter((a): a is string => typeof a === 'string') : [];
  } catch {
    return [];
  }
}

/** The addresses of `now` that the proof does not vouch for (empty: all bound). */
export function unboundAddresses(now: readonly string[], bound: readonly string[]): string[] {
  const ok = new Set(bound.map(normalizeAddress));
  return addressSet(now).filter((a) => !ok.has(a));
}

/** Thrown by a bound resolver when the name answers an address the proof does not vouch for. */
export class AddressNotBound extends Error {
  readonly code = 'EADDRNOTBOUND';
}

/**
 * `resolve` restricted to the proven addresses: a lookup that answers any other address fails, so
 * a name re-pointed in the middle of a scan reaches nothing new (the SSRF guard then refuses the
 * request as it refuses a name that does not resolve).
 */
export function boundResolver(resolve: Resolver, bound: readonly string[]): Resolver {
  return async (host, opts) => {
    const answers = await resolve(host, opts);
    const outside = unboundAddresses(
      answers.map((a) => a.address),
      bound,
    );
    if (outside.length > 0) throw new AddressNotBound(`${host} points to ${outside.join(', ')}, outside its proof of control`);
    return answers;
  };
}
