// Proof that a company controls a custom domain: a TXT record _statuswatch-challenge.<domain>
// holding the domain's token, and a CNAME from the domain to the platform's target. Every
// message is ours; of the zone's data only a name that looks like a host name is repeated.
import { challengeName } from '../../../lib/custom-domains.ts';
import type { DnsRecords } from '../../net/dns-records.ts';

export type ProofOutcome =
  | { kind: 'proven' }
  /** the zone answered, and the records are missing or wrong: control is not proven */
  | { kind: 'refuted'; error: string }
  /** the DNS did not answer (time-out, SERVFAIL): nothing is known */
  | { kind: 'unknown'; error: string };

const HOST_RE = /^[a-z0-9._-]{1,253}$/;

export async function checkProof(dns: DnsRecords, domain: string, token: string, target: string): Promise<ProofOutcome> {
  const txtName = challengeName(domain);
  try {
    const [txt, cname] = await Promise.all([dns.txt(txtName), dns.cname(domain)]);
    if (!txt.some((t) => t.trim() === token)) {
      return { kind: 'refuted', error: `No TXT record ${txtName} holding the verification token was found.` };
    }
    if (!cname.includes(target)) {
      const found = cname.find((c) => HOST_RE.test(c));
      return {
        kind: 'refuted',
        error: `${domain} has no CNAME record pointing at ${target}${found ? ` (it points at ${found})` : ''}.`,
      };
    }
    return { kind: 'proven' };
  } catch (e) {
    const code = String((e as NodeJS.ErrnoException).code ?? 'error')
      .replace(/[^A-Z_]/g, '')
      .slice(0, 20);
    return { kind: 'unknown', error: `The DNS lookup of ${domain} failed (${code || 'error'}); try again later.` };
  }
}
