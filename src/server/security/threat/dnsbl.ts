// DNS blocklists (RFC 5782): a listed name or address answers an A record in 127.0.0.0/8
// (127.0.0.2 and up; the TXT record says why); no such name means not listed. Answers in
// 127.255.255.0/24 are the list's refusals (Spamhaus answers those to open resolvers), so they
// count as "could not tell", never as listed.
import type { BlocklistZone } from '../../threat-config.ts';
import { dnsblIpQuery } from './addresses.ts';
import type { ThreatDns } from './dns.ts';

export interface BlocklistListing {
  zone: string;
  /** The name or address that is listed */
  subject: string;
  /** The A answer(s), e.g. 127.0.0.2 */
  answer: string;
  reason: string | null;
}

export interface BlocklistVerdict {
  listings: BlocklistListing[];
  /** A question had no usable answer (timeout, refusal) */
  incomplete: boolean;
}

export async function checkBlocklists(
  dns: ThreatDns,
  zones: readonly BlocklistZone[],
  subject: { domain: string; ips: string[] },
): Promise<BlocklistVerdict> {
  const verdict: BlocklistVerdict = { listings: [], incomplete: false };
  for (const z of zones) {
    const asks =
      z.type === 'domain'
        ? [{ subject: subject.domain, name: `${subject.domain}.${z.zone}` }]
        : subject.ips.map((ip) => ({ subject: ip, name: dnsblIpQuery(ip, z.zone) }));
    for (const ask of asks) {
      let answers: string[];
      try {
        answers = await dns.a(ask.name);
      } catch {
        verdict.incomplete = true;
        continue;
      }
      if (answers.some((a) => a.startsWith('127.255.255.'))) {
        verdict.incomplete = true;
        continue;
      }
      const listed = answers.filter((a) => a.startsWith('127.'));
      if (listed.length === 0) continue;
      const reason = await dns.txt(ask.name).then(
        (t) => t.join(' ').slice(0, 300) || null,
        () => null,
      );
      verdict.listings.push({ zone: z.zone, subject: ask.subject, answer: listed.sort().join(', '), reason });
    }
  }
  return verdict;
}
