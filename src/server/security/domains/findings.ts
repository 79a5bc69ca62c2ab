// The problems a domain check saw, as findings with stable keys (security_findings): the same
// problem keeps its key from run to run, so it stays one finding with first and last seen.
import type { FindingInput } from '../../db/repositories/security-findings-repo.ts';
import type { DomainReport } from './domain-check.ts';

const DAY_MS = 86_400_000;
/** RFC 7208 4.6.4 */
export const SPF_LOOKUP_LIMIT = 10;

export const daysLeft = (expiresAt: number, now: number) => Math.floor((expiresAt - now) / DAY_MS);

function registrationFindings(domain: string, r: DomainReport, now: number): FindingInput[] {
  const at = r.registration?.expiresAt;
  if (at == null) return [];
  const date = new Date(at).toISOString().slice(0, 10);
  if (at <= now) {
    return [
      {
        key: 'registration.expired',
        severity: 'critical',
        title: `The registration of ${domain} has expired`,
        evidence: `RDAP expiration ${date}`,
      },
    ];
  }
  const days = daysLeft(at, now);
  if (days > 30) return [];
  return [
    {
      key: 'registration.expiring',
      severity: days <= 7 ? 'high' : 'medium',
      title: `The registration of ${domain} expires in ${days} day${days === 1 ? '' : 's'}`,
      evidence: `RDAP expiration ${date}`,
    },
  ];
}

function spfFindings(domain: string, r: DomainReport): FindingInput[] {
  const spf = r.spf;
  if (!spf) return [];
  if (!spf.record)
    return [
      {
        key: 'spf.missing',
        severity: 'medium',
        title: `${domain} has no SPF record`,
        evidence: `No TXT record starting with v=spf1 at ${domain}`,
      },
    ];
  const out: FindingInput[] = [];
  if (spf.count > 1)
    out.push({
      key: 'spf.multiple',
      severity: 'medium',
      title: `${domain} has ${spf.count} SPF records (receivers answer permerror)`,
      evidence: spf.record,
    });
  if (spf.all === '+')
    out.push({
      key: 'spf.pass_all',
      severity: 'high',
      title: `The SPF record of ${domain} lets any server send as it (+all)`,
      evidence: spf.record,
    });
  if (spf.lookups > SPF_LOOKUP_LIMIT)
    out.push({
      key: 'spf.too_many_lookups',
      severity: 'medium',
      title: `The SPF record of ${domain} needs ${spf.lookups} DNS lookups (the limit is ${SPF_LOOKUP_LIMIT})`,
      evidence: spf.record,
    });
  return out;
}

function dmarcFindings(domain: string, r: DomainReport): FindingInput[] {
  const d = r.dmarc;
  if (!d) return [];
  if (!d.record)
    return [
      {
        key: 'dmarc.missing',
        severity: 'medium',
        title: `${domain} has no DMARC record`,
        evidence: `No v=DMARC1 TXT record at _dmarc.${domain}`,
      },
    ];
  if (d.policy === 'quarantine' || d.policy === 'reject') return [];
  return [
    {
      key: 'dmarc.policy_none',
      severity: 'low',
      title: `The DMARC policy of ${domain} does not act on failing mail (p=${d.policy ?? 'missing'})`,
      evidence: d.record,
    },
  ];
}

function dkimFindings(domain: string, r: DomainReport): FindingInput[] {
  return r.dkim.flatMap((k): FindingInput[] => {
    const name = `${k.selector}._domainkey.${domain}`;
    if (k.status === 'missing')
      return [
        {
          key: `dkim.${k.selector}.missing`,
          severity: 'medium',
          title: `No DKIM key for selector ${k.selector}`,
          evidence: `No TXT record with p= at ${name}`,
        },
      ];
    if (k.status === 'revoked')
      return [
        {
          key: `dkim.${k.selector}.revoked`,
          severity: 'low',
          title: `The DKIM key of selector ${k.selector} is revoked (empty p=)`,
          evidence: `p= is empty at ${name}`,
        },
      ];
    return [];
  });
}

function mtaStsFindings(domain: string, r: DomainReport): FindingInput[] {
  const m = r.mtaSts;
  if (!m) return [];
  if (m.error)
    return [
      {
        key: 'mta_sts.policy_unavailable',
        severity: 'medium',
        title: `The MTA-STS policy of ${domain} cannot be read`,
        evidence: `${m.error} (https://mta-sts.${domain}/.well-known/mta-sts.txt)`,
      },
    ];
  if (m.mode !== 'enforce')
    return [
      {
        key: 'mta_sts.not_enforced',
        severity: 'low',
        title: `The MTA-STS policy of ${domain} is not enforced (mode ${m.mode})`,
        evidence: `mode: ${m.mode}`,
      },
    ];
  return [];
}

export function domainFindings(domain: string, r: DomainReport, now: number): FindingInput[] {
  return [
    ...registrationFindings(domain, r, now),
    ...spfFindings(domain, r),
    ...dmarcFindings(domain, r),
    ...dkimFindings(domain, r),
    ...mtaStsFindings(domain, r),
    ...(r.dnssec.status === 'unsigned'
      ? [
          {
            key: 'dnssec.unsigned',
            severity: 'low' as const,
            title: `${domain} is not signed with DNSSEC`,
            evidence: `No DS record for ${domain} in its parent zone`,
          },
        ]
      : []),
    ...r.cnames
      .filter((c) => c.dangling)
      .map((c) => ({
        key: `cname.dangling.${c.name}`,
        severity: 'high' as const,
        title: `${c.name} points at a name that does not exist (subdomain takeover risk)`,
        evidence: `${c.name} CNAME ${c.target}; ${c.target} answers NXDOMAIN`,
      })),
  ];
}
