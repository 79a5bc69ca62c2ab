// TXT and CNAME lookups through the configured resolvers (DNS_RESOLVERS, else the system's), for
// proofs of control such as a custom domain's. c-ares like dns-lookup.ts, bounded in time.
import { Resolver as CaresResolver } from 'node:dns/promises';

export interface DnsRecords {
  /** every TXT record of `name`, each one's strings joined; [] when there is none */
  txt(name: string): Promise<string[]>;
  /** the CNAME targets of `name` (lower case, no trailing dot); [] when there is none */
  cname(name: string): Promise<string[]>;
}

const NONE = new Set(['ENODATA', 'ENOTFOUND']);

export function dnsRecords(servers?: readonly string[], timeoutMs = 1500): DnsRecords {
  const resolver = () => {
    const r = new CaresResolver({ timeout: timeoutMs, tries: 2 });
    if (servers?.length) r.setServers([...servers]);
    return r;
  };
  const orNone = async <T>(ask: Promise<T[]>): Promise<T[]> => {
    try {
      return await ask;
    } catch (e) {
      if (NONE.has((e as NodeJS.ErrnoException).code ?? '')) return [];
      throw e;
    }
  };
  return {
    txt: async (name) => (await orNone(resolver().resolveTxt(name))).map((parts) => parts.join('')),
    cname: async (name) => (await orNone(resolver().resolveCname(name))).map((t) => t.toLowerCase().replace(/\.$/, '')),
  };
}
