// One domain's checks: registration (RDAP), the record snapshot, e-mail authentication (SPF with
// its lookup count, DMARC, DKIM for the admin's selectors, MTA-STS with its policy file),
// DNSSEC (DS records at the parent, AD flag) and dangling CNAMEs of the names under it. Every
// DNS question goes to DNS_RESOLVERS (the system's when unset); every HTTP request through the
// SSRF guard. Only verified domains come here (domain/security/domain-checks.ts).
import { getServers, Resolver as CaresResolver } from 'node:dns/promises';
import type { PrivateTargets, Resolver } from '../../net/ssrf.ts';
import { TargetRefused } from '../../net/ssrf.ts';
import { mtaStsId, parseDkim, parseDmarc, parseMtaStsPolicy, type Dkim, type Dmarc } from './email-auth.ts';
import { guardedGet, GetFailure } from './guarded-get.ts';
import { queryWire, TYPE_DS } from './dns-wire.ts';
import { lookupRegistration, type Registration } from './rdap.ts';
import type { RdapDirectory } from '../../net/rdap-bootstrap.ts';
import { isNoData, takeSnapshot, type Snapshot } from './records.ts';
import { analyseSpf, type SpfAnalysis } from './spf.ts';

export interface DomainCheckEnv {
  /** DNS_RESOLVERS; undefined: the system's */
  dnsServers?: readonly string[];
  allowPrivateTargets: PrivateTargets;
  /** Address lookups for the SSRF guard (c-ares) */
  resolve: Resolver;
  extraCa?: readonly string[];
  rdap: RdapDirectory;
  /** Port of the MTA-STS policy host (443; tests serve it elsewhere) */
  mtaStsPort?: number;
  /** Deadline of one domain's whole check */
  timeoutMs: number;
}

export interface DomainCheckInput {
  domain: string;
  /** Names under the domain whose CNAMEs are looked at (verified hosts and watched names) */
  names: string[];
  dkimSelectors: string[];
}

export interface MtaSts {
  id: string;
  mode: string | null;
  /** Why the policy file could not be read; null when it was */
  error: string | null;
}

export type DnssecStatus = 'signed' | 'unsigned' | 'unknown';

export interface DanglingCname {
  name: string;
  target: string;
}

export interface DomainReport {
  registration: Registration | null;
  rdapError: string | null;
  records: Snapshot;
  /** null when the resolvers could not be asked (then no finding either way) */
  spf: SpfAnalysis | null;
  dmarc: Dmarc | null;
  dkim: Dkim[];
  mtaSts: MtaSts | null;
  dnssec: { status: DnssecStatus; validated: boolean };
  cnames: Array<{ name: string; target: string; dangling: boolean }>;
}

const TRY_TIMEOUT_MS = 2000;
const MTA_STS_MAX_BYTES = 64 * 1024; // RFC 8461 3.2

function txtLookup(r: CaresResolver) {
  return async (name: string): Promise<string[]> => {
    try {
      return (await r.resolveTxt(name)).map((parts) => parts.join(''));
    } catch (e) {
      if (isNoData(e)) return [];
      throw e;
    }
  };
}

async function dnssecOf(servers: readonly string[], domain: string, signal: AbortSignal): Promise<DomainReport['dnssec']> {
  for (const server of servers) {
    try {
      const a = await queryWire(server, domain, TYPE_DS, TRY_TIMEOUT_MS, signal);
      if (a.rcode !== 0 && a.rcode !== 3) continue;
      return { status: a.answerTypes.includes(TYPE_DS) ? 'signed' : 'unsigned', validated: a.ad };
    } catch {
      if (signal.aborted) break;
    }
  }
  return { status: 'unknown', validated: false };
}

async function mtaStsOf(
  domain: string,
  txt: (n: string) => Promise<string[]>,
  env: DomainCheckEnv,
  signal: AbortSignal,
): Promise<MtaSts | null> {
  let id: string | null;
  try {
    id = mtaStsId(await txt(`_mta-sts.${domain}`));
  } catch {
    return null;
  }
  if (id === null) return null;
  const port = env.mtaStsPort && env.mtaStsPort !== 443 ? `:${env.mtaStsPort}` : '';
  try {
    const answer = await guardedGet(new URL(`https://mta-sts.${domain}${port}/.well-known/mta-sts.txt`), {
      allowPrivateTargets: env.allowPrivateTargets,
      resolve: env.resolve,
      extraCa: env.extraCa,
      accept: 'text/plain',
      maxBytes: MTA_STS_MAX_BYTES,
      signal,
    });
    if (answer.status !== 200) return { id, mode: null, error: `The policy file answered HTTP ${answer.status}` };
    const policy = parseMtaStsPolicy(answer.body);
    if (!policy.mode) return { id, mode: null, error: 'The policy file is not an STSv1 policy' };
    return { id, mode: policy.mode, error: null };
  } catch (e) {
    if (signal.aborted) return { id, mode: null, error: 'The policy host did not answer in time' };
    if (e instanceof TargetRefused || e instanceof GetFailure) return { id, mode: null, error: e.message };
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (/CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS/.test(code)) return { id, mode: null, error: 'The policy host has no valid certificate' };
    return { id, mode: null, error: 'The policy host could not be reached' };
  }
}

/** A CNAME whose target does not exist (NXDOMAIN) can be claimed by whoever registers the target. */
async function cnameOf(r: CaresResolver, name: string): Promise<DomainReport['cnames'][number] | null> {
  let target: string | undefined;
  try {
    target = (await r.resolveCname(name))[0]?.toLowerCase();
  } catch {
    return null;
  }
  if (!target) return null;
  const gone = async (q: Promise<unknown>) => {
    try {
      await q;
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ENOTFOUND';
    }
  };
  const [v4, v6] = await Promise.all([gone(r.resolve4(target)), gone(r.resolve6(target))]);
  return { name, target, dangling: v4 && v6 };
}

export async function checkDomain(input: DomainCheckInput, env: DomainCheckEnv): Promise<DomainReport> {
  const signal = AbortSignal.timeout(env.timeoutMs);
  const r = new CaresResolver({ timeout: TRY_TIMEOUT_MS, tries: 2 });
  const servers = env.dnsServers?.length ? [...env.dnsServers] : getServers();
  r.setServers(servers);
  signal.addEventListener('abort', () => r.cancel(), { once: true });
  const txt = txtLookup(r);
  const { domain } = input;
  const dkimOf = async (selector: string): Promise<Dkim> => {
    try {
      return parseDkim(selector, await txt(`${selector}._domainkey.${domain}`));
    } catch {
      return { selector, status: 'missing', keyType: null };
    }
  };
  const [rdap, records, spf, dmarcTxt, dkim, mtaSts, dnssec, cnames] = await Promise.all([
    lookupRegistration(
      domain,
      { directory: env.rdap, allowPrivateTargets: env.allowPrivateTargets, resolve: env.resolve, extraCa: env.extraCa },
      signal,
    ),
    takeSnapshot(r, domain, env.allowPrivateTargets),
    analyseSpf(domain, txt).catch(() => null),
    txt(`_dmarc.${domain}`).catch(() => null),
    Promise.all(input.dkimSelectors.map(dkimOf)),
    mtaStsOf(domain, txt, env, signal),
    dnssecOf(servers, domain, signal),
    Promise.all(input.names.map((n) => cnameOf(r, n))),
  ]);
  return {
    registration: 'registration' in rdap ? rdap.registration : null,
    rdapError: 'error' in rdap ? rdap.error : null,
    records,
    spf,
    dmarc: dmarcTxt ? parseDmarc(dmarcTxt) : null,
    dkim,
    mtaSts,
    dnssec,
    cnames: cnames.filter((c) => c !== null),
  };
}
